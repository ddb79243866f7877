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
import tempfile
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from matchbook import random_match, stored
from tier import sized, some

from pasur_cli.cli.app import main

# each example runs several commands on a database of its own: a smoke sample in the quick suite
SETTINGS = sized(5)


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


def controls(text: str, typed: str = "") -> list[str]:
    """The characters of ``text`` a terminal would act on (a line break is fine), leaving out the
    isolates pasur itself puts around a fact holding right-to-left letters (FSI ... PDI, balanced)
    unless the ``typed`` input held isolates of its own (then every one must have been escaped)."""
    import re
    while "\u2068" not in typed and "\u2069" not in typed:  # innermost first: a fact may hold another
        bare = re.sub("\u2068([^\u2068\u2069]*)\u2069", r"\1", text)
        if bare == text:
            break
        text = bare
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
    from pasur_cli.cli import terminal
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
    for encoding in ("ascii:strict", "utf-8:strict"):
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


@pytest.mark.parametrize("seed", some(range(12), 4))
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


def test_session_shows_and_scores_what_another_shell_recorded(tmp_path, monkeypatch):
    """show and score read the match as it is now, as the prompt does, not as it was when the
    line was being typed; a play typed meanwhile is refused, saying for the table what happened."""
    path = fresh(tmp_path)
    plays = [["5h", "--take", "6c"], ["kh"], ["3c"]]  # Sara's, Ali's, Sara's
    after = {}

    def between(i):  # another shell records a play while the session waits for line i
        assert run(path, "play", *plays[i]).exit_code == 0
        after[i] = run(path, ["show", "score", "show"][i]).output.strip()

    shown = session(path, ["show", "score", "2s"], monkeypatch, between).output
    assert after[0] in shown and after[1] in shown, shown
    assert shown.index(after[0]) < shown.index(after[1])
    assert ("Error: someone recorded 1 more action since this was shown; nothing was recorded. Look again and"
            " re-enter.") in shown
    assert length(path) == 4  # the deal and the other shell's three plays; the session's 2S was refused


def test_expect_says_the_lengths_to_a_script(tmp_path):
    path = fresh(tmp_path)
    refused = run(path, "play", "5h", "--expect", 3)
    assert refused.exit_code == 1 and "its revision is 1, not 3; the length of its log is 1)" in refused.output


def test_session_says_how_many_actions_someone_took_back(tmp_path, monkeypatch):
    path = fresh(tmp_path)
    assert run(path, "play", "5h", "--take", "6c").exit_code == 0

    def between(i):
        if i == 0:
            assert run(path, "undo", 2).exit_code == 0

    result = session(path, ["kh"], monkeypatch, between)
    assert ("Error: someone took back 2 actions since this was shown; nothing was recorded. Look again and"
            " re-enter.") in result.output


# -- numbers wherever they are read --------------------------------------------------------------
@SETTINGS
@given(n=numbers, where=st.sampled_from(["match", "expect", "undo", "surs", "count", "target", "session-undo",
                                         "session-choice"]))
def test_numbers_in_every_notation(tmp_path_factory, monkeypatch, n, where):
    path = fresh(tmp_path_factory.mktemp("n"), table=("6C", "6D", "3H", "KS") if where.startswith("session")
                 else None)
    before = path.read_bytes()
    if where == "match":
        results = [run(path, cmd, "--match", n) for cmd in ("show", "score", "log", "export")]
        results.append(run(path, "delete", "--match", n))  # no --yes and no terminal: never deletes
    elif where == "expect":
        results = [run(path, "deal", "5C", "9D", "3H", "KS", "--expect", n)]
    elif where == "undo":
        results = [run(path, "undo", n)]
    elif where == "surs":
        results = [run(path, "tally", "--count", "Ali: clubs=7 aces=4 jacks=4 two_clubs=yes ten_diamonds=yes",
                       "--count", "Sara: clubs=6 aces=0 jacks=0 two_clubs=no ten_diamonds=no", "--surs", f"Ali={n}")]
    elif where == "count":
        results = [run(path, "tally", "--count", f"Ali: clubs={n} aces=4 jacks=4 two_clubs=yes ten_diamonds=yes",
                       "--count", "Sara: clubs=6 aces=0 jacks=0 two_clubs=no ten_diamonds=no")]
    elif where == "target":
        results = [run(path, "new", "A", "B", "--rule", f"target={n}")]
    elif where == "session-undo":
        results = [session(path, [f"undo {n}"], monkeypatch)]
    else:
        results = [session(path, ["5h", n, "2"], monkeypatch)]
    for result in results:
        if result.exit_code:
            assert path.read_bytes() == before, result.output
            assert result.output.count("\n") <= 3, result.output


def test_persian_digits_are_numbers(tmp_path):
    path = fresh(tmp_path)
    assert run(path, "show", "--match", "۱").exit_code == 0
    assert run(path, "undo", "--expect", "۱").exit_code == 0
    assert length(path) == 0


# -- languages ------------------------------------------------------------------------------------
langs = st.one_of(st.sampled_from(["xx", "", "FA", "fa_IR.UTF-8", "de:es", "../../etc", "fa\x00", "۱", "C", "en_US",
                                   "es-MX", "\u202efa", "fa/../de", "DE.utf8"]),
                  st.text(max_size=12).filter(lambda s: "\x00" not in s))


@SETTINGS
@given(lang=langs, command=st.sampled_from([["show"], ["score"], ["matches"], ["stats"], ["log"], ["rules"],
                                             ["check", "5S", "--table", "5C"], ["play", "QQ"], ["--help"]]),
       how=st.sampled_from(["option", "group", "env"]))
def test_odd_languages(tmp_path_factory, lang, command, how):
    path = fresh(tmp_path_factory.mktemp("l"))
    before = path.read_bytes()
    if any("\ud800" <= ch <= "\udfff" for ch in lang) or ("\x00" in lang and how == "env"):
        return  # argv and the environment cannot hold these
    if how == "env":
        result = run(path, *command, env={"PASUR_LANG": lang})
    elif how == "group":
        result = run(path, "--lang", lang, *command)
    else:
        result = run(path, *command, f"--lang={lang}")
    assert path.read_bytes() == before
    marks = "\u2068\u2069\u200e\u200f\u200c"  # Persian: isolates, direction marks, the word joiner
    assert not [ch for ch in controls(result.output) if ch not in marks], result.output


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
    assert not controls(result.output, text), (slot, result.output)
    if result.exit_code:
        assert path.read_bytes() == before


# -- the new commands on damaged and empty databases --------------------------------------------
READERS = [["log"], ["log", "--json"], ["stats"], ["stats", "--json"], ["stats", "--csv"], ["score", "--csv"],
           ["score", "--chart"], ["matches"], ["matches", "--player", "Ali"], ["matches", "--unfinished"],
           ["matches", "--json"], ["show"], ["score"], ["export"]]
DAMAGE = ["play\t2S KH", "", "{", "deal\t5C", "\x00", "play\t2S\t\t\t\t", "tally\t{}", "deal\tAS AS AS AS",
          "play\tZZ", "x" * 10_000]


COLUMNS = {"matches": ["created", "players", "rules", "dealer", "touched", "fingerprint", "id", "key", "revision"],
           "actions": ["action", "at", "seq", "match_id"],
           "snapshots": ["result", "totals", "seq", "crc", "engine", "match_id"]}
OTHERS = ["Ali", "Sara", "Reza", "Mina", "Zoë", "Dara", "Ali & Reza", "Sara & Mina", "Dara & Zoë"]


@pytest.fixture(scope="module")
def healthy_book(tmp_path_factory) -> Path:
    """A database of four healthy matches (2 and 3 players, 4 in teams and solo, each with
    finished deals, so with snapshots, and a deal in progress) and a fifth, the victim, as bytes."""
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.rules import parse_rules
    rng = random.Random(5)
    matches = []
    for players, teams in ((["Ali", "Sara"], True), (["Reza", "Mina", "Zoë"], True),
                           (["Ali", "Sara", "Reza", "Mina"], True), (["Dara", "Zoë", "Ali", "Sara"], False),
                           (["Ali", "Sara", "Reza", "Mina"], True)):
        rules = parse_rules("pagat", ["fixed_deals=4", f"teams={str(teams).lower()}"])
        from matchbook import random_actions
        actions = random_actions(rng, Match(players, rules, 1))
        match = Match(players, rules, 1)
        for count, action in enumerate(actions):  # cut in the third deal, after a few actions
            if len(match.results) == 2 and match.deal is not None and len(match.deal.plays) >= 3:
                actions = actions[:count]
                break
            match.apply(action)
        matches.append((players, rules, 1, actions, Match.replay(players, rules, 1, actions)))
    path = tmp_path_factory.mktemp("book") / "book.db"
    stored(path, matches)
    return path


VICTIM, HEALTHY = 5, [1, 2, 3, 4]


def hostile_json(data, current: object) -> object:
    """The stored JSON ``current`` with a key dropped, one added, or keys renamed to others' names."""
    try:
        value = json.loads(current)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return current
    if not isinstance(value, dict) or not value:
        return current
    how = data.draw(st.sampled_from(["drop", "add", "rename", "inner"]))
    key = data.draw(st.sampled_from(sorted(value)))
    if how == "drop":
        del value[key]
    elif how == "add":
        value[data.draw(st.sampled_from(OTHERS))] = data.draw(st.one_of(st.integers(-5, 99), st.text(max_size=3)))
    elif how == "rename":
        value[data.draw(st.sampled_from(OTHERS))] = value.pop(key)
    elif isinstance(value[key], dict) and value[key]:  # the scores of a result: a side's or a field
        inner = value[key]
        inner[data.draw(st.sampled_from(OTHERS))] = inner.pop(data.draw(st.sampled_from(sorted(inner))))
    return json.dumps(value, ensure_ascii=False)


def hostile_edit(data, con: sqlite3.Connection) -> str:
    """One random edit of the victim's rows: a cell set to a hostile value, or two rows' cells swapped."""
    table = data.draw(st.sampled_from(sorted(COLUMNS)))
    column = data.draw(st.sampled_from(COLUMNS[table]))
    key = "id" if table == "matches" else "match_id"
    rows = con.execute(f"SELECT rowid, {column} FROM {table} WHERE {key} = ?", (VICTIM,)).fetchall()
    rowid, current = data.draw(st.sampled_from(rows))
    if column in ("match_id", "id"):  # another healthy match's id would damage that one too
        value = data.draw(st.sampled_from([999, 0, -1, "x", None, b"\x05"]))
    else:
        value = data.draw(st.one_of(
            st.text(max_size=12), st.integers(-2, 10**12), st.binary(max_size=8), st.none(),
            st.sampled_from(OTHERS), st.sampled_from(["\n".join(OTHERS[:n]) for n in (1, 3, 5)]),
            st.sampled_from(["teams=false", "teams=true", "fixed_deals=1\nteams=false", "{}", "[]", "null"]),
            st.just("swap"), st.just("json")))
    if value == "json":
        value = hostile_json(data, current)
    if value == "swap":  # this row's cell and another's (of the victim) exchanged
        other, theirs = data.draw(st.sampled_from(rows))
        edits = [(theirs, rowid), (current, other)]
    else:
        edits = [(value, rowid)]
    try:
        for cell, row in edits:
            con.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (cell, row))
    except sqlite3.IntegrityError:  # NULL where none may be, or a key taken: SQLite refused it
        con.rollback()
    con.commit()
    return f"{table}.{column} = {value!r}"


def works_or_damaged(result, *what) -> None:
    assert result.exit_code == 0 or (result.exit_code == 1 and any(
        words in result.output for words in ("damaged", "there is no match"))), (what, result.output)


VICTIM_READERS = [("show",), ("show", "--json"), ("score",), ("score", "--csv"), ("score", "--chart"), ("log",),
                  ("log", "--json"), ("export",)]


@sized(5)
@given(data=st.data())
def test_every_command_on_a_randomly_damaged_match(tmp_path_factory, healthy_book, data):
    """One match edited by hand in a hostile way (any table, row, column and value): every command
    on it works or says the match is damaged, never a traceback, and the healthy matches all keep
    working (``matches`` and ``stats`` replay every one)."""
    path = tmp_path_factory.mktemp("d") / "d.db"
    path.write_bytes(healthy_book.read_bytes())
    con = sqlite3.connect(path)
    edit = hostile_edit(data, con)
    con.close()
    before = path.read_bytes()
    for command in data.draw(st.lists(st.sampled_from(VICTIM_READERS), min_size=2, max_size=3, unique=True)):
        works_or_damaged(run(path, *command, "--match", VICTIM), edit, command)
        assert path.read_bytes() == before, (edit, command)
    other = data.draw(st.sampled_from(HEALTHY))
    assert run(path, data.draw(st.sampled_from(["show", "score", "log", "export"])), "--match", other).exit_code == 0
    listing = {row["match"]: row for row in json.loads(run(path, "matches", "--json").stdout)}
    assert all(listing[m]["damaged"] is None for m in HEALTHY), (edit, listing)
    stats = json.loads(run(path, "stats", "--json").stdout)
    assert not set(HEALTHY) & set(stats["damaged"]), edit
    assert stats["matches"] + stats["unfinished"] in (len(HEALTHY), len(HEALTHY) + 1), edit
    assert path.read_bytes() == before
    works_or_damaged(run(path, "session", "--match", VICTIM, input="show\nscore\nmatches\n2s\nundo\nshow\n"),
                     edit, "session")
    con = sqlite3.connect(path)
    row = con.execute("SELECT revision FROM matches WHERE id = ?", (VICTIM,)).fetchone()
    con.close()
    revision = row[0] if row and type(row[0]) is int else 0  # the revision --expect compares
    works_or_damaged(run(path, "undo", "--match", VICTIM, "--expect", max(revision, 0)), edit, "undo")
    assert run(path, "show", "--match", other).exit_code == 0
    if VICTIM in listing:
        assert run(path, "delete", "--match", VICTIM).exit_code  # no terminal, no --yes: refused
        assert run(path, "delete", "--match", VICTIM, "--yes").exit_code == 0
        assert sorted(row["match"] for row in json.loads(run(path, "matches", "--json").stdout)) == HEALTHY


def test_new_commands_on_an_empty_and_a_missing_database(tmp_path):
    from pasur_cli.store.database import Store
    empty = tmp_path / "empty.db"
    Store(str(empty), create=True).close()
    for path in (empty, tmp_path / "missing.db"):
        before = path.read_bytes() if path.exists() else None
        for command in [*READERS, ["delete", "--match", "1", "--yes"], ["session"], ["undo"], ["tally"]]:
            result = run(path, *command)
            assert (path.read_bytes() if path.exists() else None) == before, (command, result.output)


# -- export/import round trips of long matches with tallies ------------------------------------
NAMES = ["علی", "José", "Jose\u0301", "=Sa:ra", "-Reza", "@Mina=1", "Zoë", "李"]


def round_trip(rng: random.Random) -> None:
    """A random match (played and tallied deals, finished or cut short) under hostile but valid
    names, imported, exported and imported again: the log, the score and the log view agree."""
    with tempfile.TemporaryDirectory() as tmp:
        players, rules, dealer, actions, match = random_match(rng, finished=rng.random() < 0.6)
        source, out, again, copy = (Path(tmp) / name for name in ("a.db", "a.json", "b.json", "b.db"))
        stored(source, [(players, rules, dealer, actions, match)])
        text = run(source, "export", "--match", 1).output
        names = rng.sample(NAMES, len(players))
        for number, old in enumerate(players):  # in two steps: a new name may hold an old one
            text = text.replace(json.dumps(old, ensure_ascii=False)[1:-1], f"\x00{number}\x00")
        for number, new in enumerate(names):  # sides and tallies too
            text = text.replace(f"\x00{number}\x00", json.dumps(new, ensure_ascii=False)[1:-1])
        out.write_text(text)
        imported = run(source, "import", out)
        if imported.exit_code:  # José twice, precomposed and not: refused, and said so
            assert imported.output.startswith("Error: ") and "José" in text and "Jose\u0301" in text
            return
        assert run(source, "export", "--match", 2, "-o", again).exit_code == 0
        assert run(copy, "import", again).exit_code == 0
        first, second = json.loads(again.read_text()), json.loads(run(copy, "export").output)
        for key in ("players", "rules", "actions", "dealer"):
            assert first.get(key) == second.get(key), key
        assert len([a for a in first["actions"] if a["action"]["type"] in ("deal", "tally")]) == \
            len([a for a in actions if a["type"] in ("deal", "tally")])
        for command in ("show", "score", "log"):
            a = json.loads(run(source, command, "--json", "--match", 2).output)
            b = json.loads(run(copy, command, "--json", "--match", 1).output)
            if isinstance(a, dict):
                a.pop("match", None)
                b.pop("match", None)
                if command == "show":  # each match has its own key; an imported one is at the same revision
                    assert a.pop("revision").split(":")[1] == b.pop("revision").split(":")[1]
            assert a == b, command
        assert run(source, "score", "--csv", "--match", 2).output.splitlines()[1:] == \
            [line.replace("1,", "2,", 1) for line in run(copy, "score", "--csv").output.splitlines()[1:]]


@pytest.mark.parametrize("seed", some(range(4), 2))
def test_export_import_round_trip_with_tallies(seed):
    round_trip(random.Random(seed))


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(4, 60))
def test_export_import_round_trip_with_tallies_soak(seed):
    round_trip(random.Random(seed))


@pytest.mark.parametrize("seed", range(3))
def test_a_tally_names_sides_in_any_normalization(tmp_path, seed):
    """A record written with decomposed names (macOS) keys its tallies by them too: they are the
    sides it names; the same side twice is refused, changing nothing."""
    rng = random.Random(seed)
    path = tmp_path / "n.db"
    assert run(path, "new", "José", "Zoë").exit_code == 0
    record = json.loads(run(path, "export").output)
    record["players"] = [unicodedata.normalize("NFD", p) for p in record["players"]]
    counts = [{"clubs": 7, "aces": rng.randrange(3), "jacks": 1, "two_clubs": True, "ten_diamonds": True},
              {"clubs": 6, "aces": 1, "jacks": 1}]
    nfd = {unicodedata.normalize("NFD", side): given for side, given in zip(("José", "Zoë"), counts, strict=True)}
    record["actions"] = [{"action": {"type": "tally", "counts": nfd, "partial": True}}]
    out = tmp_path / "r.json"
    out.write_text(json.dumps(record, ensure_ascii=rng.random() < 0.5))
    imported = run(path, "import", out)
    assert imported.exit_code == 0, imported.output
    assert json.loads(run(path, "score", "--json", "--match", 2).output)["deals"]
    twice = {**nfd, "José": counts[1]}
    record["actions"][0]["action"]["counts"] = twice
    out.write_text(json.dumps(record))
    before = path.read_bytes()
    refused = run(path, "import", out)
    assert refused.exit_code == 2 and "twice" in refused.output and path.read_bytes() == before


# -- closed standard input, odd terminal sizes ---------------------------------------------------
# the session and the commands that ask (the quick suite); the others, reading standard input or
# only starting, under soak
CLOSED = [["session"], ["tally"], ["delete", "--match", "1"],
          *(pytest.param(c, marks=pytest.mark.soak) for c in (["import", "-"], ["play", "5h"], ["undo"], ["show"]))]


@pytest.mark.parametrize("command", CLOSED)
def test_closed_standard_input(tmp_path, command):
    """`pasur CMD <&-`: standard input closed (sys.stdin is None) is the end of input, never a traceback."""
    import os
    import subprocess
    import sys
    path = fresh(tmp_path)
    before = path.read_bytes()
    done = subprocess.run([sys.executable, "-m", "pasur_cli", *command], env={**os.environ, "PASUR_DB": str(path)},
                          stdin=None, capture_output=True, timeout=60, preexec_fn=lambda: os.close(0))
    assert done.returncode in (0, 1, 2) and b"Traceback" not in done.stderr, (command, done.stderr)
    if done.returncode:
        assert path.read_bytes() == before, command


@SETTINGS
@given(columns=st.one_of(st.integers(-5, 10**8).map(str), st.sampled_from(["", "abc", "1e9", "۸۰"])),
       lines=st.one_of(st.integers(-5, 10**6).map(str), st.just("x")))
def test_chart_and_rules_at_any_terminal_size(tmp_path_factory, columns, lines):
    path = fresh(tmp_path_factory.mktemp("w"), table=None)
    run(path, "tally", "--count", "Ali: clubs=7 aces=4 jacks=4 two_clubs=yes ten_diamonds=yes",
        "--count", "Sara: clubs=6 aces=0 jacks=0 two_clubs=no ten_diamonds=no")
    for command in (["score", "--chart"], ["rules"], ["stats"], ["matches"]):
        result = run(path, *command, env={"COLUMNS": columns, "LINES": lines})
        assert result.exit_code == 0 and len(result.output) < 100_000, (command, len(result.output))


def test_a_refused_stale_play_is_followed_by_where_the_match_stands(tmp_path, monkeypatch):
    """"Look again": the session shows the table and whose turn it is now, so the table does not
    type the same card again for whoever's turn it has become."""
    path = fresh(tmp_path)

    def between(i):
        if i == 0:
            assert run(path, "play", "5h", "--take", "6c").exit_code == 0

    shown = session(path, ["kh"], monkeypatch, between).output
    said = shown[shown.index("someone recorded 1 more action"):]
    assert "Now: table 6♦ 3♥ K♠; Ali to play (hand 1 of 6)." in said, shown
