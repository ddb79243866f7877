"""`pasur session` over a pipe and, as a table uses it, in a real terminal (pexpect): whole matches
played from random legal deals, making a typist's mistakes along the way and reading the screen
at each step."""

from __future__ import annotations

import json
import os
import random
import re
import sys

import pexpect
import pytest
from hypothesis import given
from hypothesis import strategies as st
from simulate import random_plays, random_table
from tier import sized, some

from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.cards import parse_card
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules

TTY = pytest.mark.skipif(not sys.stdin or os.name != "posix", reason="needs a pseudo-terminal")


def spawn(db, command: str = "session", lang: str | None = None, **options) -> pexpect.spawn:
    """`pasur COMMAND` on ``db`` in a pseudo-terminal, without colour, as wide as the terminal
    (``dimensions=(rows, columns)``; COLUMNS and LINES of the test's own shell are left out), in
    ``lang`` when given."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(db), NO_COLOR="1", **({"PASUR_LANG": lang} if lang else {}))
    return pexpect.spawn(sys.executable, ["-m", "pasur_cli", command], env=env, encoding="utf-8", timeout=20,
                         **options)


def sym(code: str) -> str:
    return parse_card(code).symbol


# -- over a pipe ------------------------------------------------------------------------------
def test_session_over_a_pipe(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    script = "\n".join([
        "help",
        "5c 9d 3h ks",       # the table
        "2s",                # Sara takes 9D
        "7x",                # bad card: refused, nothing recorded
        "ac",                # Ali trails AC
        "undo",
        "ac",
        "score",
        "show",
    ]) + "\n"
    result = pasur("session", input=script)
    assert result.exit_code == 0
    assert "Sara plays 2♠ and takes 9♦" in result.output
    assert "'7x' is not a card" in result.output
    assert "Took back Ali's A♣, trailed." in result.output
    assert "Now: table 5♣ 3♥ K♠; Ali to play (hand 1 of 6)." in result.output
    assert "Everything is saved" in result.output
    show = json.loads(pasur("show", "--json").output)
    assert show["table"] == ["5C", "3H", "KS", "AC"] and show["piles"] == {"Ali": 0, "Sara": 2}


def test_session_with_ascii_passes_it_to_every_screen(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    result = pasur("session", "--ascii", input="5c 9d 3h ks\n2s\nundo\nscore\nshow\nmatches\n1O C\n")
    assert result.exit_code == 0 and "Error" in result.output
    assert "Sara plays 2S and takes 9D" in result.output and "Took back Sara's 2S, taking 9D." in result.output
    assert "did you mean 10C?" in result.output
    assert not any(symbol in result.output for symbol in "♣♦♥♠·–›")


def test_session_asks_which_capture(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    result = pasur("session", input="ac 2d 4h 5c\n5s\n3\nqh\n2\n")
    assert "5♠ can take: 1) A♣ 5♣  2) 2♦ 4♥. Which one?" in result.output
    assert "Type a number from 1 to 2, or the cards it takes" in result.output  # 3, then QH: asked again
    assert "'QH' is not" not in result.output and "Sara plays 5♠ and takes 2♦ 4♥" in result.output
    assert json.loads(pasur("show", "--json").output)["table"] == ["AC", "5C"]


def test_session_answers_a_choice_with_the_cards(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    result = pasur("session", input="ac 2d 4h 5c\n5s\n4h 2d\n")
    assert "Sara plays 5♠ and takes 2♦ 4♥" in result.output


def test_a_wrong_choice_of_cards_says_why(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    result = pasur("session", input="ac 2d 4h 5c\n5s\n4h\nqh\nac 5c\n")
    assert "Error: 5♠ + 4♥ = 9, not 11." in result.output
    assert "Error: Q♥ is not on the table." in result.output
    assert "Sara plays 5♠ and takes A♣ 5♣" in result.output


def test_the_table_says_how_many_cards_were_given(pasur, db):
    pasur("new", "Ali", "Sara")
    result = pasur("session", input="th 4d 5h\ndeal 2c\n")
    assert "the initial table is 4 cards; 3 were given (10♥ 4♦ 5♥)." in result.output
    assert "the initial table is 4 cards; 1 was given (2♣)." in result.output


def test_opening_lines_speak_the_sessions_language(pasur, db):
    pasur("new", "Ali", "Sara")
    result = pasur("session", input="")
    assert "pasur deal" not in result.output and "type the four table cards" in result.output


@pytest.mark.parametrize("typed,meant", [
    ("1O C", "10♣"), ("10 c", "10♣"), ("l0h", "10♥"), ("10♣♣", "10♣"), ("10 clubs", "10♣"), ("7 Hearts", "7♥"),
])
def test_typos_get_a_suggestion(pasur, db, typed, meant):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    result = pasur("session", input=typed + "\n")
    assert f"did you mean {meant}?" in result.output
    one_shot = pasur("play", *typed.split())
    assert one_shot.exit_code == 2 and f"did you mean {meant}?" in one_shot.output, one_shot.output
    assert "unexpected extra argument" not in one_shot.output


def test_a_rank_alone_asks_which_suit(pasur, db):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    result = pasur("session", input="K\n7c 3\n")
    assert "'K' needs a suit: which one? K♣ K♦ K♥\n" in result.output  # K♠ is on the table
    assert "'3' needs a suit: which one? 3♥\n" in result.output  # in a take: the table's


def test_a_queen_typed_alone_asks_its_suit_and_does_not_quit(pasur, db):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    result = pasur("session", input="Q\nq\n2s\n")
    assert result.output.count("'Q' needs a suit: which one? Q♣ Q♦ Q♥ Q♠\n") == 1
    assert "'q' needs a suit: which one? Q♣ Q♦ Q♥ Q♠\n" in result.output
    assert "Sara plays 2♠ and takes 9♦." in result.output  # the session went on after both


def test_one_shot_play_of_two_cards_takes_the_second(pasur, db):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    result = pasur("play", "2S", "9D")  # as the session's "2s 9d"
    assert result.exit_code == 0 and "Sara plays 2♠ and takes 9♦." in result.output


# -- in a real terminal ---------------------------------------------------------------------
class Table:
    """A session in a pseudo-terminal, driven as a typist would, with the engine's twin of the
    match to know what the screen must say."""

    def __init__(self, db, players: list[str], preset: str, rules: list[str]) -> None:
        self.child = spawn(db, dimensions=(40, 80))
        self.child.delaybeforesend = None
        self.players = players
        self.match = Match(players, parse_rules(preset, rules))
        self.screens: list[str] = []

    def prompt(self) -> str:
        """Wait for the next prompt; return it (checked to fit in 80 columns)."""
        self.child.expect(r"\n([^\n]*) › ")
        line = self.child.match.group(1).strip("\r")
        self.screens.append(self.child.before + self.child.after)
        assert len(line) + 3 <= 80, line
        return line

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def expect(self, text: str) -> str:
        self.child.expect_exact(text)
        return self.child.before

    def check_prompt(self, line: str) -> None:
        """The prompt shows whose turn, the cards each player holds this hand, and the score."""
        match, deal = self.match, self.match.deal
        for side, total in match.totals.items():
            assert f"{side} {total}" in line or f"{'&'.join(p[0] for p in side.split(' & '))} {total}" in line, line
        if deal is None:
            assert f"Deal {match.deal_number} table ({match.dealer} deals)" in line
            return
        hand = deal.hand
        played = {p: sum(1 for r in deal.plays if r.player == p and r.hand == hand) for p in match.players}
        if len(deal.plays) and len(deal.plays) % (4 * len(match.players)) == 0:
            played = dict.fromkeys(match.players, 0)  # a new hand: everyone holds 4 again
        assert re.match(rf"{deal.turn}( to play)? \({4 - played[deal.turn]} left; ", line), line
        for p in match.players:
            if p != deal.turn:
                assert f"{p} {4 - played[p]}" in line, line


def play_deal(t: Table, rng: random.Random, mistakes: bool) -> None:
    """One deal through the session: its table, then every card, with a typist's mistakes."""
    match = t.match
    table, stock = random_table(rng, match.rules)
    line = t.prompt()
    t.check_prompt(line)
    if mistakes:
        t.send(" ".join(c.code for c in table[:3]))
        t.expect("the initial table is 4 cards; 3 were given")
        t.check_prompt(t.prompt())
    t.send(" ".join(c.code.lower() for c in table))
    match.start_deal(table)
    t.expect(f"Deal {match.deal_number} (")
    asked = typo = cancelled = undone = raced = False
    for player, card, take in random_plays(rng, match.deal, stock):
        deal = match.deal
        t.check_prompt(t.prompt())
        options = legal_captures(card, deal.table, match.rules)
        if mistakes and not typo and card.rank == 10:
            t.send(f"1O {card.suit}")
            t.expect(f"did you mean {card.symbol}?")
            t.check_prompt(t.prompt())
            typo = True
        if mistakes and not raced and len(deal.plays) > 6:
            t.send("score")
            t.expect("Clubs so far:")
            t.expect("If the deal ended now:")
            t.check_prompt(t.prompt())
            raced = True
        if mistakes and len(deal.plays) == 2 and not undone:
            t.send(card.code.lower() + " " + " ".join(c.code for c in take))
            t.expect(f"{player} plays {card.symbol}")
            t.prompt()
            t.send("undo")
            t.expect(f"Took back {player}'s {card.symbol}")
            t.expect(f"{player} to play")
            t.check_prompt(t.prompt())
            undone = True
        if len(options.options) > 1 or options.truncated:
            t.send(card.code.lower())
            t.expect(f"{card.symbol} can take:")
            t.expect("Which one? ")
            if mistakes and not cancelled:
                t.child.sendintr()
                t.expect("Cancelled: nothing was recorded.")
                t.check_prompt(t.prompt())
                t.send(card.code.lower())
                t.expect("Which one? ")
                cancelled = True
            if mistakes and not asked:
                t.send(str(len(options.options) + 1))
                t.expect("Type a number from 1 to")
                t.expect("Which one? ")
                asked = True
            t.send(str(list(options.options).index(tuple(sorted(take))) + 1))
        else:
            t.send(card.code.lower())
        record = match.play(card, take)
        t.expect(f"{player} plays {card.symbol}")
        if match.deal is not None and len(deal.plays) % (4 * len(match.players)) == 0:
            stock_left = 52 - 4 - 4 * len(match.players) * deal.hand
            cue = (f"Hand {deal.hand - 1} of {deal.hands} is played. "
                   + (f"Deal 4 cards to each player ({stock_left} left in the stock)." if stock_left
                      else "Deal each player the last 4 cards."))
            t.expect(cue)
        assert record.player == player
    if mistakes:  # the seed gives a deal where every mistake had its chance
        assert typo and raced and undone and asked and cancelled
    result = match.results[-1]
    t.expect(f"Deal {result.number} ({result.dealer} dealt)")
    t.expect("Match (running totals)\n".replace("\n", "\r\n"))
    if not match.finished:
        t.expect(f"{match.dealer} deals deal {match.deal_number}; type the four table cards")


def tally_deal(t: Table) -> None:
    """A deal scored in the session with `tally`, answering wrongly first: each answer is
    checked as it is given and asked again; a total that does not add up asks which side to
    correct, keeping the others."""
    match = t.match
    a, b = match.sides
    t.check_prompt(t.prompt())
    t.send("tally")
    t.expect(f"{a}: pile or counts: ")
    t.send("clubs=8 aces=2 jacks=1 2h=yes")       # not a count: asked again
    t.expect("'2h=yes' is not a count")
    t.expect(f"{a}: pile or counts: ")
    t.send("clubs=8 aces=2 jacks=1 two_clubs=yes")
    t.expect(f"Surs held by {a} at the end of the deal [0]: ")
    t.send("x")                                   # not a number: asked again
    t.expect(f"Surs held by {a} at the end of the deal [0]: ")
    t.send("0")
    t.expect(f"{b}: pile or counts: ")
    t.send("clubs=4 aces=2 jacks=3 ten_diamonds=yes")  # 12 clubs in all
    t.expect(f"Surs held by {b} at the end of the deal [0]: ")
    t.send("")
    t.expect("clubs add up to 12")
    t.expect("Which side's answer to correct?")
    t.send(b.split(" & ")[0])
    t.expect(f"{b}: pile or counts")  # the earlier answer offered: on the line (readline) or as [default]
    t.expect("clubs=4 aces=2 jacks=3 ten_diamonds=yes")
    t.send("\x15clubs=5")  # Ctrl-U empties the line; the count typed replaces only that count
    t.expect(f"Surs held by {b} at the end of the deal [0]: ")
    t.send("")
    t.expect(f"Deal {match.deal_number} ({match.dealer} dealt, tallied)")
    from pasur_cli.text.tally_input import build_action
    match.apply(build_action(match, [], [f"{a}: clubs=8 aces=2 jacks=1 two_clubs=yes",
                                          f"{b}: clubs=5 aces=2 jacks=3 ten_diamonds=yes"], [], False))


def finish(t: Table, pasur) -> None:
    assert t.match.finished
    t.expect(f"{t.match.winner} won the match")
    line = t.prompt()
    assert line.startswith(f"Match over, {t.match.winner} won")
    t.send("quit")
    t.expect("Everything is saved. Bye.")
    t.child.expect(pexpect.EOF)
    t.child.close()
    assert t.child.exitstatus == 0
    assert json.loads(pasur("score", "--json").output)["totals"] == t.match.totals


@TTY
def test_a_whole_two_player_match_at_a_real_terminal(pasur, db):
    rules = ["fixed_deals=2"]
    pasur("new", "Ali", "Sara", "--rules", "pagat", *[a for r in rules for a in ("--rule", r)])
    t = Table(db, ["Ali", "Sara"], "pagat", rules)
    try:
        t.expect("type the four table cards")
        assert "pasur deal" not in t.child.before
        play_deal(t, random.Random(3), mistakes=True)
        tally_deal(t)
        finish(t, pasur)
    finally:
        t.child.close(force=True)


@TTY
@pytest.mark.soak  # the session at a terminal: the two-player match above
def test_a_whole_four_player_match_at_a_real_terminal(pasur, db):
    rules = ["fixed_deals=1"]
    pasur("new", "Ali", "Sara", "Reza", "Mina", *[a for r in rules for a in ("--rule", r)])
    t = Table(db, ["Ali", "Sara", "Reza", "Mina"], "standard", rules)
    try:
        play_deal(t, random.Random(7), mistakes=True)
        finish(t, pasur)
    finally:
        t.child.close(force=True)


@TTY
def test_ctrl_d_and_ctrl_c_leave(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "AC", "2D", "4H", "5C")
    for key in ("d", "c"):
        child = spawn(db)
        try:
            child.expect_exact("Sara to play (4 left; Ali 4) · Ali 0 – Sara 0 › ")
            child.send("5s")
            child.sendcontrol(key)
            if key == "d":  # Ctrl-D after some text leaves the line as it is (as in a shell); on an
                child.sendcontrol("u")  # empty line it leaves
                child.sendcontrol("d")
            child.expect_exact("Everything is saved. Bye.")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
    assert json.loads(pasur("show", "--json").output)["turn"] == "Sara"


@TTY
def test_long_lines_are_broken_between_words_at_a_terminal(pasur, db):
    """At 60 columns an error and a play's sentences are broken between words (one terminal for both)."""
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    child = spawn(db, dimensions=(24, 60))
    try:
        # at 60 columns the status line leaves no 20 to type in: it stands above the arrow
        child.expect_exact("Deal 1 table (Ali deals) · Ali 0 – Sara 0\r\n› ")
        child.sendline("clear")
        child.expect_exact("Deal 1 table (Ali deals) · Ali 0 – Sara 0\r\n› ")
        error = child.before[child.before.index("Error:"):].replace("\r", "").rstrip("\n").split("\n")
        assert len(error) >= 2 and all(len(line) <= 60 for line in error), error
        assert " ".join(error).startswith("Error: 'clear' is not a card: write a rank (A or 1, 2-10 or T, J, Q, K)")
        for line in ["5c 9d 3h ks", "2s", "6h", "5s", "3c", "kh", "ac"]:
            child.sendline(line)
            child.expect_exact("› ")
        child.sendline("jd")
        child.expect_exact("› ")
        said = child.before[child.before.index("Sara plays"):].replace("\r", "").split("\n")
        cleared = [line for line in said if "cleared" in line or "rules." in line]
        assert len(cleared) == 2 and all(len(line) <= 60 for line in said), said
        assert " ".join(cleared) == "The table is cleared, but no sur: a J makes no sur under these rules."
        child.sendeof()
        child.expect_exact("Everything is saved. Bye.")
    finally:
        child.close(force=True)


@TTY
def test_ctrl_c_cancels_a_tally_and_ctrl_l_clears_the_screen_keeping_the_line(pasur, db):
    """One terminal: Ctrl-C at a tally question records nothing and the prompt is back; Ctrl-L then
    clears the screen and keeps the line typed after it; Ctrl-D says goodbye on a line of its own."""
    pasur("new", "Ali", "Sara")
    child = spawn(db)
    try:
        child.expect_exact("› ")
        child.sendline("tally")
        child.expect_exact("Ali: pile or counts: ")
        child.sendline("clubs=8")
        child.expect_exact("Surs held by Ali at the end of the deal [0]: ")
        child.sendintr()
        child.expect_exact("Cancelled: nothing was recorded.")
        child.expect_exact("Deal 1 table (Ali deals) · Ali 0 – Sara 0 › ")
        assert json.loads(pasur("score", "--json").output)["deals"] == []
        child.send("\x0c")  # Ctrl-L, then a line typed after it
        child.sendline("5c 9d 3h ks")
        child.expect_exact("\x1b[H\x1b[2J")
        child.expect_exact("Table: 5♣ 9♦ 3♥ K♠")
        child.expect_exact("› ")
        child.sendeof()
        child.expect_exact("Everything is saved. Bye.")
        assert child.before.endswith("\n"), repr(child.before[-80:])  # the prompt's line was ended first
    finally:
        child.close(force=True)


def test_score_and_show_during_a_deal_show_the_race(pasur, db):
    pasur("new", "Ali", "Sara", "--rule", "seven_diamonds=2")
    pasur("deal", "5C", "9D", "AH", "KS")
    pasur("play", "2S")        # Sara takes 9♦
    pasur("play", "10C")       # Ali takes A♥
    pasur("play", "6D")        # Sara takes 5♣
    for command in ("score", "show"):
        text = pasur(command).output
        assert "Clubs so far: Ali 1 · Sara 1 (7 needed for 7 points)." in text
        assert "2♣: not seen yet. 10♦: not seen yet. 7♦: not seen yet. Surs: none." in text
        assert "If the deal ended now: Ali 1 · Sara 0." in text  # Ali's A♥
    assert "Ali to play (3 left; Sara 2) · Ali 0 – Sara 0" in pasur("show").output
    undone = pasur("undo").output
    assert "Took back Sara's 6♦, taking 5♣." in undone and "Now: table 5♣ K♠; Sara to play (hand 1 of 6)." in undone


def test_if_the_deal_ended_now_gives_the_table_to_the_last_capturer(pasur, db):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "AH", "KS")
    pasur("play", "2S")        # Sara takes 9♦
    pasur("play", "10C")       # Ali takes A♥
    pasur("play", "6D")        # Sara takes 5♣
    pasur("play", "3C")        # Ali trails 3♣; Sara captured last, so the table would be hers
    for command in ("score", "show"):
        assert "If the deal ended now: Ali 1 · Sara 0." in pasur(command).output  # K♠ 3♣: no points
    pasur("play", "AD")        # Sara trails A♦
    for command in ("score", "show"):
        assert "If the deal ended now: Ali 1 · Sara 1." in pasur(command).output  # A♦ would be Sara's
    pasur("undo", "5")         # nobody has captured: the table would go to the dealer's side
    assert "If the deal ended now: Ali 1 · Sara 0." in pasur("show").output  # Ali's A♥ on the table


# -- the session's commands in the reader's language ---------------------------------------------
def words_of(code: str) -> dict[str, list[str]]:
    """Each session command's translated words in ``code``'s catalog (skips a catalog without them)."""
    from pasur_cli.cli.commands.session import COMMANDS, translated_words
    from pasur_cli.text import i18n
    i18n.set_language(code)
    words = {command: translated_words(command) for command in COMMANDS}
    if not all(words.values()):
        pytest.skip(f"the {code} catalog has no session command words yet")
    return words


@pytest.mark.parametrize("code", ["fa", "de", "es"])
def test_no_translated_command_word_reads_as_a_card_or_another_command(code):
    """Runs once the catalogs hold the command words: each word is refused as a card with the
    plain sentence (no suggestion: it is no card's typo, no rank waiting for a suit), and no word
    names two commands, in that language or in English."""
    from pasur_cli.cli.commands.session import COMMANDS
    from pasur_cli.engine.names import name_key
    from pasur_cli.engine.typos import problem
    words = words_of(code)
    meaning = {name_key(w): c for c, english in COMMANDS.items() for w in english}
    for command, typed in words.items():
        for word in typed:
            assert " " not in word.strip() and word == word.strip(), word
            refusal = problem([word])
            assert refusal.template.startswith("{token!r} is not a card: write a rank"), (word, str(refusal))
            assert meaning.setdefault(name_key(word), command) == command, (code, word)


def test_a_session_command_can_be_typed_in_the_sessions_language(pasur, db):
    """German's words from its catalog, in any case, and English's alongside them."""
    pasur("new", "Ali", "Sara")
    script = ["HILFE", "geben 5c 9d 3h ks", "zeigen", "stand", "Punkte", "rückgängig", "partien", "show",
              "abrechnen", "clubs=8 aces=2 jacks=1 two_clubs=yes", "0", "clubs=5 aces=2 jacks=3 ten_diamonds=yes", "0",
              "beenden", "5c 9d 3h ks"]
    result = pasur("--lang", "de", "session", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    assert "Fehler" not in result.output, result.output  # not one of them was read as a card
    assert "zeigen, punkte, rückgängig [N], abrechnen" in result.output and ", hilfe, ende" in result.output
    assert "Zurückgenommen" in result.output  # rückgängig took the table back
    assert "Abrechnung der Runde 1" in result.output  # abrechnen asked for the piles
    show = json.loads(pasur("show", "--json").output)
    assert show["deal"] == 2 and show["table"] == []  # the tally was recorded; beenden left before the table


@pytest.mark.parametrize("code", ["fa", "de", "es"])
def test_each_languages_command_words_work_in_a_session(pasur, db, code):
    """Runs once the catalogs hold the command words."""
    from pasur_cli.cli.commands.session import shown_word
    words = words_of(code)
    from pasur_cli.text.i18n import _
    error = _("Error: {message}").split("{")[0]
    pasur("new", "Ali", "Sara")
    script = [*(w for c in ("help", "show", "score", "matches") for w in words[c]),
              f"{words['deal'][0]} 5c 9d 3h ks", words["undo"][0], words["quit"][0], "5c 9d 3h ks"]
    result = pasur("--lang", code, "session", input="\n".join(script) + "\n")
    assert result.exit_code == 0 and error not in result.output, result.output
    for command in ("show", "score", "undo", "tally", "matches", "help", "quit"):
        assert shown_word(command) in result.output  # the help lists the language's words
    show = json.loads(pasur("show", "--json").output)
    assert show["deal"] == 1 and show["table"] == []  # dealt, taken back, and left before the last line


@TTY
@pytest.mark.parametrize("lang", ["es"])  # English: test_ctrl_c_cancels_a_tally_and_ctrl_l_clears_the_screen_...
def test_ctrl_d_at_the_prompt_says_goodbye_on_a_line_of_its_own(pasur, db, lang):
    from pasur_cli.text import i18n
    pasur("new", "Ali", "Sara")
    child = spawn(db, lang=lang, dimensions=(24, 60))
    try:
        child.expect_exact("› ")
        child.sendeof()
        i18n.set_language(lang)
        bye = i18n._("Everything is saved. Bye.")
        child.expect_exact(bye)
        assert child.before.endswith("\n"), repr(child.before[-80:])  # the prompt's line was ended first
    finally:
        child.close(force=True)


def test_new_in_the_middle_of_a_match_says_how_to_take_it_up_again(pasur):
    """`new` typed mid-match starts the next one at once; the session says the one it leaves is
    kept and how to go on with it."""
    pasur("new", "Ali", "Sara")
    result = pasur("session", input="5c 9d 3h ks\nnew\n")
    assert result.exit_code == 0
    assert "Match 1 is not over and stays as it is: `pasur --match 1 session` goes on with it." in result.output
    for _ in range(4):  # match 2, won by tallies: its `new` is the next match, nothing is left behind
        assert pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes", "--count",
                     "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--surs", "Ali=1",
                     "--match", "2").exit_code == 0  # match 1 is in play too: named
    after = pasur("--match", "2", "session", input="new\n").output
    assert "Match 3: Ali against Sara" in after and "stays as it is" not in after


def test_a_typed_play_replays_nothing_and_an_undo_replays_only_the_log_after_the_snapshot(tmp_path, monkeypatch):
    """The store keeps the match a change leaves: the next prompt reads it as it is (one typed
    play used to replay the stored log several times), and an undo takes back through Match.undo."""
    from pasur_cli.cli.commands.session import run
    from pasur_cli.engine.rules import PRESETS
    from pasur_cli.store.database import Store
    from pasur_cli.text.render import Look
    store = Store(str(tmp_path / "pasur.db"), write=True, create=True)
    mid = store.create(["Ali", "Sara"], PRESETS["pagat"], 0)
    applied: list[int] = []
    real = Match.apply
    monkeypatch.setattr(Match, "apply", lambda self, action: applied.append(1) or real(self, action))
    lines = iter(["5c 9d 3h ks", "2s", "7c", "show", "undo", "score"])
    before: list[int] = []

    def read(prompt: str) -> str:
        before.append(len(applied))
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    run(store, mid, Look.detect(ascii=True, no_color=True), read=read)
    store.close()
    # nothing is replayed while plays are typed and shown; the undo replays the two actions it keeps
    assert before == [0, 0, 0, 0, 0, 2, 2]



def test_a_line_that_is_no_play_is_refused_for_its_words_before_its_options(pasur):
    """`clear; ls --color` typed into the session by mistake: not "the session's play takes no
    --color" (it was no play), but what is wrong with its words; a real play with an unknown option
    is still refused for the option."""
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    output = pasur("session", input="clear; ls --color\n2s --fast\n").output
    assert "'clear;' is not a card" in output, output
    assert "play takes no --color" not in output
    assert "the session's play takes no --fast" in output


# -- an undo that opens a finished match again says so ------------------------------------------
def reopening_run(tmp_path, seed: int):
    """A random finished match (2 to 4 players, teams or solo, played or tallied deals) stored on
    its own file; returns (its id, the match, a runner of `pasur ARGS` on that file)."""
    import matchbook
    from click.testing import CliRunner

    from pasur_cli.cli.app import main
    path = tmp_path / f"reopened-{seed}.db"
    path.unlink(missing_ok=True)  # hypothesis may draw a seed again
    players, rules, dealer, actions, match = matchbook.random_match(random.Random(seed))
    [mid] = matchbook.stored(path, [(players, rules, dealer, actions, match)])

    def run(*args: str, input: str | None = None):
        return CliRunner().invoke(main, ["--db", str(path), *args], input=input, catch_exceptions=False)
    return mid, match, run


REOPENED = "Match {mid} is open again; {winner} had won it."


@sized(4)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 3))
def test_undo_that_opens_a_finished_match_again_says_so_and_who_had_won(tmp_path, seed, count):
    """`pasur undo [COUNT]` taking back the end of a won match says, once, after what it took
    back, that the match is open again and who had won it; an undo of an open match never does."""
    mid, match, run = reopening_run(tmp_path, seed)
    assert match.winner is not None
    count = min(count, len(match.log))  # a short match (two tallies) has fewer actions to take back
    said = run("undo", str(count))
    assert said.exit_code == 0, said.output
    reopened = REOPENED.format(mid=mid, winner=match.winner)
    lines = said.output.splitlines()
    assert lines.count(reopened) == 1 and lines.index(reopened) == count, said.output  # after the COUNT took back
    shown = json.loads(run("show", "--json").output)
    assert not shown["finished"] and shown["winner"] is None
    if len(match.log) > count:  # an action is left to take back
        again = run("undo")
        assert again.exit_code == 0 and "is open again" not in again.output, again.output


@pytest.mark.parametrize("seed", some(range(6), 2))
def test_the_sessions_undo_that_opens_a_finished_match_again_says_so_and_who_had_won(tmp_path, seed):
    """The session's undo says it as `pasur undo` does, once, and the next undo does not."""
    mid, match, run = reopening_run(tmp_path, seed)
    said = run("session", input="undo\nundo\n")
    assert said.exit_code == 0, said.output
    assert said.output.count(REOPENED.format(mid=mid, winner=match.winner)) == 1, said.output
    assert said.output.count("is open again") == 1


def test_the_reopening_is_said_in_the_readers_language(tmp_path):
    """In German and Persian too, naming the match and who had won it."""
    mid, match, run = reopening_run(tmp_path, 0)
    german = run("--lang", "de", "undo")
    assert german.exit_code == 0, german.output
    assert f"Die Partie {mid} ist wieder offen; {match.winner} hatte" in german.output, german.output
    mid, match, run = reopening_run(tmp_path, 1)
    persian = run("--lang", "fa", "undo")
    assert persian.exit_code == 0 and "دوباره باز است" in persian.output, persian.output
    assert str(match.winner).split(" & ")[0] in persian.output, persian.output
