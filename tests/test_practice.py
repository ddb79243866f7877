"""`pasur practice`: the positions where a player's play cost 2 points or more in reviewed deals,
rebuilt as they stood, answered over a pipe and in a real terminal (pexpect), judged against the
best option, kept in the record book (missed ones first next time) and never changing a match."""

from __future__ import annotations

import os
import random
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pexpect
import pytest
from hypothesis import given
from hypothesis import strategies as st
from simulate import random_table

from pasur_cli.cli.practice import marked_decisions, option_values
from pasur_cli.engine.advice import MISTAKE, Advice, PlayReview, hint, options, quick
from pasur_cli.engine.cards import DECK, parse_card, parse_cards
from pasur_cli.engine.errors import IllegalPlayError
from pasur_cli.engine.match import Match
from pasur_cli.engine.practice import Decision, Practised, judge, position, practice_order
from pasur_cli.engine.rules import PRESETS
from pasur_cli.store.database import Store
from pasur_cli.store.schema import SCHEMA_VERSION
from pasur_cli.text.i18n import _, set_language
from pasur_cli.text.render import Look

TTY = pytest.mark.skipif(not sys.stdin or os.name != "posix", reason="needs a pseudo-terminal")
DATA = Path(__file__).resolve().parent / "data"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MATCH_TABLES = ("matches", "actions", "snapshots")


def sur_missed() -> Match:
    """One deal (standard rules): Sara leads on A♣ 2♦ 3♥ 4♠ holding A♠, which takes all four (a
    sur), and trails K♦ instead; she leads the next three hands with the option a quick hint values
    least; the rest is played by the engine's playout policy, Ali dealt the last four cards of the
    stock first."""
    match = Match(["Ali", "Sara"], PRESETS["standard"])
    table = parse_cards("AC 2D 3H 4S")
    held = parse_cards("AS 8H KD QC")
    others = [c for c in DECK if c not in table and c not in held]
    random.Random(5).shuffle(others)
    stock = others[:-4] + held[::-1] + others[-4:]
    match.start_deal(table)
    hands: dict[str, list] = {}
    while match.deal is not None:
        deal = match.deal
        if deal.played % 8 == 0:
            hands = {p: [stock.pop() for _ in range(4)] for p in match.players}
        if deal.played == 0:
            card, take = parse_card("KD"), ()
        elif deal.played in (8, 16, 24):
            worst = hint(match, hands[deal.turn], seed=1, effort=4, most=8)[-1]
            card, take = worst.card, worst.take
        else:
            card, take = quick(match, hands[deal.turn])
        hands[deal.turn].remove(card)
        match.play(card, list(take))
    return match


@pytest.fixture
def stored(db):
    """The database with ``sur_missed`` stored as match 1 (schema of this pasur)."""
    match = sur_missed()
    store = Store(str(db), write=True, create=True)
    store.create(match.players, match.rules, 0, match.log)
    store.close()
    return db


def match_rows(path) -> dict[str, list]:
    """Every row of the tables that hold the matches."""
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in MATCH_TABLES}
    finally:
        con.close()


def practice_rows(path) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT match_id, deal, play, card, found, tries FROM practice ORDER BY seen").fetchall()
    finally:
        con.close()


def sara_positions(db) -> list[tuple[Decision, Match, list, list[Advice]]]:
    """Sara's marked decisions in match 1's deal 1, each with its rebuilt board, hand, and every
    option valued (best first), as practice finds them."""
    store = Store(str(db))
    try:
        found = marked_decisions(store, "Sara", (1, 1))
        out = []
        for d in found:
            board, hand = position(store.load(1, full=True).replay(), d.deal, d.play)
            out.append((d, board, hand, list(option_values(d, board, hand))))
        return out
    finally:
        store.close()


def number_of(board: Match, hand: list, advice: Advice) -> int:
    """The number practice lists ``advice`` under (the referee's order of the options)."""
    listed = options(board.deal, hand)
    return next(n for n, (card, take) in enumerate(listed, 1) if card == advice.card and set(take) == set(advice.take))


# -- the engine's part -----------------------------------------------------------------------
def test_each_position_is_the_match_replayed_to_the_play_with_the_hand_then_held(stored):
    """Every marked play of Sara: the board's deal has had exactly the plays before it, Sara is to
    move, she holds as many cards as the engine says with the card she played among them, and the
    play she made is legal there; the first is the K♦ trailed on the sur."""
    positions = sara_positions(stored)
    assert len(positions) >= 2
    first = positions[0][0]
    assert (first.play, first.review.card, first.review.take) == (1, parse_card("KD"), ())
    assert first.review.loss >= MISTAKE
    assert (first.review.best_card, set(first.review.best_take)) == (parse_card("AS"), set(parse_cards("AC 2D 3H 4S")))
    for decision, board, hand, valued in positions:
        deal = board.deal
        assert deal.played == decision.play - 1 and deal.turn == "Sara" == decision.review.player
        assert len(hand) == deal.cards_left()["Sara"] and decision.review.card in hand
        assert set(deal.verify_play(decision.review.card, decision.review.take)) == set(decision.review.take)
        assert len(valued) == len(options(deal, hand)) == decision.review.choices


@pytest.mark.parametrize("players", [["Ali", "Sara", "Reza"], ["Ali", "Sara", "Reza", "Mina"]])
def test_every_play_of_a_deal_of_three_or_four_is_rebuilt_where_it_was_made(players):
    """Each play of a deal played by the playout policy: the rebuilt board has had exactly the
    plays before it, the player to move holds as many cards as the engine says, among them the
    card they played, and the play is legal there."""
    rng = random.Random(len(players))
    match = Match(players, PRESETS["standard"])
    table, stock = random_table(rng, match.rules)
    match.start_deal(table)
    hands: dict[str, list] = {}
    while match.deal is not None:
        deal = match.deal
        if deal.played % (4 * len(players)) == 0:
            hands = {p: [stock.pop() for _ in range(4)] for p in players}
        card, take = quick(match, hands[deal.turn])
        hands[deal.turn].remove(card)
        match.play(card, list(take))
    plays = match.log[1:]
    assert len(plays) == 48
    for k, made in enumerate(plays, 1):
        board, hand = position(match, 1, k)
        deal = board.deal
        assert deal.played == k - 1 and deal.turn == made.by
        assert len(hand) == deal.cards_left()[deal.turn] and made.card in hand
        assert set(deal.verify_play(made.card, made.take)) == set(made.take)


def test_a_position_a_log_does_not_have_is_refused():
    match = sur_missed()
    with pytest.raises(IllegalPlayError, match="no play 49"):
        position(match, 1, 49)
    with pytest.raises(IllegalPlayError):
        position(match, 2, 1)


def advice(code: str, value: float, take: str = "") -> Advice:
    return Advice(parse_card(code), tuple(parse_cards(take.split())) if take else (), value)


def test_an_answer_is_found_when_best_or_within_half_a_point_of_it():
    listed = [advice("AS", 3.0, "AC 2D"), advice("KD", 2.5), advice("8H", 2.4)]
    assert judge(listed, parse_card("AS"), tuple(parse_cards("2D AC"))).found  # the take in any order
    close = judge(listed, parse_card("KD"), ())
    assert close.found and close.best == listed[0] and close.chosen == listed[1]
    assert not judge(listed, parse_card("8H"), ()).found
    with pytest.raises(IllegalPlayError):
        judge(listed, parse_card("QC"), ())


def decision(match_id: int, deal: int, play: int, card: str = "AS") -> Decision:
    review = PlayReview("Sara", 1, parse_card(card), (), parse_card(card), (), 2.5, "mistake", 2)
    return Decision(match_id, deal, play, review)


@given(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3)), unique=True, max_size=12),
       st.data())
def test_missed_positions_come_first_then_new_then_found_each_longest_unseen_first(keys, data):
    """Whatever was practised before (found, missed, or a result of a card no longer there), the
    order is: missed by when last seen, never practised in the book's order, found by when last
    seen; every decision once; each deal's decisions asked for once at most."""
    deals = sorted({k[:2] for k in keys})
    every = {deal: [decision(*deal, play) for (m, d, play) in sorted(keys) if (m, d) == deal] for deal in deals}
    seen = data.draw(st.permutations(range(1, len(keys) + 1)))
    practised = {}
    for key, when in zip(sorted(keys), seen, strict=True):
        kind = data.draw(st.sampled_from(["new", "found", "missed", "changed"]))
        if kind != "new":
            practised[key] = Practised(parse_card("KD" if kind == "changed" else "AS"), kind == "found", 1, when)
    asked = []

    def decisions(deal):
        asked.append(deal)
        return every[deal]
    order = list(practice_order(deals, decisions, practised))
    assert sorted(d.key for d in order) == sorted(keys) and len(asked) == len(set(asked))

    def kind(d):
        p = practised.get(d.key)
        return "new" if p is None or p.card != d.review.card else "found" if p.found else "missed"
    kinds = [kind(d) for d in order]
    assert kinds == sorted(kinds, key=["missed", "new", "found"].index)
    for group in ("missed", "found"):
        whens = [practised[d.key].seen for d in order if kind(d) == group]
        assert whens == sorted(whens)
    assert [d.key for d in order if kind(d) == "new"] == sorted(d.key for d in order if kind(d) == "new")


def test_the_first_new_position_comes_before_the_later_deals_are_reviewed():
    deals = [(1, 1), (1, 2), (2, 1)]
    asked = []

    def decisions(deal):
        asked.append(deal)
        return [decision(*deal, 3)]
    order = practice_order(deals, decisions, {})
    assert next(order).key == (1, 1, 3) and asked == [(1, 1)]


# -- over a pipe -----------------------------------------------------------------------------
def test_practice_over_a_pipe_judges_each_answer_and_keeps_it(pasur, stored):
    """Scripted: the sur found by its cards, a refused card, a number out of range, then the
    worst option of the next position by its number; the end of input ends with the summary. The
    answers are kept; the matches are as they were."""
    positions = sara_positions(stored)
    (_d1, _b1, hand1, first), (d2, board2, hand2, second) = positions[0], positions[1]
    assert first[0].card == parse_card("AS")
    worst = second[-1]
    assert worst.value < second[0].value - 0.5
    before = match_rows(stored)
    result = pasur("--match", "1", "practice", "--player", "sa", "--ascii",
                   input=f"as\n\nzz\n{worst.card.code.lower()}x\n99\n{number_of(board2, hand2, worst)}\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Position 1: match 1, deal 1, hand 1; Sara to play." in out
    assert f"Sara holds {Look(ascii=True).cards(hand1)}." in out
    assert "Found: AS taking" in out and "is the best option." in out
    assert "In the match: hand 1: Sara trails KD — " in out
    assert "Error: there is no option 99: type a number from 1 to" in out
    assert f"Position 2: match 1, deal 1, hand {board2.deal.hand}; Sara to play." in out
    assert re.search(r"Not found: .* \([-+]\d+\.\d\); the best option is .* \([-+]\d+\.\d\)\.", out)
    assert "In the match: hand" in out.split("Not found")[1]
    assert out.rstrip().endswith("1 of 2 found.")
    assert out.count("Error: ") == 3  # zz, the mistyped card, 99
    assert practice_rows(stored) == [(1, 1, 1, "KD", 1, 1), (1, 1, d2.play, d2.review.card.code, 0, 1)]
    assert match_rows(stored) == before


def test_without_positions_it_says_so_and_unknown_names_are_refused(pasur, db):
    assert pasur("new", "Ali", "Sara").exit_code == 0
    result = pasur("practice")
    assert result.exit_code == 0
    assert result.output == "No position to practise: no play of a reviewed deal cost 2 points or more.\n"
    result = pasur("practice", "--player", "ali")
    assert result.output == "No position to practise: no play of Ali in a reviewed deal cost 2 points or more.\n"
    before = match_rows(db)
    result = pasur("practice", "--player", "Bob")
    assert result.exit_code == 1 and result.output == "Error: no match in the database has a player named Bob.\n"
    result = pasur("--match", "1", "practice", "--player", "Bob")
    assert result.exit_code == 1 and "'Bob' is not playing in this match (Ali, Sara)." in result.output
    result = pasur("--match", "9", "practice")
    assert result.exit_code == 1 and "there is no match 9" in result.output
    assert match_rows(db) == before and practice_rows(db) == []


@pytest.mark.parametrize("lang", ["de", "es", "fa"])
def test_practice_speaks_every_language(pasur, stored, lang):
    """A position, a found answer and the summary, in the language asked: none of the English
    sentences is left, and the translated ones are there."""
    result = pasur("--lang", lang, "--match", "1", "practice", "--player", "Sara", input="as\nq\n")
    assert result.exit_code == 0, result.output
    for english in ("Position 1", "Options:", "Found:", "In the match:", "found.", "Each value"):
        assert english not in result.output
    assert "\\u20" not in result.output  # the review's line keeps its isolates as they are, not escaped
    set_language(lang)
    try:
        assert _("Options:") in result.output and _("session command word: quit")
    finally:
        set_language("en")


# -- the record book -------------------------------------------------------------------------
def test_the_practice_table_comes_with_a_fresh_file_and_by_one_step_from_schema_4_and_5(tmp_path, monkeypatch):
    """A fresh file has the table; a schema-4 file (tests/data) and a schema-5 one (its snapshots
    chained) get it at the first write, every snapshot still trusted and nothing else changed."""
    from click.testing import CliRunner

    from pasur_cli.cli.app import main
    fresh = tmp_path / "fresh.db"
    Store(str(fresh), write=True, create=True).close()
    assert practice_rows(fresh) == []
    old = tmp_path / "old.db"
    shutil.copy(DATA / "schema4.db", old)
    five = tmp_path / "five.db"
    store = Store(str(five), write=True, create=True)
    store.create(*(lambda m: (m.players, m.rules, 0, m.log))(sur_missed()))
    store.close()
    con = sqlite3.connect(five)
    con.execute("DROP TABLE practice")
    con.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    for path in (old, five):
        before = match_rows(path)["actions"]
        monkeypatch.setenv("PASUR_DB", str(path))
        result = CliRunner().invoke(main, ["--match", "1", "practice"], input="q\n")
        assert result.exit_code == 0, result.output
        con = sqlite3.connect(path)
        assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
        assert con.execute("SELECT count(*) FROM meta WHERE key = 'unchained'").fetchone()[0] == 0
        con.close()
        assert match_rows(path)["actions"] == before
        store = Store(str(path))
        assert store.load(1).start > 0  # its snapshots trusted again
        store.close()


def test_a_damaged_result_counts_as_never_practised_and_deleting_a_match_deletes_its_results(pasur, stored):
    con = sqlite3.connect(stored)
    con.execute("INSERT INTO practice VALUES (1, 1, 1, 'ZZ', 'yes', 1, 7)")
    con.commit()
    con.close()
    result = pasur("--match", "1", "practice", "--player", "Sara", input="as\n")
    assert result.exit_code == 0 and "Position 1: match 1, deal 1, hand 1;" in result.output
    assert practice_rows(stored)[-1] == (1, 1, 1, "KD", 1, 1)  # written again, the one try counted afresh
    assert pasur("delete", "--match", "1", "--yes").exit_code == 0
    assert practice_rows(stored) == []


# -- in a terminal ---------------------------------------------------------------------------
def spawn(db, *args: str) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(db), NO_COLOR="1")
    return pexpect.spawn(sys.executable, ["-m", "pasur_cli", *args], env=env, encoding="utf-8", timeout=30,
                         dimensions=(40, 120))


@TTY
def test_practice_at_a_terminal_and_the_missed_position_comes_back_first(stored):
    """At a terminal: the right answer (the sur), a capture question cancelled by Ctrl-C, a wrong
    answer with both values and the review's reason, q and the summary; the next practice shows the missed position first, before the one
    found; no match changed."""
    positions = sara_positions(stored)
    (d2, board2, hand2, second) = positions[1]
    worst = second[-1]
    look = Look(ascii=True)
    before = match_rows(stored)
    child = spawn(stored, "--match", "1", "practice", "--player", "Sara", "--ascii")
    try:
        child.expect_exact("Position 1: match 1, deal 1, hand 1; Sara to play.")
        child.expect_exact("Your play (cards or a number; q leaves): ")
        child.sendline("as")
        child.expect_exact("Found: AS taking")
        child.expect_exact("In the match: hand 1: Sara trails KD")
        child.expect_exact(f"Sara holds {look.cards(hand2)}.")
        child.expect_exact("Your play (cards or a number; q leaves): ")
        child.sendline("ad")  # two captures: the question, where Ctrl-C cancels the answer, not the practice
        child.expect_exact("AD can take: 1) ")
        child.expect_exact("Which one? ")
        child.sendintr()
        child.expect_exact("Your play (cards or a number; q leaves): ")
        child.sendline(str(number_of(board2, hand2, worst)))
        child.expect_exact("Not found: ")
        child.expect_exact("the best option is ")
        child.expect(r"\([-+]\d+\.\d\)\.")
        child.expect_exact("In the match: hand")
        child.expect_exact("Your play (cards or a number; q leaves): ")
        child.sendline("q")
        child.expect_exact("1 of 2 found.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    child = spawn(stored, "--match", "1", "practice", "--player", "Sara", "--ascii")
    try:
        child.expect_exact("Position 1: match 1, deal 1, hand")
        child.expect_exact("Sara holds ")
        held = child.readline().strip()
        assert held == f"{look.cards(hand2)}.", (d2, held)  # the missed one, before the found first play
        child.expect_exact("Your play (cards or a number; q leaves): ")
        child.sendcontrol("d")
        child.expect_exact("No position answered.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert match_rows(stored) == before
    assert [row[4] for row in practice_rows(stored)] == [1, 0]
