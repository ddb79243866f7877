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
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from simulate import random_plays, random_table  # noqa: E402  (the tests' random legal deals)

from pasur_cli.captures import capture_sum, legal_captures  # noqa: E402
from pasur_cli.deal import Deal  # noqa: E402
from pasur_cli.match import side_names  # noqa: E402
from pasur_cli.rules import PRESETS  # noqa: E402


def naive_captures(card, table, rules) -> set:
    """Every legal capture, by trying every subset of the table against RULES.md section 4."""
    subsets = [s for k in range(1, len(table) + 1) for s in combinations(sorted(table), k)]
    if card.rank in (12, 13):
        same = [s for s in subsets if all(c.rank == card.rank for c in s)]
        if rules.court_capture == "all":
            return {max(same, key=len)} if same else set()
        return {s for s in same if len(s) == 1}
    if card.rank == 11 and rules.jack_capture == "wild":
        wild = tuple(sorted(c for c in table if c.rank <= 11))
        return {wild} if wild else set()
    t = capture_sum(card, rules)
    sums = [s for s in subsets if all(c.is_numeral for c in s) and sum(c.value for c in s) == t]
    if not rules.multi_capture:
        return set(sums)
    found = set()
    for take in subsets:
        if not all(c.is_numeral for c in take) or sum(c.value for c in take) % t:
            continue
        rest = [c for c in table if c.is_numeral and c not in take]
        if any(sum(c.value for c in s) == t for k in range(1, len(rest) + 1) for s in combinations(rest, k)):
            continue
        if splits(list(take), t):
            found.add(take)
    return found


def splits(cards, t) -> bool:
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    return any(first.value + sum(c.value for c in combo) == t and splits([c for c in rest if c not in combo], t)
               for k in range(len(rest) + 1) for combo in combinations(rest, k))


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
