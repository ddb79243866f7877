"""Attacks on the merged round (issue 9's promises over the new session, commands and languages):
every class generates its cases. Each command must exit 0, 1 or 2 without a traceback, and a
refusal must leave the database byte-identical.

Classes: the session under hostile lines; the session while its database is busy, its match
deleted, damaged or played by someone else; numbers in every notation where numbers are read;
odd languages; CSV cells a spreadsheet would run; terminal controls in every message; the new
commands on damaged and empty databases; export/import round trips of long matches.
"""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pasur_cli.cli import main

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                          HealthCheck.too_slow])


def run(path: Path, *args: object, input: str | None = None, color: bool = False, env: dict | None = None):
    """`pasur ARGS` in-process on the database at ``path``; a bug's exception is raised."""
    environ = {"PASUR_DB": str(path), "PASUR_BUSY_TIMEOUT": "0", **(env or {})}
    result = CliRunner().invoke(main, [str(a) for a in args], input=input, env=environ, color=color,
                                catch_exceptions=False)
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    return result


def fresh(tmp: Path, players=("Ali", "Sara"), table=("6C", "6D", "3H", "KS"), rules=("multi_capture=false",)) -> Path:
    path = tmp / f"{len(list(tmp.iterdir()))}.db"
    assert run(path, "new", *players, *[a for r in rules for a in ("--rule", r)]).exit_code == 0
    if table:
        assert run(path, "deal", *table).exit_code == 0
    return path


def length(path: Path, match: int = 1) -> int:
    return json.loads(run(path, "show", "--json", "--match", match).output)["length"]


def controls(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on (a line break is fine)."""
    return [ch for ch in text if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf", "Cs")]


# -- numbers in every notation ------------------------------------------------------------------
DIGITS = ["0123456789", "۰۱۲۳۴۵۶۷۸۹", "٠١٢٣٤٥٦٧٨٩", "".join(chr(0xFF10 + d) for d in range(10))]  # fullwidth


def written(n: int, digits: str) -> str:
    return "".join(digits[int(d)] for d in str(n))


numbers = st.one_of(
    st.builds(written, st.integers(0, 10**30), st.sampled_from(DIGITS)),
    st.builds(written, st.just(9), st.sampled_from(DIGITS)).map(lambda s: s * 5000),
    st.sampled_from(["²", "¹⁰", "-1", "-0", "1e3", "Infinity", "NaN", "0x10", "1_0", " 3", "3 ", "", "+2", "½",
                     "9223372036854775808", "18446744073709551616", "٣.٥", "\x00", "1\x1b[2J"]),
)


# -- the session: hostile lines ------------------------------------------------------------------
def session(path: Path, lines: list[str], monkeypatch, between=None):
    """`pasur session` on ``path`` fed ``lines`` (``between(i)`` runs before line i is read)."""
    from pasur_cli import terminal
    feed = iter(enumerate(lines))

    def read(prompt: str) -> str:
        try:
            i, line = next(feed)
        except StopIteration:
            raise EOFError from None
        if between:
            between(i)
        return line

    monkeypatch.setattr(terminal, "read_pipe", read)
    return run(path, "session")


garbage = st.text(st.characters(blacklist_categories=()), max_size=40).map(lambda s: "x" + s.replace("\n", ""))


def undoable(text: str) -> bool:
    """Whether `undo TEXT` takes something back from a log of one action."""
    text = text.strip()
    return not text or (text.isdecimal() and len(text) < 3 and 1 <= int(text) <= 2)


refused_undo = st.one_of(numbers.filter(lambda s: not undoable(s)), st.just("1 2"), st.just("-3")).map(
    lambda n: f"undo {n}")


@SETTINGS
@given(lines=st.lists(st.one_of(garbage, refused_undo), min_size=1, max_size=8))
def test_session_refuses_garbage_and_changes_nothing(tmp_path_factory, monkeypatch, lines):
    path = fresh(tmp_path_factory.mktemp("s"))
    before = path.read_bytes()
    result = session(path, lines, monkeypatch)
    assert result.exit_code == 0 and result.output.rstrip().endswith("Bye.")
    assert path.read_bytes() == before
    assert not controls(result.output), result.output


words = st.one_of(garbage, refused_undo, st.sampled_from(
    ["5h", "5h 6c", "5h 6c 6d", "kh", "k", "3c", "undo", "undo ۱", "show", "score", "matches", "help", "tally",
     "deal", "2s 3s 4s 5s", "qs jc 7d 8h", "۱", "۲", "1", "2", "99999999999999999999", "6c", "clubs=۷ aces=۴",
     "Ali", "q"]), numbers)


@SETTINGS
@given(lines=st.lists(words, min_size=1, max_size=14))
def test_session_survives_any_line(tmp_path_factory, monkeypatch, lines):
    path = fresh(tmp_path_factory.mktemp("s"))
    result = session(path, lines, monkeypatch)
    assert result.exit_code == 0 and "Bye." in result.output
    assert not controls(result.output), result.output
    assert run(path, "show").exit_code == 0 and run(path, "export").exit_code == 0  # still replays


def test_session_reads_undecodable_bytes_with_a_strict_codec(tmp_path):
    """Piped bytes the encoding cannot decode (PYTHONIOENCODING=ascii:strict) are refused as text."""
    import os
    import subprocess
    import sys
    path = fresh(tmp_path)
    before = path.read_bytes()
    rng = random.Random(9)
    for encoding in ("ascii:strict", "latin-1", "utf-8:strict"):
        data = b"x" + bytes(rng.randrange(128, 256) for _ in range(20)) + b"\nzz\n"
        env = {**os.environ, "PASUR_DB": str(path), "PYTHONIOENCODING": encoding}
        done = subprocess.run([sys.executable, "-m", "pasur_cli", "session"], input=data, env=env,
                              capture_output=True, timeout=60)
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
        assert path.read_bytes() == before


# -- the session while the database changes under it ------------------------------------------
def hold_lock(path: Path):
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    return con


@pytest.mark.parametrize("seed", range(12))
def test_session_outlives_busy_deleted_damaged_and_other_writers(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    path = fresh(tmp_path)
    held: list[sqlite3.Connection] = []
    events = {}
    lines = [rng.choice(["5h", "5h 6c", "show", "undo", "score", "2s", "matches", "kh", "tally", "1"])
             for _ in range(10)]
    for i in rng.sample(range(10), 3):
        events[i] = rng.choice(["busy", "free", "other", "delete", "damage", "busy"])

    def between(i: int) -> None:
        what = events.get(i)
        if what == "busy" and not held:
            held.append(hold_lock(path))
        elif what == "free" and held:
            held.pop().execute("ROLLBACK")
        elif what in ("other", "delete", "damage"):
            while held:
                held.pop().execute("ROLLBACK")
            con = sqlite3.connect(path)
            if what == "other":  # someone else's play: a one-shot command in between
                con.close()
                run(path, "play", rng.choice(["5h", "2s", "kh"]))
                return
            if what == "delete":
                con.execute("DELETE FROM actions")
                con.execute("DELETE FROM snapshots")
                con.execute("DELETE FROM matches")
            else:  # the damage another version or a hand edit leaves (it moves `touched`)
                con.execute("UPDATE actions SET action = 'play\t2S KH' WHERE seq = 1")
                con.execute("UPDATE matches SET touched = touched + 1")
            con.commit()
            con.close()

    try:
        result = session(path, lines, monkeypatch, between)
    finally:
        for con in held:
            con.execute("ROLLBACK")
    assert result.exit_code == 0 and result.output.rstrip().endswith("Bye."), result.output  # it went on, or left


def test_session_says_busy_and_goes_on(tmp_path, monkeypatch):
    path = fresh(tmp_path)
    held = []

    def between(i):
        if i == 0:
            held.append(hold_lock(path))
        if i == 3:
            held.pop().execute("ROLLBACK")

    result = session(path, ["show", "5h", "1", "show", "5h", "1"], monkeypatch, between)
    assert "busy" in result.output and result.exit_code == 0
    assert "Sara plays 5♥ and takes 6♣." in result.output and length(path) == 2


# -- CSV a spreadsheet would run -----------------------------------------------------------------
formula_names = st.tuples(st.sampled_from("=+-@"), st.text(st.characters(whitelist_categories=("L", "N", "P", "S")),
                                                            min_size=1, max_size=12)).map("".join)


@SETTINGS
@given(names=st.lists(formula_names, min_size=2, max_size=2, unique_by=lambda s: unicodedata.normalize(
    "NFC", s).strip().casefold()))
def test_csv_cells_never_start_a_formula(tmp_path_factory, names):
    path = tmp_path_factory.mktemp("c") / "c.db"
    made = run(path, "new", "--", *names)
    if made.exit_code:  # a name the record refuses (e.g. only punctuation): nothing to write
        return
    players = json.loads(run(path, "show", "--json").output)["piles"]
    sides = list(players)
    run(path, "tally", "--count", f"{sides[0]}: clubs=7 aces=4 jacks=4 two_clubs=yes ten_diamonds=yes",
        "--count", f"{sides[1]}: clubs=6 aces=0 jacks=0 two_clubs=no ten_diamonds=no")
    for command in (["score", "--csv"], ["stats", "--csv"]):
        text = run(path, *command).output
        rows = list(csv.DictReader(io.StringIO(text)))
        assert rows, text
        for row in rows:
            for column in ("name", "side", "dealer"):
                cell = row.get(column)
                if cell:
                    assert not cell.startswith(("=", "+", "-", "@")), text
                    assert cell.startswith("'") or not cell[1:2]


# -- terminal controls in every message ----------------------------------------------------------
hostile = st.text(st.characters(whitelist_categories=("Cc", "Cf", "L", "N", "Zs"), blacklist_characters="\x00"),
                  min_size=1, max_size=10).filter(lambda s: controls(s)).map(lambda s: "A" + s)


@SETTINGS
@given(text=hostile, slot=st.sampled_from(["db", "export", "import", "stats", "matches", "by", "count", "surs",
                                           "pile", "check", "rules", "rule", "new", "take"]))
def test_no_terminal_control_reaches_the_screen(tmp_path_factory, text, slot):
    tmp = tmp_path_factory.mktemp("t")
    path = fresh(tmp)
    before = path.read_bytes()
    args = {
        "db": ["--db", str(tmp / f"no{text}" / "x.db"), "show"],
        "export": ["export", "-o", str(tmp / "none" / f"{text}.json")],
        "import": ["import", str(tmp / f"{text}.json")],
        "stats": ["stats", "--player", text], "matches": ["matches", "--player", text],
        "by": ["play", "5h", "--by", text], "count": ["tally", "--count", f"{text}: clubs=1"],
        "surs": ["tally", "--surs", f"Ali={text}"], "pile": ["tally", "--pile", f"Ali={text}"],
        "check": ["check", "5S", "--table", text], "rules": ["new", "A", "B", "--rules", text],
        "rule": ["new", "A", "B", "--rule", f"{text}=1"], "new": ["new", text, "B"],
        "take": ["play", "5h", "--take", text],
    }[slot]
    result = run(path, *args, color=True)
    assert not controls(result.output), (slot, result.output)
    if result.exit_code:
        assert path.read_bytes() == before

