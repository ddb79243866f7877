"""`pasur session` through click's runner and through a real terminal (pexpect)."""

import json
import os
import platform
import sys
import time

import pexpect
import pytest

READ = {"x86_64": "0", "aarch64": "63"}.get(platform.machine())  # the read system call's number


def reading(child: pexpect.spawn) -> pexpect.spawn:
    """``child`` once it is blocked reading its terminal. A Ctrl-C that lands between input()'s
    prompt and its read() is seen only at the next line (Python's input(), for a person too quick to
    notice); a test sending ^C as soon as it sees the prompt hits that gap on a busy machine."""
    path = f"/proc/{child.pid}/syscall"
    if READ is None or not os.path.exists(path):
        return child
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with open(path) as status:
            if status.read().split()[:2] == [READ, "0x0"]:  # read(0, ...): standard input
                break
        time.sleep(0.005)  # waits for a state of the child, not for an amount of time
    return child


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
    assert "Everything is saved" in result.output
    show = json.loads(pasur("show", "--json").output)
    assert show["table"] == ["5C", "3H", "KS", "AC"] and show["piles"] == {"Ali": 0, "Sara": 2}


def test_session_with_ascii_passes_it_to_every_command(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    result = pasur("session", "--ascii", input="5c 9d 3h ks\n2s\nundo\nscore\nshow\nmatches\n")
    assert result.exit_code == 0 and "Error" not in result.output
    assert "Sara plays 2S and takes 9D" in result.output and "Took back Sara's 2S, taking 9D." in result.output
    assert not any(symbol in result.output for symbol in "♣♦♥♠")


def test_session_offers_numbered_choices(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    result = pasur("session", input="ac 2d 4h 5c\n5s\n2\n")
    assert "1. --take" in result.output and "Sara plays 5♠ and takes 2♦ 4♥" in result.output
    assert json.loads(pasur("show", "--json").output)["table"] == ["AC", "5C"]


@pytest.mark.skipif(not sys.stdin or os.name != "posix", reason="needs a pseudo-terminal")
def test_session_at_a_real_terminal(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    env = dict(os.environ, PASUR_DB=str(db), NO_COLOR="1", COLUMNS="100")
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "session"], env=env, encoding="utf-8", timeout=20)
    try:
        child.expect(r"deal 1 table \(Ali deals\)> ")
        child.sendline("ac 2d 4h 5c")
        child.expect("Sara plays> ")
        child.sendline("5s")
        child.expect(r"Which capture\? 1-2")
        child.sendline("1")
        child.expect("Sara plays 5♠ and takes A♣ 5♣")
        child.expect("Ali plays> ")
        child.sendline("9c")
        child.expect("Ali plays 9♣ and takes 2♦")
        child.expect("Sara plays> ")
        reading(child).sendcontrol("c")  # Ctrl-C leaves, everything saved
        child.expect("Everything is saved")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    show = json.loads(pasur("show", "--json").output)
    assert show["table"] == ["4H"] and show["turn"] == "Sara"
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "session"], env=env, encoding="utf-8", timeout=20)
    try:
        child.expect("Sara plays> ")
        child.sendeof()  # Ctrl-D leaves too
        child.expect("Everything is saved")
    finally:
        child.close(force=True)


def test_tally_asks_side_by_side_at_a_terminal(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    env = dict(os.environ, PASUR_DB=str(db), NO_COLOR="1")
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "tally"], env=env, encoding="utf-8", timeout=20)
    try:
        child.expect("Ali: pile or counts: ")
        child.sendline("clubs=8 aces=2 jacks=1 two_clubs=yes")
        child.expect(r"Ali: surs held \[0\]: ")
        child.sendline("1")
        child.expect("Sara: pile or counts: ")
        child.sendline("clubs=5 aces=2 jacks=3 ten_diamonds=yes")
        child.expect(r"Sara: surs held \[0\]: ")
        child.sendline("")
        child.expect("Ali leads with 17")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert json.loads(pasur("score", "--json").output)["totals"] == {"Ali": 17, "Sara": 8}
