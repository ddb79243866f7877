"""Time the capture engine against a naive itertools.combinations enumerator, same positions, same process.

    python bench/captures.py [--quick]

For random tables of 8, 16, 24 and 32 cards, and each preset, prints the time per position of
both and the ratio. The naive enumerator (tests/naive.py, the one the tests check the engine
against) tries every subset of the table's numerals, so it is
skipped (and said so) once its estimated time passes a few seconds.

Then the big tables (issue 11: no table of up to 48 cards may take `pasur check` over 2x
`python -c "import click"`): the search alone on the worst tables, and whole `pasur check`
processes against the baseline, medians of alternating runs. Each search on a big table runs in a
process of its own, so it starts with nothing cached. ``--quick``: tables of 8 and 16 cards, 3
positions, the first big table, each timing taken once.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from naive import naive_captures  # the tests' brute force: RULES.md tried on every subset

from pasur_cli import DECK, PRESETS, legal_captures

POSITIONS = 30
NAIVE_LIMIT_SECONDS = 3.0


def positions(rng, size, count=POSITIONS):
    numerals = [c for c in DECK if c.is_numeral]
    out = []
    for _ in range(count):
        cards = rng.sample(numerals, size + 1)
        out.append((cards[0], cards[1:]))
    return out


def clock(fn, items):
    start = time.perf_counter()
    for card, table in items:
        fn(card, table)
    return (time.perf_counter() - start) / len(items)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small tables, few positions, each timing once")
    quick = parser.parse_args().quick
    rng = random.Random(2026)
    print(f"{'preset':9} {'table':>5} {'engine/pos':>12} {'naive/pos':>12} {'naive/engine':>13}")
    for name, rules in PRESETS.items():
        for size in (8, 16) if quick else (8, 16, 24, 32):
            items = positions(rng, size, 3 if quick else POSITIONS)
            engine = clock(lambda c, t, rules=rules: legal_captures(c, t, rules), items)
            # one subset sum costs about 0.2 microseconds; multi-set naive is quadratic in subsets
            estimate = (2 ** size) * 2e-7 * (2 ** size if rules.multi_capture else 1)
            if estimate > NAIVE_LIMIT_SECONDS:
                print(f"{name:9} {size:5} {engine * 1e6:10.0f}us {'skipped':>12} "
                      f"{f'(naive ~{estimate:.0e}s)':>13}")
                continue
            slow = clock(lambda c, t, rules=rules: naive_captures(c, t, rules), items[:3])
            print(f"{name:9} {size:5} {engine * 1e6:10.0f}us {slow * 1e6:10.0f}us {slow / engine:12.0f}x")
    big_tables(1, 1) if quick else big_tables()


COLD = """
import sys, time
from pasur_cli import DECK, PRESETS, legal_captures
card, table = DECK[int(sys.argv[1])], [DECK[int(i)] for i in sys.argv[2:]]
start = time.perf_counter()
found = legal_captures(card, table, PRESETS["standard"])
print(time.perf_counter() - start, found.count)
"""


def cold_search(card, table) -> tuple[float, object]:
    """The seconds of one search in a process of its own (nothing cached yet), and its count."""
    index = {c: i for i, c in enumerate(DECK)}
    done = subprocess.run([sys.executable, "-c", COLD, str(index[card]), *(str(index[c]) for c in table)],
                          check=True, capture_output=True, text=True)
    seconds, count = done.stdout.split()
    return float(seconds), count


def big_tables(runs: int = 15, cases_run: int = 3) -> None:
    """The search on the biggest tables, then whole processes of `pasur check` on them."""
    by_code = {c.code: c for c in DECK}
    cases = [("2S", [c for c in DECK if c.rank <= 8 and c.code != "2S"], "the 31 other A-8 cards"),
             ("AS", [c for c in DECK if c.is_numeral and c.code != "AS"], "the 39 other numerals"),
             ("AS", [c for c in DECK if c.code not in ("AS", "2S", "3S", "4S")], "48 cards: all but the A-4 of spades")]
    cases = cases[:cases_run]
    tries = min(runs, 5)
    print(f"\nbig tables (standard preset): the search alone, best of {tries}, each in a new process")
    for code, table, what in cases:
        searches = [cold_search(by_code[code], table) for _ in range(tries)]
        best, count = min(searches, key=lambda s: s[0])
        print(f"  {code} on {what}: {best * 1e3:.1f} ms, {'many' if count == 'None' else count} captures")
    pasur = str(Path(sys.executable).with_name("pasur"))
    env = dict(os.environ, NO_COLOR="1")
    commands = {"baseline": [sys.executable, "-c", "import click"]}
    for code, table, what in cases:
        commands[f"check {code} ({what})"] = [pasur, "check", code, "--table", " ".join(c.code for c in table)]
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times["baseline"])
    print(f"whole processes, medians of {runs} alternating runs (target: 2x the baseline or less)")
    for name, values in times.items():
        print(f"  {name:52} {statistics.median(values) * 1e3:7.1f} ms {statistics.median(values) / base:5.2f}x")


if __name__ == "__main__":
    main()
