"""Plays per second through the engine against a naive engine that tries every subset, same deals.

    python bench/engine.py [--deals 200]

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

from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.deal import Deal
from pasur_cli.engine.names import side_names
from pasur_cli.engine.rules import PRESETS


def make_deals(count: int):
    rng = random.Random(5)
    deals = []
    for number in range(count):
        players = ["Ali", "Sara", "Reza", "Mina"][:2 + number % 3]
        rules = PRESETS[("standard", "pagat")[number % 2]]
        table, stock = random_table(rng, rules)
        deal = Deal(players, side_names(players, rules.teams), 0, rules, table)
        plays = []
        for player, card, take in random_plays(rng, deal, stock):
            deal.play(card, take, by=player)
            plays.append((card, take))
        deals.append((players, rules, table, plays))
    return deals


def replay(deals, lister) -> tuple[float, int, list]:
    start, count, seen = time.perf_counter(), 0, []
    for players, rules, table, plays in deals:
        deal = Deal(players, side_names(players, rules.teams), 0, rules, table)
        for card, take in plays:
            seen.append(frozenset(lister(card, deal.table, rules)))
            deal.play(card, take)
            count += 1
    return time.perf_counter() - start, count, seen


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=200)
    deals = make_deals(parser.parse_args().deals)
    fast, plays, a = replay(deals, lambda c, t, r: legal_captures(c, t, r).options)  # tables stay below the cap
    slow, _, b = replay(deals, naive_captures)
    assert a == b, "the engine and the naive engine disagree"
    print(f"{len(deals)} random deals, {plays} plays")
    print(f"engine {plays / fast:10.0f} plays/s")
    print(f"naive  {plays / slow:10.0f} plays/s")
    print(f"engine is {slow / fast:.1f}x the naive engine")


if __name__ == "__main__":
    main()
