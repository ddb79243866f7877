"""`pasur matches` keeps one layout with and without --unfinished (and --player): the columns
are those the whole list needs, read in an 80x24 terminal (pexpect)."""

from __future__ import annotations

import os
import sys

import pexpect
import pytest

WON = ["--count", "Ali: clubs=8 aces=3 jacks=2 two_clubs=yes ten_diamonds=yes",
       "--count", "Sara: clubs=5 aces=1 jacks=2 two_clubs=no ten_diamonds=no"]


def screen(db, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(db), NO_COLOR="1")
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", *args], env=env, encoding="utf-8", timeout=20,
                          dimensions=(24, 80))
    child.expect(pexpect.EOF)
    return child.before.replace("\r\n", "\n")


def rows(text: str) -> dict[str, list[str]]:
    """Each match's lines, by its number (the lines under the header rule)."""
    out: dict[str, list[str]] = {}
    key = ""
    for line in text.splitlines()[2:]:
        if line[:7].strip():
            key = line[:7].strip()
            out[key] = []
        out[key].append(line.rstrip())
    return out


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
def test_unfinished_and_player_keep_the_layout_of_the_whole_list(pasur, db):
    pasur("new", "Ali", "Sara", "Reza", "Mina")
    for _ in range(4):
        pasur("tally", *WON)  # won by Ali & Reza: a wide status
    pasur("new", "Mehrangiz Khanum", "Bahram Beyzaie", "Sara")
    pasur("new", "Dara", "Shirin")
    whole = screen(db, "matches")
    assert "won by Ali &" in whole and "Reza" in whole  # broken in its column
    header = whole.splitlines()[0].split()
    for args in (["--unfinished"], ["--player", "dara"], ["--unfinished", "--player", "shirin"]):
        part = screen(db, "matches", *args)
        assert part.splitlines()[0].split() == header, (args, part)
        for number, lines in rows(part).items():  # each match drawn on the same lines, in the same cells
            assert [line.split() for line in lines] == [line.split() for line in rows(whole)[number]], (args, part)
    assert set(rows(screen(db, "matches", "--unfinished"))) == {"2", "3"}
