"""How well ``advise`` plays, on paired deals, and how fast it decides.

    nice -n 10 python bench/strength.py [--pairs 1000] [--step 25] [--effort N] [--curve 200]
                                        [--efforts 0,1,2,4,8] [--teams] [--opponents greedy,random,noisy]
                                        [--teams-pairs 200] [--jobs 2]
    nice -n 10 python bench/strength.py --sees-all [--pairs 1000] [--sees-all-plays 4] [--jobs 2]
    python bench/strength.py --speed
    python bench/strength.py --stability DEALS

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

The deals are played in the engine's simulator (``pasur_cli/engine/playout.py``, which the tests
replay through the referee's ``Deal``), and the engine decides with ``advise``'s own search
(``playout.search``) on what its player has seen.

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
"""

from __future__ import annotations

import argparse
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

from pasur_cli.engine import playout as sim
from pasur_cli.engine.advice import EFFORT, INDEX
from pasur_cli.engine.cards import Card
from pasur_cli.engine.match import side_names
from pasur_cli.engine.rules import PRESETS, Rules

Chooser = Callable[["Table", int, random.Random], tuple[int, sim.Take]]


class Table:
    """One deal played in the simulator (the tests check it against the referee): the true
    position, and the cards every seat has seen (the initial table and every card played)."""

    def __init__(self, rules: Rules, players: int, table: list[Card], stock: list[Card]) -> None:
        sides = side_names([str(k) for k in range(players)], rules.teams)
        order = list(dict.fromkeys(sides))
        self.game = sim.Game(rules, [order.index(s) for s in sides], 0, [True] * len(order))
        deck = [INDEX[c] for c in stock]
        hands = [deck[-4 * (k + 1):len(deck) - 4 * k] for k in range(players)]
        del deck[len(deck) - 4 * players:]
        self.pos = sim.Position(tuple(sorted(INDEX[c] for c in table)), hands, deck, 0, [0] * len(order),
                                [0] * len(order), [0] * len(order), -1)
        self.seen = set(self.pos.table)

    def options(self, seat: int) -> list[tuple[int, sim.Take]]:
        table = self.pos.table
        return [(c, t) for c in self.pos.hands[seat] for t in (sim.captures(c, table, self.game) or [()])]


def worth(card: int) -> float:
    """What greedy thinks a card is worth: its points, and half a point for a club."""
    return ((sim.RANK[card] in (1, 11)) + 2 * (card == sim.TWO_CLUBS) + 3 * (card == sim.TEN_DIAMONDS)
            + 0.5 * sim.CLUB[card])


def greedy(t: Table, seat: int, rng: random.Random, noise: float = 0.0) -> tuple[int, sim.Take]:
    options = t.options(seat)
    if noise and rng.random() < noise:
        return rng.choice(options)
    captures = [(c, take) for c, take in options if take]
    if captures:
        size = len(t.pos.table)
        return max(captures, key=lambda o: worth(o[0]) + sum(worth(c) for c in o[1])
                   + 5 * (len(o[1]) == size and sim.can_sur(t.pos, t.game, seat, o[0])))
    return min(options, key=lambda o: (worth(o[0]), o[0]))


def uniform(t: Table, seat: int, rng: random.Random) -> tuple[int, sim.Take]:
    return rng.choice(t.options(seat))


def engine(effort: int) -> Chooser:
    """advise's own search (``playout.search``, as ``advise`` runs it), always taking the best
    option; at effort 0 the playout policy alone."""
    def choose(t: Table, seat: int, rng: random.Random) -> tuple[int, sim.Take]:
        options = t.options(seat)
        if len(options) == 1:
            return options[0]  # nothing to decide
        if effort <= 0:
            card, move = sim.policy(t.pos, t.game)
            return card, move[0]
        pos, game = t.pos, t.game
        mine = pos.hands[seat]
        unseen = [c for c in range(52) if c not in t.seen and c not in mine]
        sizes = [0 if k == seat else len(h) for k, h in enumerate(pos.hands)]
        base = sim.Position(pos.table, [], [], pos.played, pos.clubs[:], pos.points[:], pos.surs[:], pos.last)
        values = sim.search(game, base, seat, mine[:], unseen, sizes, options, rng, effort)
        return options[max(range(len(options)), key=lambda k: (values[k], -k))]
    return choose


def sees_all(plays: int, random_model: bool = False) -> Chooser:
    """The upper reference: a player that sees every hand and the stock. There is nothing to guess,
    so instead of advise's guessed deals it searches the one true deal: every option is played and
    then the deal is searched by alpha-beta minimax on the true cards (every seat's best play, the
    true stock dealt when a hand ends) to the end of the hand of the play ``plays`` beyond the
    decision (advise's horizon, there played by the policy on guessed deals), and judged there by
    the simulator's ``judge`` (points, surs, clubs as they stand, the table the next leader may
    clear); from the last hand on (the stock empty) that is the end of the deal, so it is exact.
    ``random_model``: it also knows that the other side plays uniformly at random, so the other
    side's plays are averaged over its options (expectimax: the best reply to random play) instead
    of taken at their worst for it."""
    def choose(t: Table, seat: int, rng: random.Random) -> tuple[int, sim.Take]:
        options = t.options(seat)
        if len(options) == 1:
            return options[0]
        game = t.game
        side = game.seat_side[seat]
        stop = _horizon(game, t.pos.played, plays)
        best, best_value, alpha = options[0], -1e9, -1e9
        for card, take in options:
            pos = t.pos.copy()
            sim.play(pos, game, card, take)
            value = _expected(pos, game, side, stop) if random_model else sim.minimax(pos, game, side, alpha, 1e9, stop)
            if value > best_value:
                best, best_value, alpha = (card, take), value, value
        return best
    return choose


def _horizon(game: sim.Game, played: int, plays: int) -> int:
    """The end of the hand of play ``played + plays`` (the end of the deal at most)."""
    per_hand = 4 * game.players
    return min(game.total_plays, ((played + plays) // per_hand + 1) * per_hand)


def _expected(pos: sim.Position, game: sim.Game, side: int, stop: int) -> float:
    """``side``'s expected margin to play ``stop`` (judged there, exact at the end of the deal) when
    ``side`` plays its best and every other seat uniformly at random over its (card, take) options."""
    if pos.played >= game.total_plays:
        return sim.margin(sim.scores(pos, game), side)
    if pos.played >= stop:
        return sim.judge(pos, game, side)
    seat = (game.dealer + 1 + pos.played) % game.players
    values = []
    for card in pos.hands[seat]:
        for move in sim.moves(card, pos.table, game):
            child = pos.copy()
            sim.play_move(child, game, card, move)
            values.append(_expected(child, game, side, stop))
    return max(values) if game.seat_side[seat] == side else sum(values) / len(values)


OPPONENTS: dict[str, Chooser] = {
    "greedy": lambda t, s, r: greedy(t, s, r),
    "random": uniform,
    "noisy": lambda t, s, r: greedy(t, s, r, 0.2),
}


def play_deal(rules: Rules, seats: list[Chooser], table: list[Card], stock: list[Card], rng: random.Random,
              timer: list[float], timed: Chooser) -> list[int]:
    """One deal from this table and stock (dealt from the end, 4 cards a seat, seats in order,
    seat 1 leads); each side's deal score."""
    t = Table(rules, len(seats), table, stock)
    game, pos = t.game, t.pos
    while pos.played < game.total_plays:
        seat = sim.turn(pos, game)
        choose = seats[seat]
        start = time.process_time()
        card, take = choose(t, seat, rng)
        if choose is timed:
            timer.append(time.process_time() - start)
        t.seen.add(card)
        sim.play(pos, game, card, take)
    return sim.scores(pos, game)


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
        one = play_deal(rules, [me, them], table, stock, rng, timer, me)
        two = play_deal(rules, [them, me], table, stock, rng, timer, me)
        margins.append(((one[0] - one[1]) + (two[1] - two[0])) / 2)
    return margins


def teams_margin(rules: Rules, me: Chooser, them: Chooser, pairs: int, seed: int, timer: list[float]) -> list[float]:
    """4 players in teams: the engine's partnership less the other, the deck played with the
    partnerships in both seatings."""
    rng = random.Random(seed)
    margins = []
    for _ in range(pairs):
        table, stock = random_table(rng, rules)
        one = play_deal(rules, [me, them, me, them], table, stock, rng, timer, me)
        two = play_deal(rules, [them, me, them, me], table, stock, rng, timer, me)
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
    from pasur_cli import advise
    from pasur_cli.engine.match import Match
    rng = random.Random(3)
    timer: list[float] = []
    for number in range(8):
        rules = PRESETS[("standard", "pagat")[number % 2]]
        match = Match(["A", "B"], rules)
        table, stock = random_table(rng, rules)
        match.start_deal(table)
        hands: dict[str, list[Card]] = {}
        while match.deal is not None:
            deal = match.deal
            if deal.played % 8 == 0:
                hands = {p: [stock.pop() for _ in range(4)] for p in match.players}
            player = deal.turn or ""
            start = time.process_time()
            best = advise(match, hands[player])[0]
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
            timed(["pasur", *args], env)
    hint_match()


def hint_match() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PASUR_DB": os.path.join(folder, "s.db")}
        for args in (["new", "Ali", "Sara"], ["deal", "5C", "9D", "3H", "KS"]):
            subprocess.run(["pasur", *args], env=env, check=True, capture_output=True)
        timed(["pasur", "hint", "2S", "7C", "QH", "AD"], env)


def timed(command: list[str], env: dict[str, str]) -> None:
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
    more than a point. Also the CPU time and the playouts of a review."""
    from pasur_cli import review
    from pasur_cli.engine import playout as sim
    from pasur_cli.engine.record import read_record
    examples = Path(__file__).resolve().parent.parent / "examples"
    found = []
    for season in (1, 5, 3, 2, 4, 6):
        match = read_record((examples / f"season-{season}.json").read_text(encoding="utf-8")).match
        found += [(season, match, r.number) for r in match.results if not r.tallied]
    playouts = [0]
    samples = sim.samples

    def counted(*args: object) -> list[list[float]]:
        result = samples(*args)  # type: ignore[arg-type]
        playouts[0] += len(result) * len(result[0])
        return result
    sim.samples = counted  # type: ignore[assignment]
    same_label = plays = led = same_best = 0
    cpu: list[float] = []
    steady = []  # per deal: the share of its plays with a choice whose labels agree
    for season, match, number in found[:deals]:
        before = same_label, plays
        reviews = []
        for seed in (1, 2):
            start = time.process_time()
            reviews.append(review(match, number, seed=seed).plays)
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
    sim.samples = samples  # type: ignore[assignment]
    print(f"review stability, {min(deals, len(found))} deals of examples/, seeds 1 and 2:"
          f" the same label for {same_label} of {plays} plays with a choice ({same_label / plays:.1%}); the same"
          f" best option for {same_best} of {led} plays where either review has it lead the second by more than"
          f" a point ({same_best / max(led, 1):.1%}); {sum(s >= 0.9 for s in steady)} of {len(steady)} deals"
          f" with the same label for 9 plays in 10 or more (the least {min(steady):.0%});"
          f" a review {statistics.median(cpu):.2f} s CPU median"
          f" ({max(cpu):.2f} at most), {playouts[0] / len(cpu):.0f} playouts on average")


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
    args = parser.parse_args()
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
