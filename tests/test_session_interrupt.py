"""Ctrl-C leaves the session at once, whenever it is pressed: never held until the next Enter.

A real pseudo-terminal runs a small harness that forks one session after another (so each trial
costs a fork, not a Python start-up); the test presses Ctrl-C at a different instant of each
session's start and prompt: as its first line appears, as the prompt is being drawn, just after
it, after a half-typed line. Each trial must end with the goodbye and exit 0. Nothing sleeps: each
Ctrl-C is sent the moment the screen shows the text the trial waits for, and a held Ctrl-C shows
as a trial that never ends (the test's pexpect timeout).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pexpect
import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal and fork")

HARNESS = textwrap.dedent("""
    import os, signal, sys
    from pasur_cli.cli.commands import session
    from pasur_cli.text.render import Look
    from pasur_cli.store.database import Store
    db, trials = sys.argv[1], int(sys.argv[2])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the harness itself outlives every Ctrl-C
    for i in range(trials):
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            store = Store(db, write=True)
            session.run(store, 1, Look(ascii=False, color=False))
            sys.stdout.flush()
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        print(f"[trial {i} exit {status}]", flush=True)
""")

# what each trial waits to see before it presses Ctrl-C (then, for some, types first)
MOMENTS = [
    ("Match 1:", ""),             # the session's first line, before any prompt
    ("Piles:", ""),               # in the middle of the opening lines
    ("Type \"help\"", ""),         # just before the prompt is drawn
    ("Sara (", ""),               # the prompt half drawn
    ("Ali 0", ""),                # the prompt nearly drawn
    ("› ", ""),                   # the prompt drawn, waiting
    ("› ", "7"),                  # a line half typed
    ("› ", "7c"),
]


def run_trials(tmp_path, trials: int) -> None:
    from click.testing import CliRunner

    from pasur_cli.cli.app import main
    db = tmp_path / "pasur.db"
    runner = CliRunner()
    for args in (["new", "Ali", "Sara", "--rules", "pagat"], ["deal", "5C", "9D", "3H", "KS"], ["play", "2S"]):
        assert runner.invoke(main, ["--db", str(db), *args]).exit_code == 0
    script = tmp_path / "harness.py"
    script.write_text(HARNESS)
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=os.pathsep.join(sys.path))
    child = pexpect.spawn(sys.executable, [str(script), str(db), str(trials)], env=env, encoding="utf-8", codec_errors="replace",  # the tty flushes output at ^C, mid-character at times
                          timeout=10, dimensions=(24, 80))
    child.delaybeforesend = None  # no pause before each key: the instants are the screen's
    try:
        for i in range(trials):
            seen, typed = MOMENTS[i % len(MOMENTS)]
            child.expect_exact(seen)
            if typed:
                child.send(typed)
            child.sendintr()
            child.expect_exact("Everything is saved. Bye.")
            child.expect_exact(f"[trial {i} exit 0]")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    runner_show = runner.invoke(main, ["--db", str(db), "show", "--json"])
    assert json.loads(runner_show.output)["turn"] == "Ali"  # nothing half-typed was recorded


@pytest.mark.parametrize("trials", [2 * len(MOMENTS), pytest.param(200, marks=pytest.mark.soak)])
def test_ctrl_c_leaves_at_once_at_every_moment(tmp_path, trials):
    """Every moment twice in the quick suite; 200 trials in the soak tier."""
    run_trials(tmp_path, trials)


# -- Ctrl-C while a typed play waits on a file another process holds ----------------------------
HOLDER = textwrap.dedent("""
    import sqlite3, sys
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    con.execute("BEGIN IMMEDIATE")  # the write lock: no other program may write until it ends
    print("held", flush=True)
    sys.stdin.read()  # until the test closes its end
    con.execute("ROLLBACK")
""")
SPIN = "while True: pass"
PROMPTLY = 1.0  # seconds from Ctrl-C to the goodbye and to the session's end


def interrupt_waiting_plays(tmp_path, trials: int, load: int) -> list[float]:
    """Each trial: a session at a terminal, another process holding the write lock, a play typed
    (it waits on the file), Ctrl-C once the session says it waits. Returns, per trial, the seconds
    from Ctrl-C until the session had said the play was not recorded and had ended (exit 0), with
    ``load`` processes keeping the processors busy all the while; the file holds what it held."""
    from click.testing import CliRunner

    from pasur_cli.cli.app import main
    db = tmp_path / "pasur.db"
    runner = CliRunner()
    for args in (["new", "Ali", "Sara", "--rules", "pagat"], ["deal", "5C", "9D", "3H", "KS"]):
        assert runner.invoke(main, ["--db", str(db), *args]).exit_code == 0
    before = db.read_bytes()
    holder_script = tmp_path / "holder.py"
    holder_script.write_text(HOLDER)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "PASUR_LANG", "LANGUAGE",
                                                              "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(PASUR_DB=str(db), NO_COLOR="1", PASUR_BUSY_TIMEOUT="600")  # a wait longer than the test
    hogs = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(load)]
    took = []
    try:
        for _ in range(trials):
            child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "session"], env=env, encoding="utf-8",
                                  timeout=60, dimensions=(40, 200))
            holder = subprocess.Popen([sys.executable, str(holder_script), str(db)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            try:
                assert holder.stdout is not None and holder.stdout.readline() == "held\n"
                child.expect_exact("› ")
                child.sendline("2s")
                child.expect_exact("is busy (another program is using it): waiting for it; Ctrl-C leaves.")
                pressed = time.monotonic()
                child.sendintr()
                child.expect_exact("2s was not recorded; everything accepted before it is saved. Bye.")
                said = time.monotonic()
                child.expect(pexpect.EOF)
                ended = time.monotonic()
                child.close()
                assert child.exitstatus == 0, child.before
                took.append(max(said, ended) - pressed)
            finally:
                child.close(force=True)
                holder.communicate("")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert db.read_bytes() == before  # nothing recorded, nothing half-written
    return took


def test_ctrl_c_while_a_play_waits_on_a_busy_file_acts_within_a_second(tmp_path):
    """The quick variant: the machine as it is."""
    took = interrupt_waiting_plays(tmp_path, trials=2, load=0)
    assert max(took) < PROMPTLY, took


@pytest.mark.soak
def test_ctrl_c_while_a_play_waits_on_a_busy_file_acts_within_a_second_on_a_busy_machine(tmp_path):
    """Three processes keep the processors busy (a load of 3 on 2 cores and more) throughout."""
    took = interrupt_waiting_plays(tmp_path, trials=10, load=3)
    assert max(took) < PROMPTLY, took
