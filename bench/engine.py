"""Plays per second through the engine against a naive engine that tries every subset, same deals.

    python bench/engine.py [--deals 200] [--quick]

Random legal deals (2, 3 and 4 players, both presets) are generated first. Then each is replayed
twice: by the engine (legal_captures for every play, as the referee does, and Deal.play), and by a
naive engine that lists captures by trying every subset of the table and checking the rules
directly. Both must agree on every capture; the script prints plays per second and the ratio.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from naive import naive_captures  # the tests' brute force: RULES.md tried on every subset
from simulate import random_plays, random_table  # the tests' random legal deals

from pasur_cli import PRESETS, Match, legal_captures


def make_deals(count: int):
    rng = random.Random(5)
    deals = []
    for number in range(count):
        players = ["Ali", "Sara", "Reza", "Mina"][:2 + number % 3]
        rules = PRESETS[("standard", "pagat")[number % 2]]
        table, stock = random_table(rng, rules)
        deal = Match(players, rules).start_deal(table)
        plays = []
        for player, card, take in random_plays(rng, deal, stock):
            deal.play(card, take, by=player)
            plays.append((card, take))
        deals.append((players, rules, table, plays))
    return deals


def replay(deals, lister) -> tuple[float, int, list]:
    start, count, seen = time.perf_counter(), 0, []
    for players, rules, table, plays in deals:
        deal = Match(players, rules).start_deal(table)
        for card, take in plays:
            seen.append(frozenset(lister(card, deal.table, rules)))
            deal.play(card, take)
            count += 1
    return time.perf_counter() - start, count, seen


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="20 deals")
    options = parser.parse_args()
    deals = make_deals(20 if options.quick else options.deals)
    fast, plays, a = replay(deals, lambda c, t, r: legal_captures(c, t, r).options)  # tables stay below the cap
    slow, _, b = replay(deals, naive_captures)
    assert a == b, "the engine and the naive engine disagree"
    print(f"{len(deals)} random deals, {plays} plays")
    print(f"engine {plays / fast:10.0f} plays/s")
    print(f"naive  {plays / slow:10.0f} plays/s")
    print(f"engine is {slow / fast:.1f}x the naive engine")


if __name__ == "__main__":
    main()
