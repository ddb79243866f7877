"""Time the capture engine against a naive itertools.combinations enumerator, same positions, same process.

    python bench/captures.py

For random tables of 8, 16, 24 and 32 cards, and each preset, prints the time per position of
both and the ratio. The naive enumerator (tests/naive.py, the one the tests check the engine
against) tries every subset of the table's numerals, so it is
skipped (and said so) once its estimated time passes a few seconds.

Then the big tables (issue 11: no table of up to 48 cards may take `pasur check` over 2x
`python -c "import click"`): the search alone on the worst tables, and whole `pasur check`
processes against the baseline, medians of alternating runs.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from naive import naive_captures  # the tests' brute force: RULES.md tried on every subset

from pasur_cli.engine.captures import _splits, legal_captures
from pasur_cli.engine.cards import DECK
from pasur_cli.engine.rules import PRESETS

POSITIONS = 30
NAIVE_LIMIT_SECONDS = 3.0


def positions(rng, size):
    numerals = [c for c in DECK if c.is_numeral]
    out = []
    for _ in range(POSITIONS):
        cards = rng.sample(numerals, size + 1)
        out.append((cards[0], cards[1:]))
    return out


def clock(fn, items):
    start = time.perf_counter()
    for card, table in items:
        fn(card, table)
    return (time.perf_counter() - start) / len(items)


def main() -> None:
    rng = random.Random(2026)
    print(f"{'preset':9} {'table':>5} {'engine/pos':>12} {'naive/pos':>12} {'naive/engine':>13}")
    for name, rules in PRESETS.items():
        for size in (8, 16, 24, 32):
            items = positions(rng, size)
            engine = clock(lambda c, t, rules=rules: legal_captures(c, t, rules), items)
            # one subset sum costs about 0.2 microseconds; multi-set naive is quadratic in subsets
            estimate = (2 ** size) * 2e-7 * (2 ** size if rules.multi_capture else 1)
            if estimate > NAIVE_LIMIT_SECONDS:
                print(f"{name:9} {size:5} {engine * 1e6:10.0f}us {'skipped':>12} "
                      f"{f'(naive ~{estimate:.0e}s)':>13}")
                continue
            slow = clock(lambda c, t, rules=rules: naive_captures(c, t, rules), items[:3])
            print(f"{name:9} {size:5} {engine * 1e6:10.0f}us {slow * 1e6:10.0f}us {slow / engine:12.0f}x")
    big_tables()


def big_tables(runs: int = 15) -> None:
    """The search on the biggest tables, then whole processes of `pasur check` on them."""
    by_code = {c.code: c for c in DECK}
    cases = [("2S", [c for c in DECK if c.rank <= 8 and c.code != "2S"], "the 31 other A-8 cards"),
             ("AS", [c for c in DECK if c.is_numeral and c.code != "AS"], "the 39 other numerals"),
             ("AS", [c for c in DECK if c.code not in ("AS", "2S", "3S", "4S")], "48 cards: all but the A-4 of spades")]
    print("\nbig tables (standard preset): the search alone, best of 5 with an empty cache")
    for code, table, what in cases:
        best = float("inf")
        for _ in range(5):
            _splits.cache_clear()
            start = time.perf_counter()
            found = legal_captures(by_code[code], table, PRESETS["standard"])
            best = min(best, time.perf_counter() - start)
        count = found.count if found.count is not None else "many"
        print(f"  {code} on {what}: {best * 1e3:.1f} ms, {count} captures")
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
