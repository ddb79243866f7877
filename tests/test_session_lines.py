"""What a typist does at the session's prompt, at a real 80x24 terminal (pexpect, waiting on the
screen, never on time): editing a line and walking back through the earlier ones, naming who
played, typing a line as a shell command, the next match, and screens that fit 24 rows."""

from __future__ import annotations

import json
import os
import sys

import pexpect
import pytest
from tier import some

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")

UP, LEFT = "\x1b[A", "\x1b[D"


def spawn(db, *args: str, lang: str | None = None, rows: int = 24, columns: int = 80, **env: str) -> pexpect.spawn:
    """`pasur ARGS` (default: session) in an 80x24 pseudo-terminal, without colour."""
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "PAGER", "LESS")}
    environ.update(PASUR_DB=str(db), NO_COLOR="1", TERM="xterm", **({"PASUR_LANG": lang} if lang else {}), **env)
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", *(args or ("session",))], env=environ,
                          encoding="utf-8", timeout=20, dimensions=(rows, columns))
    child.delaybeforesend = None
    return child


def leave(child: pexpect.spawn) -> None:
    child.sendcontrol("d")
    child.expect_exact("Everything is saved. Bye.")
    child.expect(pexpect.EOF)


def test_arrow_keys_recall_and_edit_an_earlier_line(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    child = spawn(db)
    try:
        child.expect_exact("› ")
        child.sendline("5c 9d 3h kx")                   # a typo: refused
        child.expect_exact("'kx' is not a card")
        child.expect_exact("› ")
        child.send(UP + "\x7f" + "s\r")                # the line back, its last letter corrected
        child.expect_exact("Table: 5♣ 9♦ 3♥ K♠")
        child.expect_exact("› ")
        child.send("s" + LEFT + "2\r")                 # "s", back one, "2" before it: 2s
        child.expect_exact("Sara plays 2♠ and takes 9♦.")
        child.expect_exact("› ")
        leave(child)
    finally:
        child.close(force=True)
    assert json.loads(pasur("show", "--json").output)["turn"] == "Ali"


# -- who played -------------------------------------------------------------------------------
def test_a_named_player_out_of_turn_is_refused_as_play_by_refuses_it(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "5C", "9D", "3H", "KS")
    one_shot = pasur("play", "2S", "--by", "Ali")
    assert one_shot.exit_code == 1
    refusal = one_shot.output.strip()          # Error: it is Sara's turn, not Ali's.
    child = spawn(db)
    try:
        for line in ("ali 2s", "2s ali", "al: 2s", "2s --by ali", "pasur play 2s --by=Ali"):
            child.expect_exact("› ")
            child.sendline(line)
            child.expect_exact(refusal)
        child.expect_exact("› ")
        child.sendline("sa 2s")                # her turn: a beginning of her name is enough
        child.expect_exact("Sara plays 2♠ and takes 9♦.")
        child.expect_exact("› ")
        child.sendline("6h sara")
        child.expect_exact("it is Ali's turn, not Sara's.")
        child.expect_exact("› ")
        leave(child)
    finally:
        child.close(force=True)
    show = json.loads(pasur("show", "--json").output)
    assert show["turn"] == "Ali" and show["length"] == 2   # the table and Sara's 2♠: nothing else


def test_a_beginning_of_two_names_is_refused_naming_both(pasur, db):
    pasur("new", "Sara", "Samira")
    pasur("deal", "5C", "9D", "3H", "KS")
    result = pasur("play", "2S", "--by", "sa")
    assert result.exit_code == 1 and "'sa' begins more than one name (Sara, Samira)" in result.output
    assert pasur("play", "2S", "--by", "sam").exit_code == 0   # Samira leads: Sara dealt


# -- a line typed as a shell command ------------------------------------------------------------
def test_a_shell_command_typed_in_the_session_is_the_same_command(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    child = spawn(db)
    try:
        child.expect_exact("› ")
        child.sendline("pasur deal 5C 9D 3H KS")
        child.expect_exact("Deal 1 (Ali deals). Table: 5♣ 9♦ 3♥ K♠")
        child.expect_exact("› ")
        child.sendline('pasur play 2S --take "9D"')
        child.expect_exact("Sara plays 2♠ and takes 9♦.")
        child.expect_exact("› ")
        child.sendline("pasur score")
        child.expect_exact("If the deal ended now:")
        child.expect_exact("› ")
        child.sendline("pasur rules")
        child.expect_exact("`pasur rules` is not run in the session: leave with quit")
        child.expect_exact("› ")
        assert "not a card" not in child.before
        leave(child)
    finally:
        child.close(force=True)
    assert json.loads(pasur("show", "--json").output)["length"] == 2


# -- the next match ------------------------------------------------------------------------------
def test_when_a_match_is_over_the_session_offers_the_next(pasur, db):
    pasur("new", "Ali", "Sara", "--rule", "fixed_deals=1", "--dealer", "Sara")
    child = spawn(db)
    try:
        child.expect_exact("› ")
        child.sendline("tally")
        child.expect_exact("Ali: pile or counts: ")
        child.sendline("clubs=5 aces=2 jacks=3 ten_diamonds=yes")
        child.expect_exact("Surs held by Ali at the end of the deal [0]: ")
        child.sendline("")
        child.expect_exact("Sara: pile or counts: ")
        child.sendline("clubs=8 aces=2 jacks=1 two_clubs=yes")
        child.expect_exact("Surs held by Sara at the end of the deal [0]: ")
        child.sendline("")
        child.expect_exact("Sara won the match")
        child.expect_exact("Type new for another match of Ali, Sara, new NAMES... for other players, or quit")
        child.expect_exact("Match over, Sara won · Ali 8 – Sara 12 › ")
        child.sendline("new")
        child.expect_exact("Match 2: Ali against Sara.")
        child.expect_exact("Ali deals deal 1; type the four table cards")  # the deal goes on round
        child.expect_exact("Deal 1 table (Ali deals)")
        child.expect_exact("› ")
        child.sendline("new Reza Mina --rules pagat")
        child.expect_exact("Match 3: Reza against Mina. Rules: pagat")
        child.expect_exact("Deal 1 table (Reza deals)")
        leave(child)
    finally:
        child.close(force=True)
    listed = json.loads(pasur("matches", "--json").output)
    assert sorted((m["match"], m["players"][0]) for m in listed) == [(1, "Ali"), (2, "Ali"), (3, "Reza")]


# -- screens that fit 24 rows ------------------------------------------------------------------
def tallied(pasur, deals: int) -> None:
    """A match of ``deals`` tallied deals, nobody near the target."""
    pasur("new", "Ali", "Sara", "--rule", "target=500")
    for _ in range(deals):
        assert pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
                     "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes").exit_code == 0


def test_score_in_the_session_shows_what_fits_and_all_on_request(pasur, db):
    tallied(pasur, 5)
    child = spawn(db)
    try:
        child.expect_exact("› ")
        child.sendline("score")
        child.expect_exact("› ")
        shown = child.before.replace("\r", "")
        assert "Every deal's table: score --all" in shown
        assert "Deal 5 (" in shown and "Deal 4 (" not in shown and "Match (running totals)" in shown
        assert len(shown.strip("\n").split("\n")) <= 23, shown
        child.sendline("score --all")          # longer than the screen, yet into the session's scrollback
        child.expect_exact("› ")
        every = child.before.replace("\r", "")
        assert all(f"Deal {n} (" in every for n in range(1, 6)) and "Match (running totals)" in every
        assert len(every.strip("\n").split("\n")) > 24  # it did not fit, and no pager took it
        child.sendline("show")                  # the next line is the session's: a pager would have read it
        child.expect_exact("› ")
        assert "Ali" in child.before
        leave(child)
    finally:
        child.close(force=True)
    piped = pasur("session", input="score\n").output  # piped: every deal, never a pager
    assert all(f"Deal {n} (" in piped for n in range(1, 6)) and "score --all" not in piped


@pytest.mark.parametrize("paged,short", some([((["score", "--all"],), ("stats",)),  # rules and log too under soak
                                               ((["score", "--all"], ["rules"]), ("stats", "log"))], unpack=True),
                         ids=["score", "every"])
def test_one_shot_score_rules_log_and_stats_page_only_at_a_terminal(pasur, db, paged, short):
    tallied(pasur, 5)
    child = spawn(db, "score")
    try:
        child.expect_exact("Every deal's table: pasur score --all")
        child.expect(pexpect.EOF)
        assert "Deal 4 (" not in child.before
    finally:
        child.close(force=True)
    for args in paged:
        child = spawn(db, *args)
        try:
            child.expect(r"\n:")               # less's prompt: the text is longer than 24 rows
            child.send("q")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
        assert child.exitstatus == 0
        whole = pasur(*args).output            # piped: all of it, no pager
        assert whole.count("\n") > 24
    for command in short:                      # short: written as it is
        child = spawn(db, command)
        try:
            child.expect_exact("Ali")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)


def test_the_log_of_a_played_deal_goes_through_the_pager(pasur, db):
    import random

    from simulate import random_plays, random_table

    from pasur_cli.engine.match import Match
    from pasur_cli.engine.rules import parse_rules
    pasur("new", "Ali", "Sara")
    match = Match(["Ali", "Sara"], parse_rules())
    table, stock = random_table(random.Random(5), match.rules)
    pasur("deal", *(c.code for c in table))
    match.start_deal(table)
    for _player, card, take in random_plays(random.Random(5), match.deal, stock):
        assert pasur("play", card.code, "--take", " ".join(c.code for c in take)).exit_code == 0
        match.play(card, take)
    child = spawn(db, "log")
    try:
        child.expect_exact("Deal 1")
        child.expect(r"\n:")
        assert "Deal 1 scored:" not in child.before   # the score at its end is a page away
        child.send("G")                                      # less: to the end
        child.expect_exact("Deal 1 scored:")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


# -- a whole match naming the player on every line ------------------------------------------------
def test_a_whole_two_player_match_naming_the_player_on_every_line(pasur, db):
    import random

    from simulate import random_plays, random_table

    from pasur_cli.engine.captures import legal_captures
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.rules import parse_rules
    rules = parse_rules("pagat", ["fixed_deals=1"])
    players = ["Ali", "Sara"]
    pasur("new", *players, "--rules", "pagat", "--rule", "fixed_deals=1")
    match = Match(players, rules)
    rng = random.Random(4)
    forms = ["{name} {card}", "{card} {name}", "{short}: {card}", "{card} --by {name}", "pasur play {card} --by {name}"]
    child = spawn(db)
    try:
        child.expect_exact("› ")
        table, stock = random_table(rng, rules)
        child.sendline("ali " + " ".join(c.code.lower() for c in table))   # the dealer names himself
        match.start_deal(table)
        child.expect_exact(f"Deal 1 (Ali deals). Table: {' '.join(c.symbol for c in table)}")
        refused = asked = 0
        for number, (player, card, take) in enumerate(random_plays(rng, match.deal, stock)):
            other = next(p for p in players if p != player)
            child.expect_exact("› ")
            if number % 12 == 5:            # the other player's card, named: refused, nothing recorded
                child.sendline(f"{other.lower()} {card.code.lower()}")
                child.expect_exact(f"Error: it is {player}'s turn, not {other}'s.")
                child.expect_exact("› ")
                refused += 1
            form = forms[number % len(forms)]
            child.sendline(form.format(name=player.lower(), short=player[:2].lower(), card=card.code.lower()))
            options = legal_captures(card, match.deal.table, rules).options
            if len(options) > 1:
                child.expect_exact("Which one? ")
                child.sendline(str(options.index(tuple(sorted(take))) + 1))
                asked += 1
            child.expect_exact(f"{player} plays {card.symbol}")
            match.play(card, take)
        assert match.finished and refused >= 3 and asked
        child.expect_exact(f"{match.winner} won the match")
        child.expect_exact("Type new for another match")
        child.expect_exact("› ")
        leave(child)
    finally:
        child.close(force=True)
    assert json.loads(pasur("score", "--json").output)["totals"] == match.totals
