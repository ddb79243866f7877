"""Time the capture engine against a naive itertools.combinations enumerator, same positions, same process.

    python bench/captures.py

For random tables of 8, 16, 24 and 32 cards, and each preset, prints the time per position of
both and the ratio. The naive enumerator (tests/naive.py, the one the tests check the engine
against) tries every subset of the table's numerals, so it is
skipped (and said so) once its estimated time passes a few seconds.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from naive import naive_captures  # the tests' brute force: RULES.md tried on every subset

from pasur_cli.captures import legal_captures
from pasur_cli.cards import DECK
from pasur_cli.rules import PRESETS

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


if __name__ == "__main__":
    main()
