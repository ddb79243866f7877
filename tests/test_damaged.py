"""A damaged, foreign, newer or read-only database gets a clear message and is never modified."""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from tier import some

from pasur_cli.store.database import SCHEMA_VERSION

PASUR = [sys.executable, "-m", "pasur_cli"]
COMMANDS = [["show"], ["score"], ["matches"], ["play", "7C"], ["deal", "2C", "3C", "4C", "5C"], ["undo"],
            ["new", "Ali", "Sara"], ["export"]]


def made(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    return db.read_bytes()


def check_all_refused(pasur, db, words, commands=COMMANDS):
    before = db.read_bytes()
    for args in commands:
        result = pasur(*args)
        assert result.exit_code == 1, (args, result.output)
        assert any(w in result.output for w in words), (args, result.output)
        assert "Traceback" not in result.output
        assert db.read_bytes() == before
        assert not os.path.exists(str(db) + "-journal")


def test_truncated_file(pasur, db):
    good = made(pasur, db)
    for size in (100, 1024, len(good) // 2):
        db.write_bytes(good[:size])
        check_all_refused(pasur, db, ["cannot be read", "damaged", "not a pasur database", "malformed"])


@pytest.mark.parametrize("seed", range(5))
def test_random_bytes(pasur, db, seed):
    import random
    rng = random.Random(seed)
    db.write_bytes(bytes(rng.randrange(256) for _ in range(rng.choice([10, 4096, 20000]))))
    check_all_refused(pasur, db, ["not a pasur database"])


@pytest.mark.parametrize("content,words", [
    (b"hello, I am a text file\n" * 10, "not a pasur database"),
    (b"SQLite format 3\x00" + b"\x13" * 2000, "cannot be read"),  # SQLite's header, nonsense after it
])
def test_text_file_or_nonsense_after_the_header(pasur, db, content, words):
    db.write_bytes(content)
    check_all_refused(pasur, db, [words])


def test_random_bytes_after_a_valid_header(pasur, db):
    good = made(pasur, db)
    db.write_bytes(good[:100] + os.urandom(len(good) - 100))
    check_all_refused(pasur, db, ["cannot be read", "damaged", "malformed"])


def test_someone_elses_schema_and_a_newer_one(pasur, db):
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE invoices (id INTEGER)")  # no meta table at all
    con.commit()
    con.close()
    check_all_refused(pasur, db, ["something else"])
    db.unlink()
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE meta (key TEXT, value TEXT)")  # a meta table of another program
    con.execute("INSERT INTO meta VALUES ('app', 'notes')")
    con.commit()
    con.close()
    check_all_refused(pasur, db, ["something else"])
    db.unlink()
    made(pasur, db)
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    con.commit()
    con.close()
    check_all_refused(pasur, db, ["newer pasur"])
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value = 'x' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    check_all_refused(pasur, db, ["schema version is 'x'"])


def as_nobody():
    """How to run a process without root's power to ignore file modes, or None."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if not setpriv:
        return None
    prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run([*prefix, sys.executable, "-c", "import pasur_cli"], capture_output=True)
    return prefix if probe.returncode == 0 else None


@pytest.fixture
def shared():
    """A folder another user can reach: made directly in the system's temporary folder, not under
    pytest's pytest-of-root, which any pytest starting meanwhile sets back to mode 0700 (that made
    this test fail when two test runs overlapped)."""
    import tempfile
    base = Path(tempfile.mkdtemp(prefix="pasur-shared-"))
    base.chmod(0o755)
    folder = base / "shared"
    folder.mkdir()
    folder.chmod(0o755)
    parent = base.parent
    while parent != parent.parent:  # nobody must be able to reach the folder
        if parent.stat().st_mode & 0o001 == 0 and os.geteuid() == 0:
            parent.chmod(parent.stat().st_mode | 0o001)
        parent = parent.parent
    yield folder
    folder.chmod(0o755)
    shutil.rmtree(base, ignore_errors=True)


WRITES = [["play", "6H"], ["undo"], ["new", "Reza", "Mina"]]


@pytest.mark.parametrize("what", ["file", "folder"])
@pytest.mark.parametrize("writes", some([WRITES[:1], WRITES]), ids=["play", "every"])  # every change under soak
def test_read_only_file_or_folder(pasur, shared, monkeypatch, what, writes):
    prefix = as_nobody()
    if prefix is None:
        pytest.skip("no way to run a process that respects file modes here")
    db = shared / "pasur.db"
    monkeypatch.setenv("PASUR_DB", str(db))
    made(pasur, db)
    (db if what == "file" else shared).chmod(0o444 if what == "file" else 0o555)
    os.chmod(db, 0o444 if what == "file" else 0o644)
    before = db.read_bytes()
    env = dict(os.environ, PASUR_DB=str(db))
    try:
        shown = subprocess.run([*prefix, *PASUR, "show", "--json"], env=env, capture_output=True, text=True)
        assert shown.returncode == 0, shown.stderr  # reading still works
        for args in writes:
            result = subprocess.run([*prefix, *PASUR, *args], env=env, capture_output=True, text=True)
            assert result.returncode == 1, (args, result.stdout, result.stderr)
            assert "cannot write to" in result.stderr and "Traceback" not in result.stderr
            assert db.read_bytes() == before
    finally:
        shared.chmod(0o755)


@pytest.mark.parametrize("edit", [
    "UPDATE actions SET action = CAST(x'706c6179ff' AS TEXT) WHERE match_id = 1 AND seq = 2",
    "UPDATE matches SET players = CAST(x'416cff' AS TEXT) WHERE id = 1",
    "UPDATE matches SET rules = CAST(x'ff' AS TEXT) WHERE id = 1",
])
def test_bytes_that_are_not_utf8_damage_one_match_not_the_file(pasur, db, edit):
    """Text that is not UTF-8 in one match's row (a hand edit) made every listing refuse the file;
    it is that match that is damaged, and delete removes it."""
    for match, players in enumerate((("Ali", "Sara"), ("Reza", "Mina")), 1):
        assert pasur("new", *players).exit_code == 0
        assert pasur("--match", match, "deal", "5C", "9D", "3H", "KS").exit_code == 0  # two in play: named
        assert pasur("--match", match, "play", "2S").exit_code == 0
    con = sqlite3.connect(db)
    con.execute(edit)
    con.commit()
    con.close()
    import json
    rows = {row["match"]: row["damaged"] for row in json.loads(pasur("matches", "--json").output)}
    assert rows[2] is None and "not text" in rows[1]
    assert pasur("stats").exit_code == 0
    assert pasur("--match", 2, "show").exit_code == 0
    shown = pasur("--match", 1, "show")
    assert shown.exit_code == 1 and "match 1 is damaged" in shown.output
    assert pasur("delete", "--match", 1, "--yes").exit_code == 0
    assert [row["match"] for row in json.loads(pasur("matches", "--json").output)] == [2]


def test_a_huge_stored_line_is_shown_shortened(pasur, db):
    """A hand-edited action of 400,000 characters made log and matches print it whole."""
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    pasur("play", "2S")
    con = sqlite3.connect(db)
    con.execute("UPDATE actions SET action = ? WHERE seq = 2", ("play\tSara\t" + "9" * 400_000 + "\t",))
    con.commit()
    con.close()
    for args in (["log"], ["show"], ["matches"], ["matches", "--json"]):
        result = pasur(*args)
        shown = "".join(result.output.split())  # what is written, not the columns' spaces (matches breaks it)
        assert "damaged" in result.output and len(shown) < 2_000, (args, len(shown))
