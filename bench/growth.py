"""Does a long match slow pasur down? `pasur score` and `pasur play` on a match with 1 finished deal
and on one with 20, in a database that also holds 1,000 other matches.

    python bench/growth.py [--rounds 15]
    python bench/growth.py --load     # in-process load of a match with 1, 20 and 500 deals

Prints the median wall time of each (whole processes, alternating) and the ratio 20 deals / 1 deal;
the target is 1.3x or less.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from simulate import random_match

from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.database import Store

PASUR = str(Path(sys.executable).with_name("pasur"))
PLAYERS = ["Ali", "Sara"]


def actions_for(deals: int, seed: int) -> list[dict]:
    """Random legal actions: ``deals`` finished deals, then the next deal's table and 3 plays."""
    rules = parse_rules("pagat", [f"fixed_deals={deals + 1}"])
    match, actions = Match(PLAYERS, rules), []
    for action in random_match(random.Random(seed), match):
        match.apply(action)
        actions.append(action)
        if len(match.results) == deals and match.deal is not None and len(match.deal.plays) == 3:
            return actions
    raise RuntimeError("the match ended early")


def store_match(store: Store, actions: list[dict], deals: int) -> int:
    rules = parse_rules("pagat", [f"fixed_deals={deals + 1}"])
    match = Match.replay(PLAYERS, rules, 0, actions)
    return store.create(PLAYERS, rules, 0, actions, match=match)


def run(argv: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def load_times(repeats: int = 200) -> None:
    """In-process: the median time to load and replay the deal in progress of a match with 1, 20
    and 500 finished deals (what show and play pay; score also parses every deal's result)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(str(Path(tmp) / "pasur.db"), create=True)
        ids = {deals: store_match(store, actions_for(deals, deals), deals) for deals in (1, 20, 500)}
        print(f"load + replay of the deal in progress, median of {repeats}")
        base = None
        for deals, mid in ids.items():
            samples = []
            for _ in range(repeats):
                start = time.perf_counter()
                store.load(mid).replay()
                samples.append(time.perf_counter() - start)
            median = statistics.median(samples)
            base = base or median
            print(f"  {deals:3} deals {median * 1000:6.2f} ms   ratio {median / base:.2f}")
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--load", action="store_true", help="Only the in-process load of 1, 20 and 500 deals.")
    options = parser.parse_args()
    if options.load:
        load_times()
        return
    rounds = options.rounds
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "pasur.db")
        store = Store(db, create=True)
        filler = actions_for(1, 0)
        for _ in range(1000):
            store_match(store, filler, 1)
        short, long = actions_for(1, 1), actions_for(20, 2)
        ids = {"1 deal": store_match(store, short, 1), "20 deals": store_match(store, long, 20)}
        next_card = {name: store.load(mid).replay() for name, mid in ids.items()}
        store.close()
        env = dict(os.environ, PASUR_DB=db, NO_COLOR="1")
        times: dict[tuple[str, str], list[float]] = {}
        for number in range(rounds + 2):
            for name, mid in ids.items():
                match = next_card[name]
                numerals = [f"{rank}{suit}" for suit in "CD" for rank in range(2, 11)]
                card = next(c for c in numerals if all(c != x.code for x in match.deal.where))
                score = run([PASUR, "--match", str(mid), "score"], env)
                play = run([PASUR, "--match", str(mid), "play", card], env)
                run([PASUR, "--match", str(mid), "undo"], env)
                if number >= 2:
                    times.setdefault(("score", name), []).append(score)
                    times.setdefault(("play", name), []).append(play)
    print(f"{rounds} rounds, medians, 1,000 other matches in the database")
    for command in ("score", "play"):
        one, twenty = (statistics.median(times[(command, n)]) for n in ids)
        print(f"{command:6} 1 deal {one * 1000:6.1f} ms   20 deals {twenty * 1000:6.1f} ms   ratio {twenty / one:.2f}"
              f"  ({'target 1.3x met' if twenty / one <= 1.3 else 'target 1.3x NOT met'})")


if __name__ == "__main__":
    main()
