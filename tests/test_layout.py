"""Layout promises with the longest names allowed (40 characters, Latin with accents, or CJK, two
columns a character): at COLUMNS=80 `show`, `score` and the chart's legend stay within the width,
breaking between words (or between two CJK characters, as Unicode's line breaking allows), and
at 60 columns the session's prompt still leaves 20 columns to type in."""

import os
import random
import re
import sys

import pexpect
import pytest
from matchbook import stored_match
from tier import some

from pasur_cli.engine.names import NAME_MOST
from pasur_cli.engine.rules import parse_rules
from pasur_cli.text.layout import text_width

LATIN = ["Maximilián", "Öztürk-Gonçalves", "de", "la", "Fuenté", "Éléonore", "Åsa", "Björklund-Núñez", "y", "Zoë",
         "Castañeda", "Ludwig", "Ångström-Dvořák", "von", "Schönhausen", "Ōtsuka-Łukasiewicz", "da", "Conceição"]
CJK = "王李明山田太郎金木林陳張黃趙周吳徐孫馬朱胡郭何高羅鄭梁謝宋唐許韓馮鄧曹彭曾蕭田董"
READERS = [["show"], ["score"], ["score", "--chart"]]


def latin_name(rng: random.Random, seat: int) -> str:
    words = [f"{seat}{rng.choice(LATIN)}"]
    while len(" ".join(words)) < NAME_MOST:
        words.append(rng.choice(LATIN))
    name = " ".join(words)[:NAME_MOST].rstrip(" -")
    return name + "é" * (NAME_MOST - len(name))  # exactly 40 characters, the last word lengthened


def cjk_name(rng: random.Random, seat: int) -> str:
    return str(seat) + "".join(rng.choice(CJK) for _ in range(NAME_MOST - 1))


def stored(db, players: list[str], seed: int) -> None:
    """Two finished deals and three plays of the next; teams of two or solo by the seed."""
    rules = parse_rules("standard", [] if len(players) == 4 or seed % 2 else ["teams=false"])
    stored_match(db, players, rules, seed, deals=2, plays=3)


def broken_words(text: str, names: list[str]) -> list[str]:
    """Pieces of a name's words that a line break cut apart (a name the status line cuts on purpose
    ends with a dot)."""
    words = {w for name in names for w in name.split()}
    found = []
    for token in re.split(r"[\s·–,;()&]+", text):
        bare = token.rstrip(".:")
        if len(bare) < 2 or bare in words or not re.search(r"[^\W\d_]", bare):
            continue  # a team's initials (M&L) are a shortening on purpose too
        if any(bare in w for w in words) and not (token.endswith(".") and any(w.startswith(bare) for w in words)):
            found.append(token)
    return found


@pytest.mark.parametrize("seed", some(range(6), 2))
def test_longest_names_stay_within_80_columns(pasur, db, monkeypatch, seed):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    rng = random.Random(seed)
    make = cjk_name if seed % 2 else latin_name
    players = [make(rng, seat) for seat in range(1, rng.choice([2, 3, 4]) + 1)]
    assert all(len(p) == NAME_MOST for p in players)
    stored(db, players, seed)
    for args in READERS:
        result = pasur(*args)
        assert result.exit_code == 0, result.output
        wide = [line for line in result.output.split("\n") if text_width(line) > 80]
        assert not wide, (args, wide)
        if make is latin_name:
            assert not broken_words(result.output, players), (args, broken_words(result.output, players))


def test_the_issues_example_lines_of_126_columns(pasur, db, monkeypatch):
    """Four 40-character names at COLUMNS=80 made lines up to 126 columns in show, score and the
    chart legend; now every line is within 80, broken between words."""
    monkeypatch.setenv("COLUMNS", "80")
    names = ["Maximilián Öztürk-Gonçalves de la Fuenté", "Éléonore Åsa Björklund-Núñez y Castañeda",
             "Ludwig Ångström-Dvořák von Schönhausenné", "Zoë Ōtsuka-Łukasiewicz da Conceição Brás"]
    stored(db, names, 3)
    for args in READERS:
        out = pasur(*args).output
        assert max(text_width(line) for line in out.split("\n")) <= 80, (args, out)
        assert not broken_words(out, names), (args, broken_words(out, names))
    chart = pasur("score", "--chart").output.rstrip("\n").split("\n")
    legend = " ".join(line.strip() for line in chart[[line.strip() for line in chart].index("deal") + 1:])
    assert all(name in legend for name in names), legend  # every name whole, only broken at its spaces


TTY = pytest.mark.skipif(not sys.stdin or os.name != "posix", reason="needs a pseudo-terminal")


@TTY
@pytest.mark.parametrize("players", [2, 4])
def test_session_prompt_leaves_20_columns_with_cjk_names_at_60(db, players):
    rng = random.Random(players)
    stored(db, [cjk_name(rng, seat) for seat in range(1, players + 1)], players)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(db), NO_COLOR="1", LC_ALL="C.UTF-8")  # a terminal that shows CJK speaks UTF-8
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "session"], env=env, encoding="utf-8", timeout=20,
                          dimensions=(24, 60))
    try:
        for _ in range(2):  # the first prompt, and the one after a command
            child.expect("› ")
            screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", child.before + child.after)  # the line editor's codes
            line = screen.split("\n")[-1]
            assert 60 - text_width(line) >= 20, line
            assert max(text_width(x) for x in screen.split("\n")) <= 60, screen
            child.sendline("show")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
