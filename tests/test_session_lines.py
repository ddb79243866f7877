"""What a typist does at the session's prompt, at a real 80x24 terminal (pexpect, waiting on the
screen, never on time): editing a line and walking back through the earlier ones, naming who
played, typing a line as a shell command, the next match, and screens that fit 24 rows."""

from __future__ import annotations

import json
import os
import sys

import pexpect
import pytest

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
