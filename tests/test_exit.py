"""The `pasur` process ends with os._exit (cli.run): its output must still arrive whole, with the
command's exit code, and a closed pipe must not end in a traceback."""

import io
import os
import random
import shlex
import subprocess
import sys

import pytest
from matchbook import random_actions, stored

from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules


def process(*args: str) -> subprocess.CompletedProcess:
    """`python -m pasur_cli ARGS` as its own process (PASUR_DB comes from the db fixture)."""
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "pasur_cli", *args], capture_output=True, env=env, timeout=60)


@pytest.mark.parametrize("args,code", [
    (["rules"], 0),
    pytest.param(["check", "5S", "--table", "AC 2D 4H 5C", "--rules", "pagat"], 0, marks=pytest.mark.soak),
    (["check", "7D", "--table", "5C 4H", "--take", "5C"], 1),
])
def test_output_and_exit_code_equal_in_process(pasur, args, code):
    done = process(*args)
    assert done.returncode == code
    assert done.stdout.decode() == pasur(*args).output
    assert done.stderr == b""


@pytest.mark.parametrize("args", [["check", "4x"], ["show"], *(pytest.param(args, marks=pytest.mark.soak)
                                                                for args in (["rules", "nosuch"], ["play", "2S"]))])
def test_errors_reach_stderr_with_code_2_or_1(db, args):
    done = process(*args)
    assert done.returncode in (1, 2) and done.stdout == b""
    assert done.stderr.startswith(b"Error: ") and b"Traceback" not in done.stderr
    assert not db.exists()  # nothing was created by a refused command


def test_long_output_arrives_whole(pasur, db, tmp_path):
    """An export several times the size of the output buffer is byte for byte what the command wrote
    (the match is stored as `pasur import` stores one; the processes are the export's)."""
    players, rules = ["Ali", "Sara", "Reza"], parse_rules("standard", ["fixed_deals=12"])  # one action a line, still long
    actions = random_actions(random.Random(5), Match(players, rules, 0), tallies=0)
    stored(db, [(players, rules, 0, actions, Match.replay(players, rules, 0, actions))])
    done = process("export")
    assert done.returncode == 0 and len(done.stdout) > 4 * io.DEFAULT_BUFFER_SIZE
    assert done.stdout.decode() == pasur("export").output
    assert process("export", "-o", str(tmp_path / "match.json")).returncode == 0  # a file is closed, not cut off
    assert (tmp_path / "match.json").read_bytes() == done.stdout


def closed_pipe(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "pasur_cli", *args], stdout=write, stderr=subprocess.PIPE,
                              timeout=60, env=env)
    finally:
        os.close(write)


def one_line(stderr: bytes, recorded: bool) -> None:
    lines = stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pasur: the output could not be written"), stderr
    assert lines[0].endswith("the change was recorded.") == recorded


@pytest.mark.parametrize("command", ["rules", "export", *(pytest.param(c, marks=pytest.mark.soak)
                                                            for c in ("score", "matches"))])
def test_closed_pipe_is_one_line_and_exit_1(pasur, db, command):
    pasur("new", "Ali", "Sara")
    before = db.read_bytes()
    done = closed_pipe(command)
    assert done.returncode == 1
    one_line(done.stderr, recorded=False)
    assert db.read_bytes() == before


@pytest.mark.parametrize("args,where", [(["deal", "5C", "9D", "3H", "KS"], "pipe"), (["new", "Reza", "Mina"], "full"),
                                        pytest.param(["deal", "5C", "9D", "3H", "KS"], "full", marks=pytest.mark.soak),
                                        pytest.param(["new", "Reza", "Mina"], "pipe", marks=pytest.mark.soak)])
def test_a_change_whose_output_fails_still_exits_0(pasur, db, args, where):
    """Output after the commit can never turn a change into an error (the table would enter it again)."""
    pasur("new", "Ali", "Sara")
    shown = pasur("show", "--json").output
    if where == "pipe":
        done = closed_pipe(*args)
    else:
        with open("/dev/full", "wb") as full:
            done = subprocess.run([sys.executable, "-m", "pasur_cli", *args], stdout=full, stderr=subprocess.PIPE,
                                  timeout=60)
    assert done.returncode == 0, done.stderr
    one_line(done.stderr, recorded=True)
    assert pasur("show", "--json").output != shown or args[0] == "new"
    assert "Reza" in pasur("matches").output or args[0] != "new"


def test_full_disk_on_a_read_is_one_line_and_exit_1(pasur, db):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    pasur("new", "Ali", "Sara")
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "pasur_cli", "score"], stdout=full, stderr=subprocess.PIPE,
                              timeout=60)
    assert done.returncode == 1
    one_line(done.stderr, recorded=False)


ENCODINGS = ["latin-1", "ascii", "cp1252", "iso8859-7"]


@pytest.mark.parametrize("seed", [0, *(pytest.param(n, marks=pytest.mark.soak) for n in range(1, 8))])
def test_a_terminal_that_cannot_encode_a_name_gets_replacements(pasur, db, seed):
    """PYTHONIOENCODING=latin-1 and a player named علی: the play is recorded and exits 0."""
    import random as _random
    rng = _random.Random(seed)
    alphabets = ["علیسارا", "ЖзЯшщ", "漢字名前", "ÄÖÜßé", "Ωμέγα", "😀🎲"]
    names = ["".join(rng.choice(rng.choice(alphabets)) for _ in range(rng.randint(1, 6))) for _ in range(2)]
    if names[0].casefold() == names[1].casefold():
        names[1] += "x"
    pasur("new", *names)
    pasur("deal", "5C", "9D", "3H", "KS")
    env = dict(os.environ, PYTHONIOENCODING=rng.choice(ENCODINGS), NO_COLOR="1")
    for args in (["play", "2S"], ["score"], ["undo"], ["play", "2S"], ["export"]):
        done = subprocess.run([sys.executable, "-m", "pasur_cli", *args], capture_output=True, env=env, timeout=60)
        assert done.returncode == 0, (args, done.stderr)
        assert b"Traceback" not in done.stderr
    assert pasur("show", "--json").output.count('"length": 2') == 1  # the deal and one play (undone once)


@pytest.mark.parametrize("args,closed,code", [
    (["rules"], [1], 0), (["check", "4x"], [1], 2), (["rules"], [2], 0),
    *(pytest.param(*case, marks=pytest.mark.soak) for case in ((["rules"], [1, 2], 0), (["check", "4x"], [1, 2], 2),
                                                              (["check", "4x"], [2], 2))),
])
def test_closed_descriptors_keep_the_exit_code(pasur, db, args, closed, code):
    """Started with standard output or error closed (`pasur rules >&-`), Python has no stream there:
    what would go there is lost, the other stream says what it always says, the exit code is kept."""
    shut = "".join(f" {fd}>&-" for fd in closed)
    command = shlex.join([sys.executable, "-m", "pasur_cli", *args]) + shut
    done = subprocess.run(["bash", "-c", command], capture_output=True, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    said = pasur(*args)
    assert done.returncode == code == said.exit_code
    if code and closed == [2]:  # no stderr: the refusal is lost, or written where Python found a stream
        assert done.stdout in (b"", said.output.encode())
    else:
        assert done.stdout == (b"" if 1 in closed or code else said.output.encode())  # a refusal goes to stderr
    assert done.stderr == (b"" if 2 in closed or not code else said.output.encode())


def test_score_with_standard_output_closed_is_no_traceback(pasur):
    """`pasur score >&-`: the score asks whether its output is a terminal (to page a long one);
    with no standard output at all it says nothing and keeps the exit code, as `rules` does."""
    pasur("new", "Ali", "Sara")
    command = shlex.join([sys.executable, "-m", "pasur_cli", "score"]) + " >&-"
    done = subprocess.run(["bash", "-c", command], capture_output=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b""), done.stderr  # says nothing, anywhere

def test_a_profiler_gets_its_report(pasur):
    """Under a profiler the process leaves Python's normal way, so cProfile prints its report."""
    done = subprocess.run([sys.executable, "-m", "cProfile", "-m", "pasur_cli", "rules"], capture_output=True,
                          env=dict(os.environ, NO_COLOR="1"), timeout=60)
    assert done.returncode == 0, done.stderr
    output, _, report = done.stdout.decode().partition("function calls")
    assert output.startswith(pasur("rules").output)  # the command's output, then the report
    assert "Ordered by" in report and "app.py" in report


TRACED = """
import atexit, sys
atexit.register(sys.stderr.write, "teardown ran\\n")
sys.settrace(lambda *args: None)
sys.argv = ["pasur", *sys.argv[1:]]
from pasur_cli.cli import run
run()
"""


@pytest.mark.parametrize("args,code", [(["rules"], 0), (["check", "4x"], 2)])
def test_under_a_tracer_teardown_runs_and_the_code_is_kept(db, args, code):
    """A tracer (a debugger, coverage) is told the run ended: atexit handlers run."""
    done = subprocess.run([sys.executable, "-c", TRACED, *args], capture_output=True, timeout=60)
    assert done.returncode == code
    assert done.stderr.endswith(b"teardown ran\n") and b"Traceback" not in done.stderr


COLLECTOR = """
import atexit, gc, sys
atexit.register(lambda: sys.stderr.write("collector " + ("on" if gc.isenabled() else "off") + "\\n"))
sys.settrace(lambda *args: None)
sys.argv = ["pasur", *sys.argv[1:]]
from pasur_cli.cli import run
run()
"""


@pytest.mark.parametrize("args,said", [(["rules"], b"collector off\n"), (["session"], b"collector on\n")])
def test_a_command_runs_without_the_cycle_collector_and_the_session_with_it(pasur, args, said):
    """The process starts with Python's cycle collector off (a command that ends frees everything
    when it ends); the session, which runs for hours, turns it back on."""
    pasur("new", "Ali", "Sara")
    done = subprocess.run([sys.executable, "-c", COLLECTOR, *args], input=b"quit\n", capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith(said), done.stderr


def test_under_a_tracer_a_closed_pipe_is_still_a_quiet_failure(pasur):
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-c", TRACED, "rules"], stdout=write, stderr=subprocess.PIPE,
                              timeout=60)
    finally:
        os.close(write)
    assert done.returncode == 1
    assert done.stderr == b"pasur: the output could not be written (Broken pipe).\nteardown ran\n"
