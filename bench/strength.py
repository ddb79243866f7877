"""How well ``advise`` plays, on paired deals, and how fast it decides.

    nice -n 10 python bench/strength.py [--pairs 1000] [--step 25] [--effort N] [--curve 200]
                                        [--efforts 0,1,2,4,8] [--teams] [--opponents greedy,random,noisy]
                                        [--teams-pairs 200] [--jobs 2]
    nice -n 10 python bench/strength.py --sees-all [--pairs 1000] [--sees-all-plays 4] [--jobs 2]
    python bench/strength.py --speed
    python bench/strength.py --stability DEALS
    python bench/strength.py --quick

Strength: each pair is one shuffled deck played twice by two players, seats swapped (the second
deal gives each seat the cards the other had), so the luck of the cards cancels out. The engine
(``advise`` at the given effort, always taking its best option) plays against

- greedy: the most valuable capture now (points, a club counting half a point, a sur 5: only
  where the clearing capture is a sur under the rules then); when nothing captures, it trails
  its least valuable card;
- random: uniform over the legal options (card and capture);
- noisy: greedy, but one play in five is random.

Printed per preset and opponent: the mean margin per deal (engine's deal score less the
opponent's) with its 95% confidence interval over the pairs, and the median CPU time of one of the
engine's decisions. ``--curve N``: the margin against greedy (standard) at several efforts (0: the
playout policy alone, no search), up to N pairs each. ``--teams``: 4 players in teams, the engine's
partnership against greedy partners, both seatings (``--teams-pairs N``: up to N pairs). ``--jobs
N``: N processes; each line's round runs whole in one of them, so no figure depends on N (the
ms/decision are CPU times). Every line advances ``--step`` pairs per round
and the whole table is printed after each round, so a run cut short still reports every line.

The deals are played by ``pasur.play_deal`` (the analysis engine's simulator, which the tests
replay through the referee's ``Deal``), and the engine decides with ``Turn.search``, ``advise``'s own
search on what its player has seen.

``--sees-all``: the upper reference instead of advise's lines (add ``--opponents`` for those too):
a player that sees every hand and the stock (``sees_all``: the true deal searched by minimax to
the end of the hand ``--sees-all-plays`` plays ahead, judged there; exact in the last hand) against
random and greedy (``--sees-all-opponents``), both presets, on the same seeded pairs scheme.
``--knows-random``: the same player that also knows its opponent plays uniformly at random
(expectimax: the other side's plays averaged, not taken at their worst; to the end of the hand
``--knows-random-plays`` plays ahead), against random.

``--speed``: the median CPU time of one ``advise`` at the default effort on real ``Match`` deals,
and the wall time of ``pasur review`` of a 2-player deal and of ``pasur hint`` (start-up included).
``--stability DEALS``: two seeds' reviews of DEALS deals of examples/ compared (labels, and the best
option where it leads by more than a point), with the CPU time of a review.
``--quick``: every table once with 2 pairs a line at small efforts (that the script runs; no figure).
"""

from __future__ import annotations

import argparse
import inspect
import math
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from simulate import random_table  # the tests' legal initial tables

import pasur_cli as pasur
from pasur_cli import DECK, PRESETS, Card, Rules, Turn, parse_card

Option = tuple[Card, tuple[Card, ...]]
Chooser = Callable[[Turn], Option]
EFFORT: int = inspect.signature(pasur.advise).parameters["effort"].default
ORDER = {card: k for k, card in enumerate(DECK)}
TWO_CLUBS, TEN_DIAMONDS = parse_card("2C"), parse_card("10D")


def worth(card: Card) -> float:
    """What greedy thinks a card is worth: its points, and half a point for a club."""
    return (card.rank in (1, 11)) + 2 * (card is TWO_CLUBS) + 3 * (card is TEN_DIAMONDS) + 0.5 * (card.suit == "C")


def greedy(t: Turn, noise: float = 0.0) -> Option:
    options = t.options
    if noise and t.rng.random() < noise:
        return t.rng.choice(options)
    captures = [(c, take) for c, take in options if take]
    if captures:
        size = len(t.table)
        return max(captures, key=lambda o: worth(o[0]) + sum(worth(c) for c in o[1])
                   + 5 * (len(o[1]) == size and t.sur(o[0])))
    return min(options, key=lambda o: (worth(o[0]), ORDER[o[0]]))


def uniform(t: Turn) -> Option:
    return t.rng.choice(t.options)


def engine(effort: int) -> Chooser:
    """advise's own search (``Turn.search``), always taking the best option; at effort 0 the playout
    policy alone."""
    return lambda t: t.search(effort)


def sees_all(plays: int, random_model: bool = False) -> Chooser:
    """The upper reference: a player that sees every hand and the stock (``Turn.sees_all``): every
    option played and the true deal searched by alpha-beta minimax to the end of the hand ``plays``
    plays ahead, judged there, exact from the last hand on. ``random_model``: it also knows that the
    other side plays uniformly at random, so the other side's plays are averaged (expectimax)."""
    return lambda t: t.sees_all(plays, random_model)


OPPONENTS: dict[str, Chooser] = {
    "greedy": greedy,
    "random": uniform,
    "noisy": lambda t: greedy(t, 0.2),
}


def timed(choose: Chooser, timer: list[float]) -> Chooser:
    """``choose``, adding the CPU time of each of its decisions to ``timer``."""
    def seat(t: Turn) -> Option:
        start = time.process_time()
        option = choose(t)
        timer.append(time.process_time() - start)
        return option
    return seat


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, half


def pairs_margin(rules: Rules, me: Chooser, them: Chooser, pairs: int, seed: int,
                 timer: list[float]) -> list[float]:
    """The engine's mean margin per deal of each pair (2 players)."""
    rng = random.Random(seed)
    margins = []
    for _ in range(pairs):
        table, stock = random_table(rng, rules)
        mine = timed(me, timer)
        one = pasur.play_deal(rules, table, stock, [mine, them], rng)
        two = pasur.play_deal(rules, table, stock, [them, mine], rng)
        margins.append(((one[0] - one[1]) + (two[1] - two[0])) / 2)
    return margins


def teams_margin(rules: Rules, me: Chooser, them: Chooser, pairs: int, seed: int, timer: list[float]) -> list[float]:
    """4 players in teams: the engine's partnership less the other, the deck played with the
    partnerships in both seatings."""
    rng = random.Random(seed)
    margins = []
    for _ in range(pairs):
        table, stock = random_table(rng, rules)
        mine = timed(me, timer)
        one = pasur.play_deal(rules, table, stock, [mine, them, mine, them], rng)
        two = pasur.play_deal(rules, table, stock, [them, mine, them, mine], rng)
        margins.append(((one[0] - one[1]) + (two[1] - two[0])) / 2)
    return margins


def measure_unit(unit: tuple[tuple[str, str, str, int], int, int]) -> tuple[list[float], list[float]]:
    """One line's pairs of one round: (table, preset, opponent, effort), how many, the seed; the
    margins and the engine's decision times (a unit runs alone, so ``--jobs`` changes no figure)."""
    (table, preset, name, effort), count, seed = unit
    measure = teams_margin if table == "teams" else pairs_margin
    timer: list[float] = []
    me = sees_all(effort, table == "knows-random") if table in ("sees-all", "knows-random") else engine(effort)
    found = measure(PRESETS[preset], me, OPPONENTS[name], count, seed, timer)
    return found, timer


def speed() -> None:
    rng = random.Random(3)
    timer: list[float] = []
    for number in range(8):
        rules = PRESETS[("standard", "pagat")[number % 2]]
        match = pasur.Match(["A", "B"], rules)
        table, stock = random_table(rng, rules)
        match.start_deal(table)
        hands: dict[str, list[Card]] = {}
        while match.deal is not None:
            deal = match.deal
            if deal.played % 8 == 0:
                hands = {p: [stock.pop() for _ in range(4)] for p in match.players}
            player = deal.turn or ""
            start = time.process_time()
            best = pasur.advise(match, hands[player])[0]
            timer.append(time.process_time() - start)
            hands[player].remove(best.card)
            match.play(best.card, best.take)
    timer.sort()
    print(f"advise at the default effort ({EFFORT} guessed deals): median {1000 * statistics.median(timer):.1f} ms"
          f" CPU per decision, 90th percentile {1000 * timer[len(timer) * 9 // 10]:.1f} ms, {len(timer)} decisions")
    example = Path(__file__).resolve().parent.parent / "examples" / "season-1.json"
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PASUR_DB": os.path.join(folder, "s.db")}
        subprocess.run(["pasur", "import", str(example)], env=env, check=True, capture_output=True)
        for args in (["review", "--deal", "1"], ["review", "--deal", "1", "--json"]):
            timed_run(["pasur", *args], env)
    hint_match()


def hint_match() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PASUR_DB": os.path.join(folder, "s.db")}
        for args in (["new", "Ali", "Sara"], ["deal", "5C", "9D", "3H", "KS"]):
            subprocess.run(["pasur", *args], env=env, check=True, capture_output=True)
        timed_run(["pasur", "hint", "2S", "7C", "QH", "AD"], env)


def timed_run(command: list[str], env: dict[str, str]) -> None:
    """Run a whole pasur process; print its wall time and the CPU time it used (start-up included)."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(f"{' '.join(command)}: {wall:.2f} s wall, {cpu:.2f} s CPU, peak {after.ru_maxrss / 1024:.0f} MiB")


def stability(deals: int) -> None:
    """Review ``deals`` finished deals of examples/ (the 2-player ones first: season-1, season-5,
    then season-3's 3 players, then 4) with seeds 1 and 2 and compare: the label of every play with
    a choice, and the best option of every play where either review says it leads the second by
    more than a point. Also the CPU time of a review."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    found = []
    for season in (1, 5, 3, 2, 4, 6):
        match = pasur.read_record((examples / f"season-{season}.json").read_text(encoding="utf-8")).match
        found += [(season, match, r.number) for r in match.results if not r.tallied]
    same_label = plays = led = same_best = 0
    cpu: list[float] = []
    steady = []  # per deal: the share of its plays with a choice whose labels agree
    for season, match, number in found[:deals]:
        before = same_label, plays
        reviews = []
        for seed in (1, 2):
            start = time.process_time()
            reviews.append(pasur.review(match, number, seed=seed).plays)
            cpu.append(time.process_time() - start)
        for a, b in zip(*reviews, strict=True):
            if a.choices > 1:
                plays += 1
                same_label += a.label == b.label
                if a.lead > 1 or b.lead > 1:
                    led += 1
                    same_best += (a.best_card, a.best_take) == (b.best_card, b.best_take)
        steady.append((same_label - before[0]) / max(plays - before[1], 1))
        print(f"season-{season} deal {number} ({len(match.players)} players): {cpu[-2]:.2f} + {cpu[-1]:.2f} s CPU;"
              f" the same label {same_label - before[0]}/{plays - before[1]}; so far {same_label}/{plays},"
              f" the same best {same_best}/{led}", flush=True)
    print(f"review stability, {min(deals, len(found))} deals of examples/, seeds 1 and 2:"
          f" the same label for {same_label} of {plays} plays with a choice ({same_label / plays:.1%}); the same"
          f" best option for {same_best} of {led} plays where either review has it lead the second by more than"
          f" a point ({same_best / max(led, 1):.1%}); {sum(s >= 0.9 for s in steady)} of {len(steady)} deals"
          f" with the same label for 9 plays in 10 or more (the least {min(steady):.0%});"
          f" a review {statistics.median(cpu):.2f} s CPU median"
          f" ({max(cpu):.2f} at most)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--effort", type=int, default=EFFORT)
    parser.add_argument("--opponents", default=None,
                        help="advise's opponents (default greedy,random,noisy; none with --sees-all)")
    parser.add_argument("--sees-all", action="store_true",
                        help="the upper reference: a player that sees every hand and the stock")
    parser.add_argument("--sees-all-opponents", default="random,greedy")
    parser.add_argument("--sees-all-plays", type=int, default=4,
                        help="the sees-all search's minimax reaches the end of the hand of this play ahead")
    parser.add_argument("--knows-random", action="store_true",
                        help="also: sees all hands and knows the opponent plays at random (expectimax), vs random")
    parser.add_argument("--knows-random-plays", type=int, default=0,
                        help="its search reaches the end of the hand of this play ahead")
    parser.add_argument("--step", type=int, default=25, help="pairs per line in each round")
    parser.add_argument("--presets", default="standard,pagat")
    parser.add_argument("--curve", type=int, default=0, help="at most this many pairs per effort on the curve")
    parser.add_argument("--efforts", default="0,1,2,4,8")
    parser.add_argument("--teams", action="store_true", help="also 4 players in teams against greedy")
    parser.add_argument("--teams-pairs", type=int, default=0, help="at most this many pairs for the teams table")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--stability", type=int, default=0, metavar="DEALS")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1, help="processes (each line's round runs in one)")
    parser.add_argument("--quick", action="store_true",
                        help="every table once, 2 pairs a line at small efforts: the script runs (no figure)")
    args = parser.parse_args()
    if args.quick:
        args.pairs, args.step, args.effort, args.curve, args.efforts = 2, 2, 2, 2, "0,1"
        args.teams, args.teams_pairs, args.sees_all, args.knows_random, args.sees_all_plays = True, 1, True, True, 0
        args.opponents = "greedy,random,noisy"
    if args.speed:
        speed()
        return
    if args.stability:
        stability(args.stability)
        return
    presets = args.presets.split(",")
    opponents = (args.opponents if args.opponents is not None
                 else "" if args.sees_all or args.knows_random else "greedy,random,noisy")
    lines: list[tuple[str, str, str, int]] = [  # (table, preset, opponent, effort)
        *(("main", p, o, args.effort) for o in opponents.split(",") if o for p in presets),
        *(("sees-all", p, o, args.sees_all_plays) for o in args.sees_all_opponents.split(",")
          for p in presets if args.sees_all),
        *(("knows-random", p, "random", args.knows_random_plays) for p in presets if args.knows_random),
        *(("curve", "standard", "greedy", int(e)) for e in args.efforts.split(",") if args.curve),
        *(("teams", p, "greedy", args.effort) for p in presets if args.teams),
    ]
    margins: dict[tuple[str, str, str, int], list[float]] = {key: [] for key in lines}
    timers: dict[tuple[str, str, str, int], list[float]] = {key: [] for key in lines}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parent).stdout.strip()
    print(f"pasur at commit {commit or '?'}; {' '.join(sys.argv[1:])}; jobs {args.jobs}", flush=True)
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    titles = {"main": f"advise at effort {args.effort} against each opponent, 2 players",
              "curve": "margin against greedy (standard) by effort: the time given",
              "sees-all": "sees all hands (the upper reference: every hand and the stock seen; effort: the"
                          " minimax's plays ahead), 2 players",
              "knows-random": "sees all hands and knows the opponent plays at random (expectimax: the best reply"
                              " to random play; effort: its plays ahead), 2 players",
              "teams": f"4 players in teams, advise (effort {args.effort}) partners against greedy partners"}
    done = 0
    while done < args.pairs:  # rounds of --step pairs on every line, so a run cut short is still a whole table
        step = min(args.step, args.pairs - done)
        most = {"main": args.pairs, "sees-all": args.pairs, "knows-random": args.pairs, "curve": args.curve,
                "teams": args.teams_pairs or args.pairs}
        units = [(key, min(step, max(0, most[key[0]] - done)), args.seed + done) for key in lines]
        units = [unit for unit in units if unit[1]]
        for (key, _, _), (found, times) in zip(units, (pool.map if pool else map)(measure_unit, units),
                                               strict=True):
            margins[key] += found
            timers[key] += times
        done += step
        print(f"\n== after {done} pairs per line (seed {args.seed}) ==")
        for table in ("main", "sees-all", "knows-random", "curve", "teams"):
            shown = [key for key in lines if key[0] == table and margins[key]]
            if not shown:
                continue
            print(titles[table])
            print(f"{'preset':9} {'opponent':8} {'effort':>6} {'pairs':>6} {'margin/deal':>12} {'95% CI':>17}"
                  f" {'ms/decision':>12}")
            for key in shown:
                mean, half = interval(margins[key])
                ci = f"[{mean - half:+.2f}, {mean + half:+.2f}]"
                print(f"{key[1]:9} {key[2]:8} {key[3]:>6} {len(margins[key]):>6} {mean:>+12.2f} {ci:>17}"
                      f" {1000 * statistics.median(timers[key] or [0.0]):>12.2f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
