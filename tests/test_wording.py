"""Sentences a table reads, worded as it speaks: the table placeholder, a tie over the target, a
team's verb in the plural, two spellings of one name. Each is read from a one-shot command in a
real terminal (pexpect, 80x24), as it was found."""

from __future__ import annotations

import os
import sys

import pexpect
import pytest
from tier import some

TTY = pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")


def screen(db, *args: str, lang: str | None = None) -> str:
    """What `pasur ARGS...` writes in an 80x24 terminal (no colour), once it has ended."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(db), NO_COLOR="1", **({"PASUR_LANG": lang} if lang else {}))
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", *args], env=env, encoding="utf-8", timeout=20,
                          dimensions=(24, 80))
    child.expect(pexpect.EOF)
    return child.before.replace("\r\n", "\n")


def tally_even(pasur) -> None:
    """A tallied deal that leaves Ali and Reza level at 10."""
    pasur("tally", "--count", "Ali: clubs=6 aces=3 jacks=2 two_clubs=yes ten_diamonds=yes",
          "--count", "Reza: clubs=7 aces=1 jacks=2 two_clubs=no ten_diamonds=no")


@TTY
def test_playing_before_the_table_names_the_command_with_its_placeholder(pasur, db):
    pasur("new", "Ali", "Reza")
    shown = screen(db, "play", "7c")
    assert "(pasur deal CARD CARD CARD CARD)" in shown and "C C C C" not in shown, shown


@TTY
@pytest.mark.parametrize("lang,why", some([  # English and Persian (right to left) quick, each language under soak
    ("en", "Level at 10; at or above the target (10): another deal decides."),
    ("fa", "به هدف"),
    ("de", "Gleichstand bei 10; Ziel (10) erreicht: eine weitere Runde entscheidet."),
    ("es", "Empate a 10; objetivo (10) alcanzado: decide otra ronda."),
], 2, unpack=True))
def test_a_tie_over_the_target_says_why_play_goes_on(pasur, db, lang, why):
    pasur("new", "Ali", "Reza", "--rule", "target=10")
    tally_even(pasur)
    assert why in screen(db, "score", lang=lang)


def test_a_tie_after_the_fixed_deals_says_another_deal_decides(pasur):
    pasur("new", "Ali", "Reza", "--rule", "fixed_deals=1")
    tally_even(pasur)
    assert "Level at 10; 1 of 1 deal played: another deal decides." in pasur("score").output
    assert "won" not in pasur("score").output


@TTY
@pytest.mark.parametrize("lang,lead,won", some([
    ("en", "Ali & Sara lead with 17;", "Ali & Sara won the match, 68 to 12."),
    ("de", "Ali & Sara führen mit 17;", "Ali & Sara haben das Match gewonnen"),
    ("es", "Ali & Sara van delante con 17;", "Ali & Sara ganaron la partida"),
    ("fa", "جلو هستند", "بازی را بردند"),
], 2, unpack=True))
def test_a_side_of_two_takes_the_plural(pasur, db, lang, lead, won):
    pasur("new", "Ali", "Reza", "Sara", "Mina")
    counts = ["--count", "Ali: clubs=8 aces=3 jacks=2 two_clubs=yes ten_diamonds=yes",
              "--count", "Reza: clubs=5 aces=1 jacks=2 two_clubs=no ten_diamonds=no"]
    pasur("tally", *counts)
    assert lead in screen(db, "score", lang=lang)
    for _ in range(3):
        pasur("tally", *counts)
    assert won in " ".join(screen(db, "score", lang=lang).split())


def test_a_side_of_one_keeps_the_singular(pasur):
    pasur("new", "Ali", "Reza")
    pasur("tally", "--count", "Ali: clubs=8 aces=3 jacks=2 two_clubs=yes ten_diamonds=yes",
          "--count", "Reza: clubs=5 aces=1 jacks=2 two_clubs=no ten_diamonds=no")
    assert "Ali leads with 17;" in pasur("score").output


@TTY
@pytest.mark.parametrize("names,said", [
    (("Ali", "ali"), "Ali and ali are the same name."),
    (("José", "Jose", "Reza"), "José and Jose are the same name."),
    (("Ali", "Reza", "Ali"), "Ali is named twice."),
])
def test_two_spellings_of_one_name_are_called_the_same_name(db, names, said):
    shown = screen(db, "new", *names)
    assert said in " ".join(shown.split()), shown


@TTY
def test_taking_two_sets_under_pagat_says_one_set_may_be_taken(pasur, db):
    """RULES.md example 2: table A 2 4 5, play 5 takes 5+A or 4+2, not both."""
    pasur("new", "Ali", "Reza", "--rules", "pagat")
    pasur("deal", "AC", "2D", "4H", "5C")
    shown = " ".join(screen(db, "play", "5S", "--take", "AC 2D 4H 5C").split())
    assert "5♠ takes one set only under these rules (multi_capture=false): A♣ 2♦ 4♥ 5♣ is 2 sets" in shown, shown
    assert "not 11" not in shown
    assert pasur("show", "--json").output.count('"turn": "Reza"') == 1  # nothing was recorded


@pytest.mark.parametrize("card,table,take,said", [
    ("5S", "AC 2D 4H 5C", "AC 2D 4H 5C", "is 2 sets"),
    ("9S", "AC 2D AH AS 2S", "AC AH 2D", "is 2 sets"),
    ("5S", "AC 2D 4H 5C", "AC 2D 5C", "= 13, not 11."),  # not sets at all: the sum is wrong
])
def test_check_says_why_two_sets_are_refused(pasur, card, table, take, said):
    result = pasur("check", card, "--table", table, "--take", take, "--rules", "pagat")
    assert result.exit_code == 1 and said in result.output, result.output


@pytest.mark.parametrize("lang,said", [("de", "Die Partie ist vorbei: Ali & Sara haben gewonnen."),
                                       ("es", "La partida ha terminado: ganaron Ali & Sara."),
                                       ("fa", "بردند")])
def test_the_session_says_a_team_won_in_the_plural(pasur, lang, said):
    pasur("new", "Ali", "Reza", "Sara", "Mina")
    counts = ["--count", "Ali: clubs=8 aces=3 jacks=2 two_clubs=yes ten_diamonds=yes",
              "--count", "Reza: clubs=5 aces=1 jacks=2 two_clubs=no ten_diamonds=no"]
    for _ in range(4):
        pasur("tally", *counts)
    assert said in pasur("--lang", lang, "session", input="7c\n").output
