"""The session's view is current, and it leaves promptly: the classes of issue 21 ("views that are
current, and prompt exits"), with "never the wrong match" as the session sees it.

Sessions run in a pseudo-terminal (pexpect) and are driven by what they print; nothing sleeps. To
hold the file busy, the test itself opens a transaction on it (BEGIN IMMEDIATE stops writers,
BEGIN EXCLUSIVE readers too); other shells are the commands run in-process between two lines.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner
from tier import some

from pasur_cli.cli.app import main

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")


def run(path: Path, *args: object):
    result = CliRunner().invoke(main, [str(a) for a in args], env={"PASUR_DB": str(path), "PASUR_BUSY_TIMEOUT": "0"},
                                catch_exceptions=False)
    assert "Traceback" not in result.output, result.output
    return result


def length(path: Path, match: int = 1) -> int:
    return json.loads(run(path, "show", "--json", "--match", match).output)["length"]


def spawn(path: Path, *args: str, busy: str = "600") -> pexpect.spawn:
    """`pasur ARGS` (a session by default) on ``path`` in a 250-column pseudo-terminal (no line of these tests breaks); a wait on a
    busy file lasts ``busy`` seconds (the default: longer than any test may take)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(PASUR_DB=str(path), NO_COLOR="1", PASUR_BUSY_TIMEOUT=busy)
    for name in ("PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        env.pop(name, None)
    return pexpect.spawn(sys.executable, ["-m", "pasur_cli", *(args or ("session",))], env=env, encoding="utf-8",
                         timeout=20, dimensions=(40, 250))


def started(path: Path) -> Path:
    """A match of Ali and Sara (pagat) with its first table entered: Sara to play."""
    run(path, "new", "Ali", "Sara", "--rules", "pagat")
    run(path, "deal", "5C", "9D", "3H", "KS")
    return path


def hold(path: Path, how: str) -> sqlite3.Connection:
    """A connection holding the file busy: BEGIN IMMEDIATE (no writer) or EXCLUSIVE (no reader)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute(f"BEGIN {how}")
    return con


def ended(child: pexpect.spawn) -> str:
    """Everything the child printed until it ended, which it must do (exit 0)."""
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return child.before


# -- the match the session shows is the match it records into -----------------------------------
def test_a_session_whose_match_was_deleted_says_so_and_records_nothing(tmp_path):
    """The issue's example: after `delete --match` and `new`, a session open on the deleted match
    wrote its next play into the new match."""
    path = started(tmp_path / "p.db")
    child = spawn(path)
    child.expect_exact("› ")
    assert run(path, "delete", "--match", 1, "--yes").exit_code == 0
    assert run(path, "new", "Reza", "Mina").exit_code == 0  # match 2: the id 1 is never given again
    run(path, "deal", "5C", "9D", "3H", "KS", "--match", 2)
    child.sendline("2s")
    child.expect_exact("match 1 was deleted while this session was open; nothing more can be recorded into it.")
    ended(child)
    assert length(path, 2) == 1


def test_undo_and_another_play_in_another_shell_refuse_the_sessions_play(tmp_path):
    """The issue's example: an undo and a different play restore the log's length, and the
    session's play, typed against the old position, was recorded."""
    path = started(tmp_path / "p.db")
    run(path, "play", "2S")
    child = spawn(path)
    child.expect_exact("Ali to play")
    child.expect_exact("› ")
    run(path, "undo")
    run(path, "play", "4D")  # Sara trails instead: 2 actions again
    child.sendline("6h")
    child.expect_exact("someone took back and entered actions since this was shown; nothing was recorded.")
    child.expect_exact("› ")
    child.sendline("quit")
    ended(child)
    con = sqlite3.connect(path)
    assert [a for a, in con.execute("SELECT action FROM actions ORDER BY seq")][-1].count("4D") == 1
    assert length(path) == 2


# -- a busy file: never an old position shown as current ---------------------------------------
def test_show_while_the_file_is_busy_says_it_could_not_read_the_latest_state(tmp_path):
    path = started(tmp_path / "p.db")
    child = spawn(path, busy="0.3")
    child.expect_exact("› ")
    con = hold(path, "EXCLUSIVE")
    try:
        child.sendline("show")
        child.expect_exact("could not read the latest state of match 1")
        shown = child.before
        child.expect_exact("› ")
        assert "Table:" not in shown + child.before  # no position at all, old or new
        assert shown.count("waiting for it") == 1 and "Try again in a moment." in child.before
        assert child.before.rstrip().endswith("Try again in a moment.")  # the prompt at once, no status
        child.sendline("score")  # still busy: said again, and still no position
        child.expect_exact("could not read the latest state of match 1")
        child.expect_exact("› ")
        assert "Ali 0" not in child.before
    finally:
        con.execute("ROLLBACK")
        con.close()
    run(path, "play", "2S")  # meanwhile another shell recorded: the next show is the latest
    child.sendline("show")
    child.expect_exact("Table: 5♣ 3♥ K♠")
    child.expect_exact("› ")
    child.sendline("quit")
    ended(child)


@pytest.mark.parametrize("how", ["replaced", "deleted", "moved"])
def test_a_replaced_or_deleted_file_is_said_and_nothing_is_recorded(tmp_path, how):
    path = started(tmp_path / "p.db")
    other = started(tmp_path / "other.db")
    child = spawn(path)
    child.expect_exact("› ")
    before = other.read_bytes()
    if how == "replaced":
        os.replace(other, path)  # another database renamed over it: its own match 1
    elif how == "deleted":
        path.unlink()
    else:
        shutil.move(path, tmp_path / "elsewhere.db")
    child.sendline("2s")
    child.expect_exact("was replaced or deleted after pasur opened it; nothing was recorded.")
    out = ended(child)
    assert "readonly" not in out and "Traceback" not in out
    if how == "replaced":
        assert path.read_bytes() == before
    if how == "moved":
        assert length(tmp_path / "elsewhere.db") == 1


# -- Ctrl-C while the session waits on a busy file -----------------------------------------------
LINES = {"play": "2s", "undo": "undo", "deal": None, "tally": None}


@pytest.mark.parametrize("seed", some(range(4), 1))
def test_ctrl_c_while_waiting_on_a_busy_file_leaves_at_once_and_says_what_was_not_recorded(tmp_path, seed):
    """A write waiting on a file another program holds (for up to 600 s here): Ctrl-C ends the wait
    at once, the goodbye says the line was not recorded (never "Everything is saved"), and the
    file holds what it held. Generated: the entry (a play, an undo, a table, a tally after its
    questions) and what was recorded before, by seed."""
    rng = random.Random(seed)
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara", "--rules", "pagat")
    what = ["play", "undo", "deal", "tally"][seed % 4]
    if what in ("play", "undo"):
        run(path, "deal", "5C", "9D", "3H", "KS")
        if rng.random() < 0.5:
            run(path, "play", "2S")
    before = length(path)
    child = spawn(path)
    child.expect_exact("› ")
    con = hold(path, "IMMEDIATE")
    try:
        if what == "tally":
            child.sendline("tally")
            child.expect_exact("Ali: pile or counts: ")
            child.sendline("clubs=8 aces=2 jacks=1 two_clubs=yes")
            child.expect_exact("at the end of the deal [0]: ")
            child.sendline("")
            child.expect_exact("Sara: pile or counts: ")
            child.sendline("clubs=5 aces=2 jacks=3 ten_diamonds=yes")
            child.expect_exact("at the end of the deal [0]: ")
            child.sendline("")
        else:
            child.sendline(LINES[what] or "5c 9d 3h ks")
        child.expect_exact("is busy (another program is using it): waiting for it; Ctrl-C leaves.")
        child.sendintr()
        child.expect_exact("was not recorded; everything accepted before it is saved. Bye.")
        out = child.before
        ended(child)
        assert "Everything is saved" not in out
    finally:
        con.execute("ROLLBACK")
        con.close()
    assert length(path) == before


def test_ctrl_c_while_a_read_waits_on_a_busy_file_leaves_at_once(tmp_path):
    path = started(tmp_path / "p.db")
    child = spawn(path)
    child.expect_exact("› ")
    con = hold(path, "EXCLUSIVE")
    try:
        child.sendline("score")
        child.expect_exact("waiting for it; Ctrl-C leaves.")
        child.sendintr()
        child.expect_exact("Everything is saved. Bye.")  # nothing was being recorded
        ended(child)
    finally:
        con.execute("ROLLBACK")
        con.close()


# -- interactive tally: recorded only if the match has not moved ----------------------------------
def test_interactive_tally_is_refused_when_another_shell_tallied_the_deal_meanwhile(tmp_path):
    """The issue's example: a tally whose questions were answered while another shell tallied the
    same deal was recorded as the next deal, so the deal counted twice."""
    path = tmp_path / "p.db"
    run(path, "new", "Ali", "Sara")
    child = spawn(path, "tally")
    child.expect_exact("Ali: pile or counts: ")
    child.sendline("clubs=8 aces=2 jacks=1 two_clubs=yes")
    child.expect_exact("at the end of the deal [0]: ")
    child.sendline("")
    child.expect_exact("Sara: pile or counts: ")
    assert run(path, "tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
               "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes").exit_code == 0
    child.sendline("clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    child.expect_exact("at the end of the deal [0]: ")
    child.sendline("")
    child.expect_exact("someone recorded 1 more action since this was shown; nothing was recorded.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert length(path) == 1 and len(json.loads(run(path, "score", "--json").output)["deals"]) == 1


# -- CSV with standard output closed --------------------------------------------------------------
@pytest.mark.parametrize("command", [["score", "--csv"], ["stats", "--csv"]])
def test_csv_with_standard_output_closed_says_one_line(tmp_path, command):
    path = started(tmp_path / "p.db")
    done = subprocess.run([sys.executable, "-m", "pasur_cli", *command], env={**os.environ, "PASUR_DB": str(path)},
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: os.close(1))
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "the output could not be written" in lines[0], done.stderr
    assert done.returncode == 1


def test_delete_at_a_terminal_is_refused_when_the_match_moved_while_it_asked(tmp_path):
    """Every interactive command records only what was answered about the match as it still is:
    `delete` asks about a match of N actions; another shell plays meanwhile; yes deletes nothing."""
    path = started(tmp_path / "p.db")
    child = spawn(path, "delete", "--match", "1")
    child.expect_exact("for good? [y/N]: ")
    assert run(path, "play", "2S").exit_code == 0
    child.sendline("y")
    child.expect_exact("changed since it was shown")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and length(path) == 2


ONE_SHOT = [["play", "2S"], ["tally", "--count", "Ali: clubs=7"], ["undo"], ["delete", "--match", "1", "--yes"],
            ["new", "Reza", "Mina"], ["deal", "2C", "3C", "4C", "5C"]]


@pytest.mark.parametrize("command", some(ONE_SHOT, 2), ids=[c[0] for c in ONE_SHOT])  # one wait: every command under soak
def test_ctrl_c_while_a_command_waits_on_a_busy_file_leaves_at_once(tmp_path, command):
    """Every command waiting for a file another program holds (for up to 600 s here) says at a
    terminal that it waits, and Ctrl-C ends the wait at once, changing nothing."""
    path = started(tmp_path / "p.db")
    before = path.read_bytes()
    con = hold(path, "IMMEDIATE")
    try:
        child = spawn(path, *command)
        child.expect_exact("is busy (another program is using it): waiting for it; Ctrl-C leaves.")
        child.sendintr()
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 1 and "Aborted!" in child.before and "Traceback" not in child.before
    finally:
        con.execute("ROLLBACK")
        con.close()
    assert path.read_bytes() == before
