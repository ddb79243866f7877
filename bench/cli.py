"""Whole-process timing of pasur commands against `python -c "import click"`, in one run.

    python bench/cli.py [--rounds 21] [--quick]

Runs a warm-up, then rounds that alternate the commands: `pasur play` (with an undo between,
not timed), `pasur show`, `pasur check`, the same `play` and `show` in Persian (PASUR_LANG=fa:
the catalog is read, click's strings are lent to it, facts are isolated), and the baseline.
Prints each command's median wall time, median CPU time (user + system of that process, from
wait4: what a machine shared with other work still measures) and median peak memory (max RSS),
and the ratio of each to the baseline. The target is for wall time: 1.2x or less in English
(which loads no catalog), 1.3x in another language; it is judged on CPU time too. Peak memory is
reported, not a target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PASUR = str(Path(sys.executable).with_name("pasur"))


LANGUAGE_VARS = ("PASUR_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
TARGET = {"fa play": 1.3, "fa show": 1.3}  # the others 1.2


def run(argv: list[str], env: dict) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak RSS in KiB of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed with {proc.returncode}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def setup(env: dict) -> None:
    """A match in progress: deal 2 of a 2-player pagat match, a few plays in."""
    steps = [["new", "Ali", "Sara", "--rules", "pagat"],
             ["tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
              "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes"],
             ["deal", "5C", "9D", "3H", "KS"], ["play", "2S"], ["play", "6H"], ["play", "5S"]]
    for step in steps:
        subprocess.run([PASUR, *step], env=env, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--quick", action="store_true", help="2 rounds: the table, not a measurement")
    options = parser.parse_args()
    rounds = 2 if options.quick else options.rounds
    with tempfile.TemporaryDirectory() as tmp:
        # the default database place, as a user has it (no PASUR_DB), inside the temporary folder
        env = dict(os.environ, XDG_DATA_HOME=tmp, HOME=tmp, NO_COLOR="1")
        env.pop("PASUR_DB", None)
        for name in LANGUAGE_VARS:  # English, as the baseline speaks
            env.pop(name, None)
        setup(env)
        persian = dict(env, PASUR_LANG="fa")
        commands = {
            "baseline": ([sys.executable, "-c", "import click"], env),
            "play": ([PASUR, "play", "3C"], env),
            "show": ([PASUR, "show"], env),
            "check": ([PASUR, "check", "5C", "--table", "6D 6H AS 4C"], env),
            "fa play": ([PASUR, "play", "3C"], persian),
            "fa show": ([PASUR, "show"], persian),
        }
        undo = [PASUR, "undo"]
        times: dict[str, list[float]] = {k: [] for k in commands}
        cpus: dict[str, list[float]] = {k: [] for k in commands}
        peaks: dict[str, list[int]] = {k: [] for k in commands}
        warm = 1 if options.quick else 3
        for number in range(rounds + warm):
            for name, (argv, command_env) in commands.items():
                elapsed, cpu, peak = run(argv, command_env)
                if name.endswith("play"):
                    run(undo, env)
                if number >= warm:  # the first rounds warm the caches
                    times[name].append(elapsed)
                    cpus[name].append(cpu)
                    peaks[name].append(peak)
    base_t, base_c = statistics.median(times["baseline"]), statistics.median(cpus["baseline"])
    base_m = statistics.median(peaks["baseline"])
    print(f"{rounds} rounds, medians; baseline = python -c 'import click'")
    print(f"{'command':10} {'wall ms':>8} {'x base':>7} {'cpu ms':>8} {'x base':>7} {'peak MiB':>9} {'x base':>7}")
    ok = {"wall-time": True, "CPU-time": True}
    for name in commands:
        t, c, m = statistics.median(times[name]), statistics.median(cpus[name]), statistics.median(peaks[name])
        target = TARGET.get(name, 1.2)
        ok["wall-time"] &= name == "baseline" or t / base_t <= target
        ok["CPU-time"] &= name == "baseline" or c / base_c <= target
        print(f"{name:10} {t * 1000:8.1f} {t / base_t:7.2f} {c * 1000:8.1f} {c / base_c:7.2f} {m / 1024:9.1f}"
              f" {m / base_m:7.2f}")
    for kind, met in ok.items():
        print(f"{kind} targets (1.2x, fa 1.3x) {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
