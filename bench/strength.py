"""How well ``advise`` plays, on paired deals, and how fast it decides.

    nice -n 10 python bench/strength.py [--pairs 1000] [--effort N] [--opponents greedy,random,noisy]
                                        [--presets standard,pagat] [--curve 200] [--teams 200]
    python bench/strength.py --speed

Strength: each pair is one shuffled deck played twice by two players, seats swapped (the second
deal gives each seat the cards the other had), so the luck of the cards cancels out. The engine
(``advise`` at the given effort, always taking its best option) plays against

- greedy: the most valuable capture now (points, a club counting half a point, a sur 5); when
  nothing captures, it trails its least valuable card;
- random: a uniformly random card, and a random one of its legal captures;
- noisy: greedy, but one play in five is random.

Printed per preset and opponent: the mean margin per deal (engine's deal score less the
opponent's) with its 95% confidence interval over the pairs. ``--curve N``: the margin against
greedy (standard) at several efforts, N pairs each, with the CPU time per decision. ``--teams N``:
4 players in teams, the engine in seats 1 and 3 against greedy, N pairs (seats rotated by one).
``--speed``: the median CPU time of one ``advise`` at the default effort, and the wall time of
``pasur review`` of a 2-player deal and of ``pasur hint`` (start-up included).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from simulate import random_table  # the tests' legal initial tables

from pasur_cli.engine.advice import EFFORT, advise, quick
from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.cards import Card
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import PRESETS, Rules

POINTS = {"2C": 2, "10D": 3}


def worth(card: Card) -> float:
    """What greedy thinks a card is worth: its points, and half a point for a club."""
    return (POINTS.get(card.code, 0) + (card.rank in (1, 11)) + 0.5 * (card.suit == "C"))


def greedy(match: Match, hand: list[Card], rng: random.Random, noise: float = 0.0) -> tuple[Card, tuple[Card, ...]]:
    deal = match.deal
    assert deal is not None
    options = [(c, t) for c in hand for t in (legal_captures(c, deal.table, deal.rules).options or [()])]
    if noise and rng.random() < noise:
        return rng.choice(options)
    captures = [(c, t) for c, t in options if t]
    if captures:
        def value(option: tuple[Card, tuple[Card, ...]]) -> float:
            card, take = option
            sur = 5 if len(take) == len(deal.table) else 0
            return worth(card) + sum(worth(c) for c in take) + sur
        return max(captures, key=value)
    return min(options, key=lambda o: (worth(o[0]), o[0]))


def uniform(match: Match, hand: list[Card], rng: random.Random) -> tuple[Card, tuple[Card, ...]]:
    deal = match.deal
    assert deal is not None
    card = rng.choice(hand)
    takes = legal_captures(card, deal.table, deal.rules).options
    return card, (rng.choice(takes) if takes else ())


def engine(effort: int):  # type: ignore[no-untyped-def]
    if effort <= 0:
        return lambda match, hand, rng: quick(match, hand)

    def choose(match: Match, hand: list[Card], rng: random.Random) -> tuple[Card, tuple[Card, ...]]:
        deal = match.deal
        assert deal is not None
        if len(hand) == 1 and len(legal_captures(hand[0], deal.table, deal.rules).options) <= 1:
            return hand[0], legal_captures(hand[0], deal.table, deal.rules).forced or ()  # nothing to decide
        best = advise(match, hand, seed=rng.randrange(1 << 30), effort=effort)[0]
        return best.card, best.take
    return choose


OPPONENTS = {
    "greedy": lambda m, h, r: greedy(m, h, r),
    "random": uniform,
    "noisy": lambda m, h, r: greedy(m, h, r, 0.2),
}


def play_deal(rules: Rules, names: list[str], choosers: dict[str, object], table: list[Card],
              deck: list[Card], rng: random.Random, timer: list[float]) -> dict[str, int]:
    """One deal from this table and stock (dealt from the end, 4 cards a seat, seats in order);
    each side's deal score."""
    match = Match(names, rules, dealer=0)
    match.start_deal(table)
    stock = list(deck)
    hands: dict[str, list[Card]] = {}
    per_hand = 4 * len(names)
    deal = match.deal
    while match.deal is not None:
        assert deal is not None
        if deal.played % per_hand == 0:
            for name in names:
                hands[name] = [stock.pop() for _ in range(4)]
        player = deal.turn
        assert player is not None
        choose = choosers[player]
        start = time.process_time()
        card, take = choose(match, hands[player], rng)  # type: ignore[operator]
        if choose not in OPPONENTS.values():
            timer.append(time.process_time() - start)
        hands[player].remove(card)
        match.play(card, take)
    return {side: score.total for side, score in match.results[-1].scores.items()}


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, half


def pairs_margin(rules: Rules, me: object, them: object, pairs: int, seed: int,
                 timer: list[float]) -> list[float]:
    """The engine's mean margin per deal of each pair (2 players)."""
    rng = random.Random(seed)
    margins = []
    for _ in range(pairs):
        table, stock = random_table(rng, rules)
        one = play_deal(rules, ["E", "O"], {"E": me, "O": them}, table, stock, rng, timer)
        two = play_deal(rules, ["O", "E"], {"E": me, "O": them}, table, stock, rng, timer)
        margins.append(((one["E"] - one["O"]) + (two["E"] - two["O"])) / 2)
        if len(margins) % 100 == 0:
            mean, half = interval(margins)
            print(f"  ... {len(margins)} pairs: {mean:+.2f} ± {half:.2f}", file=sys.stderr, flush=True)
    return margins


def teams_margin(rules: Rules, me: object, them: object, pairs: int, seed: int, timer: list[float]) -> list[float]:
    """4 players in teams: the engine's partnership less the other, the deck played with the
    partnerships in both seatings."""
    rng = random.Random(seed)
    margins = []
    for _ in range(pairs):
        table, stock = random_table(rng, rules)
        one = play_deal(rules, ["E1", "O1", "E2", "O2"], {"E1": me, "E2": me, "O1": them, "O2": them},
                        table, stock, rng, timer)
        two = play_deal(rules, ["O1", "E1", "O2", "E2"], {"E1": me, "E2": me, "O1": them, "O2": them},
                        table, stock, rng, timer)
        margins.append(((one["E1 & E2"] - one["O1 & O2"]) + (two["E1 & E2"] - two["O1 & O2"])) / 2)
    return margins


def speed() -> None:
    rng = random.Random(3)
    timer: list[float] = []
    for preset in ("standard", "pagat"):
        pairs_margin(PRESETS[preset], engine(EFFORT), OPPONENTS["greedy"], 10, rng.randrange(1 << 30), timer)
    timer.sort()
    print(f"advise at the default effort ({EFFORT} guessed deals): median {1000 * statistics.median(timer):.1f} ms"
          f" CPU per decision, 90th percentile {1000 * timer[len(timer) * 9 // 10]:.1f} ms, {len(timer)} decisions")
    example = Path(__file__).resolve().parent.parent / "examples" / "season-1.json"
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PASUR_DB": os.path.join(folder, "s.db")}
        subprocess.run(["pasur", "import", str(example)], env=env, check=True, capture_output=True)
        for args in (["review", "--deal", "1"], ["review", "--deal", "1", "--json"]):
            start = time.perf_counter()
            subprocess.run(["pasur", *args], env=env, check=True, capture_output=True)
            print(f"pasur {' '.join(args)}: {time.perf_counter() - start:.2f} s wall")
    hint_match()


def hint_match() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PASUR_DB": os.path.join(folder, "s.db")}
        for args in (["new", "Ali", "Sara"], ["deal", "5C", "9D", "3H", "KS"]):
            subprocess.run(["pasur", *args], env=env, check=True, capture_output=True)
        start = time.perf_counter()
        subprocess.run(["pasur", "hint", "2S", "7C", "QH", "AD"], env=env, check=True, capture_output=True)
        print(f"pasur hint 2S 7C QH AD (first play of a deal): {time.perf_counter() - start:.2f} s wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--effort", type=int, default=EFFORT)
    parser.add_argument("--opponents", default="greedy,random,noisy")
    parser.add_argument("--others", type=int, default=None,
                        help="pairs against the opponents other than greedy (default: --pairs)")
    parser.add_argument("--presets", default="standard,pagat")
    parser.add_argument("--curve", type=int, default=0, help="pairs per effort for the margin against time")
    parser.add_argument("--efforts", default="0,2,4,8,16,32")
    parser.add_argument("--teams", type=int, default=0, help="pairs of 4-player team deals")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.speed:
        speed()
        return
    me = engine(args.effort)
    print(f"advise at effort {args.effort} against each opponent, {args.pairs} paired deals, 2 players")
    print(f"{'preset':9} {'opponent':8} {'pairs':>6} {'margin/deal':>12} {'95% CI':>17} {'ms/decision':>12}")
    for name in args.opponents.split(","):
        for preset in args.presets.split(","):
            pairs = args.pairs if name == "greedy" or args.others is None else args.others
            if not pairs:
                continue
            timer: list[float] = []
            margins = pairs_margin(PRESETS[preset], me, OPPONENTS[name], pairs, args.seed, timer)
            mean, half = interval(margins)
            ci = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
            print(f"{preset:9} {name:8} {len(margins):>6} {mean:>+12.2f} {ci:>17}"
                  f" {1000 * statistics.median(timer):>12.1f}", flush=True)
    if args.curve:
        print(f"\nmargin against greedy (standard) by effort, {args.curve} pairs each")
        for effort in (int(e) for e in args.efforts.split(",")):
            timer = []
            margins = pairs_margin(PRESETS["standard"], engine(effort), OPPONENTS["greedy"], args.curve, args.seed,
                                   timer)
            mean, half = interval(margins)
            print(f"effort {effort:>3}: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"
                  f"  median {1000 * statistics.median(timer):.1f} ms CPU per decision", flush=True)
    if args.teams:
        print(f"\n4 players in teams, advise (effort {args.effort}) partners against greedy partners,"
              f" {args.teams} pairs")
        for preset in args.presets.split(","):
            for name in ("greedy",):
                timer = []
                margins = teams_margin(PRESETS[preset], me, OPPONENTS[name], args.teams, args.seed, timer)
                mean, half = interval(margins)
                print(f"{preset:9} {name:8} {len(margins):>6} {mean:>+12.2f}"
                      f" {f'[{mean - half:+.2f}, {mean + half:+.2f}]':>17}", flush=True)


if __name__ == "__main__":
    main()
