"""Colour, ASCII, wide names and shell completion."""

import io
import json
import os
import sys

import pexpect
from click.testing import CliRunner
from wcwidth import wcswidth

from pasur_cli.cards import parse_card
from pasur_cli.cli import main
from pasur_cli.render import Look


class Tty(io.StringIO):
    encoding = "utf-8"

    def isatty(self):
        return True


def test_colour_only_at_a_terminal_without_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Look.detect(stream=Tty()).color
    assert not Look.detect(stream=io.StringIO()).color
    assert not Look.detect(no_color=True, stream=Tty()).color
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Look.detect(stream=Tty()).color
    monkeypatch.setenv("NO_COLOR", "")
    assert Look.detect(stream=Tty()).color
    look = Look(color=True)
    assert look.card(parse_card("10D")) == "\x1b[31m10♦\x1b[0m" and look.card(parse_card("10C")) == "10♣"
    assert "\x1b[" in look.loud("SUR")


def test_ascii_when_asked_or_when_the_terminal_cannot_encode():
    class Latin1(io.StringIO):
        encoding = "latin-1"
    assert Look.detect(stream=Latin1()).ascii and Look.detect(ascii=True, stream=Tty()).ascii
    assert not Look.detect(stream=Tty()).ascii


def test_colour_at_a_real_terminal(db):
    env = dict(os.environ, PASUR_DB=str(db))
    env.pop("NO_COLOR", None)
    out = pexpect.run(f"{sys.executable} -m pasur_cli check 5S --table '6H'", env=env, encoding="utf-8")
    assert "\x1b[31m6♥" in out and "\x1b[1;33mSUR" in out
    out = pexpect.run(f"{sys.executable} -m pasur_cli check 5S --table '6H 5C'", env={**env, "NO_COLOR": "1"},
                      encoding="utf-8")
    assert "\x1b[" not in out and "6♥" in out
    out = pexpect.run(f"{sys.executable} -m pasur_cli check 5S --table '6H 5C' --no-color --ascii", env=env,
                      encoding="utf-8")
    assert "\x1b[" not in out and "6H" in out


def test_names_in_any_script_keep_tables_aligned(pasur):
    assert pasur("new", "سارا", "Jürgen", "李小龍").exit_code == 0
    pasur("tally", "--count", "سارا: clubs=7 aces=4 jacks=1 two_clubs=yes", "--count",
          "Jürgen: clubs=3 jacks=3 ten_diamonds=yes", "--count", "李小龍: clubs=3")
    for command in ("matches", "score"):
        text = pasur(command).output
        blocks = [b for b in text.split("\n\n") if "---" in b]
        assert blocks
        for block in blocks:
            lines = [row for row in block.splitlines() if row.strip() and not row.startswith(("Deal", "Match"))]
            rule = lines[1]
            # every column starts where its dashes start
            starts = [i for i, ch in enumerate(rule) if ch == "-" and (i == 0 or rule[i - 1] == " ")]
            for line in lines[2:]:
                for start in starts[1:]:
                    assert wcswidth(line[:_char_index(line, start)]) == start


def _char_index(line, width):
    """The index in line where the display width reaches ``width``."""
    for i in range(len(line) + 1):
        if wcswidth(line[:i]) >= width:
            return i
    return len(line)


def complete(words, cword, db=None):
    env = {"_PASUR_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    if db:
        env["PASUR_DB"] = str(db)
    result = CliRunner().invoke(main, [], env=env, prog_name="pasur", complete_var="_PASUR_COMPLETE")
    return [line.split(",", 1)[1] for line in result.output.splitlines()]


def test_completion(pasur, db):
    assert "play" in complete("pasur p", 1) and "tally" in complete("pasur t", 1)
    assert complete("pasur check 5c --rules p", 4) == ["pagat"]
    assert complete("pasur check 5c --rule sur_c", 4) == ["sur_cancel="]
    assert complete("pasur check 5c --rule jack_capture=", 4) == ["jack_capture=wild", "jack_capture=sum11"]
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    unseen = complete("pasur play ", 2, db)
    assert len(unseen) == 52 - 5 and "2S" not in unseen and "9D" not in unseen and "5C" not in unseen
    assert complete("pasur play 6c --take ", 4, db) == ["5C", "3H", "KS"]
    assert complete("pasur play 6c --by S", 4, db) == ["Sara"]
    assert json.loads(pasur("show", "--json").output)["unseen"] == len(unseen)


def test_ascii_reaches_error_messages(pasur):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    assert "9♦ was captured by Sara" in pasur("play", "9D").output
    result = pasur("play", "9D", "--ascii")
    assert result.exit_code == 1 and "9D was captured by Sara" in result.output and "♦" not in result.output
    shown = pasur("show", "--ascii").output
    assert not any(ord(ch) > 127 for ch in shown), shown
