"""The `pasur` process ends with os._exit (cli.run): its output must still arrive whole, with the
command's exit code, and a closed pipe must not end in a traceback."""

import io
import os
import random
import shlex
import subprocess
import sys

import pytest
from simulate import enter, new_match, random_match


def process(*args: str) -> subprocess.CompletedProcess:
    """`python -m pasur_cli ARGS` as its own process (PASUR_DB comes from the db fixture)."""
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "pasur_cli", *args], capture_output=True, env=env, timeout=60)


@pytest.mark.parametrize("args,code", [
    (["rules"], 0),
    (["check", "5S", "--table", "AC 2D 4H 5C", "--rules", "pagat"], 0),
    (["check", "7D", "--table", "5C 4H", "--take", "5C"], 1),
])
def test_output_and_exit_code_equal_in_process(pasur, args, code):
    done = process(*args)
    assert done.returncode == code
    assert done.stdout.decode() == pasur(*args).output
    assert done.stderr == b""


@pytest.mark.parametrize("args", [["check", "4x"], ["rules", "nosuch"], ["show"], ["play", "2S"]])
def test_errors_reach_stderr_with_code_2_or_1(db, args):
    done = process(*args)
    assert done.returncode in (1, 2) and done.stdout == b""
    assert done.stderr.startswith(b"Error: ") and b"Traceback" not in done.stderr
    assert not db.exists()  # nothing was created by a refused command


def test_long_output_arrives_whole(pasur, tmp_path):
    """An export several times the size of the output buffer is byte for byte what the command wrote."""
    players = ["Ali", "Sara", "Reza"]
    engine = new_match(pasur, players)
    for action in random_match(random.Random(5), engine):
        enter(pasur, action)
        engine.apply(action)
    done = process("export")
    assert done.returncode == 0 and len(done.stdout) > 4 * io.DEFAULT_BUFFER_SIZE
    assert done.stdout.decode() == pasur("export").output
    assert process("export", "-o", str(tmp_path / "match.json")).returncode == 0  # a file is closed, not cut off
    assert (tmp_path / "match.json").read_bytes() == done.stdout


@pytest.mark.parametrize("command", ["rules", "export"])  # click.echo's output, and a file object's (export)
def test_closed_pipe_is_a_quiet_failure(pasur, command):
    pasur("new", "Ali", "Sara")
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "pasur_cli", command], stdout=write, stderr=subprocess.PIPE,
                              timeout=60)
    finally:
        os.close(write)
    assert done.returncode == 1 and done.stderr == b""


@pytest.mark.parametrize("args,closed,code", [
    (["rules"], [1], 0), (["rules"], [1, 2], 0), (["check", "4x"], [2], 2), (["check", "4x"], [1, 2], 2),
])
def test_closed_descriptors_keep_the_exit_code(db, args, closed, code):
    """Started with standard output or error closed (`pasur rules >&-`), Python has no stream there."""
    shut = "".join(f" {fd}>&-" for fd in closed)
    command = shlex.join([sys.executable, "-m", "pasur_cli", *args]) + shut
    done = subprocess.run(["bash", "-c", command], capture_output=True, timeout=60)
    assert done.returncode == code and b"Traceback" not in done.stdout + done.stderr


def test_a_profiler_gets_its_report():
    """Under a profiler the process leaves Python's normal way, so cProfile prints its report."""
    done = subprocess.run([sys.executable, "-m", "cProfile", "-m", "pasur_cli", "rules"], capture_output=True,
                          env=dict(os.environ, NO_COLOR="1"), timeout=60)
    assert done.returncode == 0, done.stderr
    output, _, report = done.stdout.decode().partition("function calls")
    assert output.startswith(process("rules").stdout.decode())  # the command's output, then the report
    assert "Ordered by" in report and "cli.py" in report


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


def test_under_a_tracer_a_closed_pipe_is_still_a_quiet_failure(pasur):
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-c", TRACED, "rules"], stdout=write, stderr=subprocess.PIPE,
                              timeout=60)
    finally:
        os.close(write)
    assert done.returncode == 1 and done.stderr == b"teardown ran\n"
