"""`pasur play` and the other one-shot commands as a typist meets them at a real 80x24 terminal
(pexpect, waiting on the screen): several cards are a card and its capture, a choice of capture
is asked as the session asks it, prose breaks between words, a mistyped rule option is named."""

from __future__ import annotations

import json
import os
import random
import sys

import pexpect
import pytest
from simulate import random_plays, random_table

from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")


def spawn(db, *args: str, columns: int = 80) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(db), NO_COLOR="1", TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", *args], env=env, encoding="utf-8", timeout=20,
                          dimensions=(24, columns))
    child.delaybeforesend = None
    return child


def finished(child: pexpect.spawn) -> tuple[str, int]:
    """Everything the command still writes, and its exit status."""
    child.expect(pexpect.EOF)
    child.close()
    return child.before.replace("\r", ""), child.exitstatus


def length(pasur) -> int:
    return json.loads(pasur("show", "--json").output)["length"]


# -- several cards --------------------------------------------------------------------------------
def test_play_of_several_cards_is_the_card_and_its_capture(pasur, db):
    pasur("new", "Ali", "Sara", "--rule", "multi_capture=false")
    pasur("deal", "2C", "2D", "3H", "KS")
    result = pasur("play", "7H", "2C", "2D")   # as the session's "7h 2c 2d"
    assert result.exit_code == 0 and "Sara plays 7♥ and takes 2♣ 2♦." in result.output
    pasur("undo")
    result = pasur("play", "7H", "--take", "2C", "2D")   # the second card is not dropped
    assert result.exit_code == 0 and "Sara plays 7♥ and takes 2♣ 2♦." in result.output
    pasur("undo")
    result = pasur("play", "7H", "--take", "2C", "3H")
    assert result.exit_code == 1 and "7♥ + 2♣ + 3♥ = 12, not 11" in result.output
    assert '--take "2D"' not in result.output and length(pasur) == 1


# -- the capture question -------------------------------------------------------------------------
def test_play_at_a_terminal_asks_which_capture(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "AC", "2D", "4H", "5C")
    child = spawn(db, "play", "5S")
    child.expect_exact("5♠ can take: 1) A♣ 5♣  2) 2♦ 4♥. Which one? ")
    child.sendline("3")
    child.expect_exact("Type a number from 1 to 2, or the cards it takes; Ctrl-C cancels the play.")
    child.expect_exact("Which one? ")
    child.sendline("2d 5c")
    child.expect_exact("Error: ")
    child.expect_exact("Which one? ")
    child.sendline("4h 2d")                   # the cards, in any order
    said, status = finished(child)
    assert status == 0 and "Sara plays 5♠ and takes 2♦ 4♥." in said and "Ali to play" in said
    pasur("undo")
    child = spawn(db, "play", "5S")
    child.expect_exact("Which one? ")
    child.sendline("1")
    said, status = finished(child)
    assert status == 0 and "Sara plays 5♠ and takes A♣ 5♣." in said


def test_ctrl_c_at_the_question_cancels_and_records_nothing(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "AC", "2D", "4H", "5C")
    before = db.read_bytes()
    child = spawn(db, "play", "5S")
    child.expect_exact("Which one? ")
    child.send("1")                            # half typed
    child.sendintr()
    said, status = finished(child)
    assert status == 1 and "Cancelled: nothing was recorded." in said and "Traceback" not in said
    assert db.read_bytes() == before


def test_piped_or_no_input_refuses_listing_the_take_options(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "AC", "2D", "4H", "5C")
    piped = pasur("play", "5S", input="1\n")
    child = spawn(db, "play", "5S", "--no-input")
    said, status = finished(child)
    for output, code in ((piped.output, piped.exit_code), (said, status)):
        assert code == 1 and "5♠ can capture in 2 ways; name one with --take:" in output
        assert '1. --take "AC 5C"' in output and "Which one?" not in output
    assert length(pasur) == 1


def test_a_card_out_of_turn_is_refused_before_the_question(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "AC", "2D", "4H", "5C")
    child = spawn(db, "play", "5S", "--by", "Ali")
    said, status = finished(child)
    assert status == 1 and "it is Sara's turn, not Ali's." in said and "Which one?" not in said


# -- prose that fits --------------------------------------------------------------------------------
def lines_fit(text: str, columns: int) -> list[str]:
    lines = text.strip("\n").split("\n")
    assert all(len(line) <= columns for line in lines), lines
    return lines


def test_prose_breaks_between_words_at_the_terminal(pasur, db):
    child = spawn(db, "new", "Mehrangiz", "Alexandra", "--dealer", "Alexandra")
    said, status = finished(child)
    lines = lines_fit(said, 80)
    assert status == 0 and "pasur deal CARD CARD CARD CARD" in " ".join(lines) and "CA\n" not in said
    child = spawn(db, "deal", "JC", "9D", "3H", "KS")
    said, status = finished(child)
    lines = lines_fit(said, 80)
    assert status == 1 and len(lines) == 2 and " ".join(lines) == (
        "Error: J♣ on the initial table: put it back into the stock, deal one replacement card, and enter the"
        " table with that card instead.")
    child = spawn(db, "deal", "5C", "9D", "3H", "KX", columns=60)
    said, status = finished(child)
    lines = lines_fit(said, 60)
    assert status == 2 and len(lines) == 3 and " ".join(lines) == (  # the card-notation help
        "Error: 'KX' is not a card: write a rank (A or 1, 2-10 or T, J, Q, K) followed by a suit"
        " (C D H S or ♣ ♦ ♥ ♠), e.g. 10D, qh, 7♣.")
    piped = pasur("new", "Mehrangiz", "Alexandra").output   # not a terminal: lines as they are
    assert "Enter the table: pasur deal CARD CARD CARD CARD" in piped


def test_a_mistyped_rule_option_is_named_and_the_options_wrapped(pasur, db):
    child = spawn(db, "new", "Ali", "Sara", "--rule", "targt=11")
    said, status = finished(child)
    lines = lines_fit(said, 80)
    assert status == 2 and lines[0].startswith("Error: 'targt' is not a rule option; did you mean target?")
    assert len(lines) >= 3 and "three_player_clubs" in said and "three_player_\n" not in said


# -- a whole 4-player match through one-shot commands ------------------------------------------------
def play_match_one_shot(pasur, db, all_at_terminal: bool) -> int:
    """A 4-player match (one deal, pagat rules: one set a capture, so choices are common) of random legal plays through `pasur play`; every play with a
    choice at a terminal, answered at its question (by number or by its cards); the others too
    when ``all_at_terminal``. Returns how many questions were answered."""
    rules = parse_rules("pagat", ["fixed_deals=1"])
    players = ["Ali", "Sara", "Reza", "Mina"]
    pasur("new", *players, "--rules", "pagat", "--rule", "fixed_deals=1")
    match = Match(players, rules)
    rng = random.Random(7)  # a deal with 5 choices of capture
    table, stock = random_table(rng, rules)
    assert pasur("deal", *(c.code for c in table)).exit_code == 0
    match.start_deal(table)
    asked = 0
    for player, card, take in random_plays(rng, match.deal, stock):
        found = legal_captures(card, match.deal.table, rules)
        last = len(match.deal.plays) == match.deal.total_plays - 1
        if len(found.options) > 1 or all_at_terminal or last:
            child = spawn(db, "play", card.code, columns=60 if last else 80)
            if len(found.options) > 1:
                child.expect_exact("Which one? ")
                answer = (str(found.options.index(tuple(sorted(take))) + 1) if asked % 2 else
                          " ".join(c.code.lower() for c in take))
                child.sendline(answer)
                asked += 1
            said, status = finished(child)
            assert status == 0, said
            if last:  # the last-card line and the tables at 60 columns
                assert "Last card played." in " ".join(lines_fit(said, 60))
        else:
            said = pasur("play", card.code).output
        assert f"{player} plays {card.symbol}" in said
        match.play(card, take)
    assert match.finished and asked
    score = json.loads(pasur("score", "--json").output)
    assert score["finished"] and score["totals"] == match.totals
    return asked


@pytest.mark.soak  # a process a question: the question at a terminal is test_play_at_a_terminal_asks_which_capture
def test_a_whole_four_player_match_through_play_with_its_questions(pasur, db):
    assert play_match_one_shot(pasur, db, all_at_terminal=False) >= 2


@pytest.mark.soak
def test_a_whole_four_player_match_through_play_every_card_at_a_terminal(pasur, db):
    assert play_match_one_shot(pasur, db, all_at_terminal=True) >= 2


def test_a_play_recorded_while_the_question_is_open_refuses_the_answer(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "AC", "2D", "4H", "5C")
    child = spawn(db, "play", "5S")
    child.expect_exact("Which one? ")
    assert pasur("play", "KD").exit_code == 0   # meanwhile someone enters Sara's K♦
    child.sendline("1")
    said, status = finished(child)
    said = " ".join(said.split())  # broken between words at 80 columns
    assert status == 1 and "someone recorded 1 more action since this was shown; nothing was recorded." in said
    assert length(pasur) == 2
