"""Does a long match slow pasur down? `pasur score` and `pasur play` on a match with 1 finished deal
and on one with 20, in a database that also holds 1,000 other matches.

    python bench/growth.py [--rounds 15] [--quick]
    python bench/growth.py --load [--quick]       # show, score and the session's load: 1, 20, 500 deals
    python bench/growth.py --bounds [--quick]     # the bounded costs: each command on the largest inputs
    python bench/growth.py --roundtrip [--quick]  # the largest matches pasur holds, exported and imported back

Prints the median wall time of each (whole processes, alternating) and the ratio 20 deals / 1 deal;
the target is 1.3x or less.

``--bounds`` makes its inputs itself and runs each command as a whole process, printing its CPU
time (user + system; the best of 5), wall time and peak memory, and the machine's load and speed
(a fixed loop's CPU time: the same work takes 20% more or less from one minute to the next here);
the target is at most 1 s of CPU for each. It measures pasur as installed, with its modules
compiled (the processes it starts do not inherit PYTHONDONTWRITEBYTECODE, which would make every
command compile them, about 0.25 s); give a normal install as PASUR_BIN (an editable one adds its
import hook to every start, about 20 ms):
a record of about 13,000 tallied deals (4 MB) imported, then `score` and `log --deal 5` on it;
`stats` and `matches` over 5,000 matches; `score --chart` of a match with sur_points=1000000 and
20 tallied deals, and of one with 1,000.

``--roundtrip`` stores the largest matches pasur holds (ACTIONS_MOST actions: the widest tally
repeated, with the longest names and times; random tallied deals; deals played card by card,
tests/matchbook.py makes them), then exports each and imports it into a new file as whole
processes (CPU, wall, peak memory; the best of 3), and checks that `score --json`, `log --json`
and `show --json` of the copy are the original's byte for byte (but the match's key). ``--quick``:
matches of 2,000 actions, once each.

``--quick`` with the others: the same table from small inputs, each timing taken once or twice (it
shows the script still runs; its figures are not the measurement): 20 other matches and 2 rounds;
loads of 1 and 20 deals, 5 times each; a record of 500 deals, 200 matches and charts of 20 and 100
deals. Everything is made through pasur's public names (``Match``, ``Store``) or the command.
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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from simulate import random_match

from pasur_cli import Match, Rules, Store, parse_rules

TESTS = Path(__file__).resolve().parent.parent / "tests"
PASUR = os.environ.get("PASUR_BIN") or str(Path(sys.executable).with_name("pasur"))  # PASUR_BIN: another pasur
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
    return store.create(PLAYERS, rules, 0, actions)


def run(argv: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def tallied_match(deals: int, seed: int) -> tuple[Rules, list[dict]]:
    """The rules and actions of a match of ``deals`` tallied deals (random counts, as `pasur tally`
    records them), then the next deal's table and 3 plays: a long season entered by counts, with a
    deal going on."""
    rules = parse_rules("standard", [f"fixed_deals={deals + 1}"])
    match, actions = Match(PLAYERS, rules), tallied_actions(deals, seed)
    for action in actions:
        match.apply(action)
    for action in random_match(random.Random(seed), match):
        match.apply(action)
        actions.append(action)
        if match.deal is not None and len(match.deal.plays) == 3:
            return rules, actions
    raise RuntimeError("the match ended early")


def median_ms(step: Callable[[], object], repeats: int) -> float:
    """The median milliseconds of ``repeats`` calls of ``step``."""
    took = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


def load_times(repeats: int = 200, sizes: tuple[int, ...] = (1, 20, 500), runs: int = 15) -> None:
    """A match of 1, 20 and 500 tallied deals with a deal going on, each read as a person waits
    for it: in-process, a store opened and the match loaded (``Store(path).match``: what `show`,
    `play` and the session pay on their first read), and then every deal's result read too (what
    `score` adds; in one process a result read before is not parsed again, so only the first of
    the repeats parses them all); as whole processes, `pasur show` and `pasur score` (median of ``runs``, the
    sizes alternating). Prints each with its ratio to the smallest."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "pasur.db")
        store = Store(path, write=True, create=True)
        ids = {}
        for deals in sizes:
            rules, actions = tallied_match(deals, deals)
            ids[deals] = store.create(PLAYERS, rules, 0, actions)
        store.close()

        def load(mid: int, results: bool) -> None:
            book = Store(path)
            match = book.match(mid)[1]
            if results:
                list(match.results)
            book.close()

        rows: dict[str, dict[int, float]] = {"open + load (show, play, session start)": {},
                                             "open + load + results (session's score)": {}}
        for label, results in zip(rows, (False, True), strict=True):
            for deals, mid in ids.items():
                rows[label][deals] = median_ms(lambda mid=mid, results=results: load(mid, results), repeats)
        env = dict(os.environ, PASUR_DB=path, NO_COLOR="1", COLUMNS="80")
        for command in ("show", "score"):
            took: dict[int, list[float]] = {deals: [] for deals in ids}
            for _ in range(runs):
                for deals, mid in ids.items():
                    took[deals].append(run([PASUR, "--match", str(mid), command], env))
            rows[f"`pasur {command}` (whole process)"] = {deals: statistics.median(times) * 1000
                                                          for deals, times in took.items()}
        print(f"medians in ms ({repeats} in-process, {runs} processes); tallied deals, then a deal going on")
        print(f"{'':40}" + "".join(f"{f'{deals} deal' + 's' * (deals > 1):>12}" for deals in ids) + f"{'ratio':>8}")
        for label, figures in rows.items():
            print(f"{label:40}" + "".join(f"{figures[deals]:12.2f}" for deals in ids)
                  + f"{figures[max(ids)] / figures[min(ids)]:8.2f}")


def tallied_actions(deals: int, seed: int, surs: int = 2) -> list[dict]:
    """``deals`` deals tallied by counts (every count random but adding up), each side holding
    up to ``surs`` surs."""
    rng, actions = random.Random(seed), []
    for _ in range(deals):
        clubs, aces, jacks, two, ten = rng.randint(1, 12), rng.randint(0, 4), rng.randint(0, 4), rng.random() < .5, \
            rng.random() < .5
        counts = {PLAYERS[0]: {"clubs": clubs, "aces": aces, "jacks": jacks, "two_clubs": two, "ten_diamonds": ten},
                  PLAYERS[1]: {"clubs": 13 - clubs, "aces": 4 - aces, "jacks": 4 - jacks, "two_clubs": not two,
                               "ten_diamonds": not ten}}
        actions.append({"type": "tally", "piles": {}, "counts": counts, "partial": False,
                        "surs": {PLAYERS[0]: rng.randint(0, surs), PLAYERS[1]: rng.randint(0, surs)}})
    return actions


def record_text(deals: int) -> str:
    """A match record of ``deals`` tallied deals, as `pasur export` writes one (compact)."""
    import json
    rules = parse_rules("standard", [f"fixed_deals={deals + 1}"])
    return json.dumps({"format": "pasur-match", "version": 1, "players": PLAYERS, "dealer": PLAYERS[0],
                       "rules": rules.as_dict(), "created": "2026-01-01T00:00:00+00:00",
                       "actions": [{"at": "2026-01-01T00:00:00+00:00", "action": a}
                                   for a in tallied_actions(deals, 7, surs=0)]}, separators=(",", ":"))


def many_matches(path: str, count: int) -> None:
    """``count`` matches: 40 made by the engine (2, 3 and 4 players from a pool of eight names,
    a few tallied deals, one deal played card by card, some finished and some not), each stored
    again in turn until there are ``count``."""
    pool = ["Ali", "Sara", "Reza", "Mina", "Omid", "Nika", "Babak", "Leila"]
    made: list[tuple[list[str], Rules, list[dict]]] = []
    for number in range(40):
        rng = random.Random(number)
        players = rng.sample(pool, rng.choice([2, 3, 4]))
        rules = parse_rules(rng.choice(["standard", "pagat"]), [])
        match, actions = Match(players, rules), []
        for action in random_match(rng, match):  # one deal card by card
            match.apply(action)
            actions.append(action)
            if match.results:
                break
        while not match.finished and len(match.results) < rng.randint(3, 9):
            sides = list(match.sides)
            counts = {side: {"clubs": 0} for side in sides}
            counts[sides[0]] = {"clubs": 13, "aces": 4, "jacks": rng.randint(0, 4), "two_clubs": True,
                                "ten_diamonds": True}
            counts[sides[1]]["jacks"] = 4 - counts[sides[0]]["jacks"]
            rng.shuffle(sides)
            match.tally(counts=counts, surs={} if rules.sur_limit is not None else {sides[0]: rng.randint(0, 3)})
            actions.append(match.log[-1])
        made.append((players, rules, actions))
    store = Store(path, write=True, create=True)
    for number in range(count):
        store.create(*made[number % len(made)][:2], 0, made[number % len(made)][2])
    store.close()


def measured(argv: list[str], env: dict) -> tuple[float, float, float]:
    """(CPU seconds, wall seconds, peak MiB) of one whole process."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"{argv} exited {process.returncode}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def compiled_env() -> dict:
    """The environment of the measured processes (English, 80 columns, no colour, bytecode cached),
    pasur's modules compiled first."""
    env = dict(os.environ, NO_COLOR="1", COLUMNS="80", LINES="24")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    import compileall
    compileall.compile_dir(str(Path(__file__).resolve().parent.parent / "pasur_cli"), quiet=1)
    return env


def shown(path: Path, match: int, env: dict) -> list[str]:
    """The hashes of `score --json`, `log --json` and `show --json` of ``match`` (the match's key
    left out), each read from a file: held in this process, the views of the largest match would
    make it grow, and every process it starts after reports that peak as its own."""
    import hashlib
    import re
    hashes = []
    for view in ("score", "log", "show"):
        with tempfile.TemporaryFile() as out:
            subprocess.run([PASUR, "--db", str(path), "--match", str(match), view, "--json"], env=env, check=True,
                           stdout=out)
            out.seek(0)
            digest = hashlib.sha256()
            for line in out:
                digest.update(re.sub(rb'("revision": ")[0-9a-f]{16}:', rb"\1KEY:", line))
            hashes.append(digest.hexdigest())
    return hashes


LARGEST = {"wide": "widest tally (4 names, 160 bytes)", "tallies": "random tallied deals",
           "played": "deals played card by card"}


def roundtrip(quick: bool) -> None:
    """The largest matches pasur holds exported and imported back (see the module's docstring)."""
    most, times = (2000, 1) if quick else (None, 3)  # None: the most a match holds (tests/matchbook.py)
    with tempfile.TemporaryDirectory() as tmp:
        env = compiled_env()
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores;"
              f" {f'{most:,}' if most else 'the most'} actions a match")
        print(f"{'match':34} {'MB':>6} {'export CPU s':>12} {'wall s':>7} {'MiB':>5} {'import CPU s':>12} {'wall s':>7}"
              f" {'MiB':>5}  views")
        for kind in ("wide", "tallies", "played"):
            db, out = Path(tmp) / f"{kind}.db", Path(tmp) / f"{kind}.json"
            # made by a process of its own: a process started by one that has grown reports the peak memory of both
            made = (f"import matchbook, pathlib; print(matchbook.store_largest(pathlib.Path({str(db)!r}), {kind!r},"
                    f" most={most}))")
            mid = int(subprocess.run([sys.executable, "-c", made], cwd=TESTS, check=True, capture_output=True,
                                     text=True).stdout)
            exported = min(measured([PASUR, "--db", str(db), "--match", str(mid), "export", "-o", str(out), "--force"],
                                    env) for _ in range(times))
            copies = [Path(tmp) / f"{kind}-{n}.db" for n in range(times)]
            imported = min(measured([PASUR, "--db", str(copy), "import", str(out)], env) for copy in copies)
            same = "same" if shown(db, mid, env) == shown(copies[0], 1, env) else "DIFFERENT"
            print(f"{LARGEST[kind]:34} {out.stat().st_size / 1e6:6.1f}"
                  f" {exported[0]:12.2f} {exported[1]:7.2f} {exported[2]:5.0f} {imported[0]:12.2f} {imported[1]:7.2f}"
                  f" {imported[2]:5.0f}  {same}", flush=True)


def bounds(quick: bool = False) -> None:
    """Each command of the issue's bounded costs on its largest input, the best of 5 (each import
    into a new file); ``quick``: small inputs, each command once."""
    deals, matches, charts, repeat = (500, 200, (20, 100), 1) if quick else (13_351, 5000, (20, 1000), 5)
    with tempfile.TemporaryDirectory() as tmp:
        env = compiled_env()
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
        # this machine's speed now (it moves by 20% from minute to minute): a fixed loop of pure Python, best of 5
        loop = "x = sum(i * i % 7 for i in range(3_000_000))"
        reference = min(measured([sys.executable, "-c", loop], env)[0] for _ in range(repeat))
        print(f"reference: a fixed Python loop takes {reference:.2f} s of CPU now (0.33 at this machine's fastest;"
              " work that reads much memory, as these commands do, moves more than the loop)")
        print(f"{'command':55} {'CPU s':>6} {'wall s':>7} {'peak MiB':>9}")

        def run_on(db: str, label: str, *args: str, times: int = repeat, fresh: bool = False) -> None:
            """``fresh``: each run on a file of its own (an import stores a new match each time)."""
            runs = []
            for number in range(times):
                target = f"{db}.{number}" if fresh and number else db  # a new file each time
                runs.append(measured([PASUR, "--db", target, *args], env))
                if runs[0][0] >= 2:  # far over the target: once is enough
                    break
            cpu, wall, peak = min(runs)
            print(f"{label:55} {cpu:6.2f} {wall:7.2f} {peak:9.1f}{'' if cpu <= 1 else '   over 1 s'}"
                  f"   (load {os.getloadavg()[0]:.1f})", flush=True)

        record = Path(tmp) / "record.json"
        record.write_text(record_text(deals))
        big = str(Path(tmp) / "big.db")
        run_on(big, f"import ({record.stat().st_size / 2**20:.1f} MB, {deals:,} tallied deals)", "import",
               str(record), fresh=True)
        run_on(big, f"score ({deals:,} deals)", "score")
        run_on(big, f"log --deal 5 ({deals:,} deals)", "log", "--deal", "5")
        many = str(Path(tmp) / "many.db")
        many_matches(many, matches)
        run_on(many, f"stats ({matches:,} matches)", "stats")
        run_on(many, f"matches ({matches:,} matches)", "matches")
        for size in charts:
            chart = str(Path(tmp) / f"chart{size}.db")
            rules = parse_rules("standard", ["sur_points=1000000", f"fixed_deals={size + 1}"])
            store = Store(chart, write=True, create=True)
            store.create(PLAYERS, rules, 0, tallied_actions(size, size))
            store.close()
            run_on(chart, f"score --chart (sur_points=1000000, {size:,} deals)", "score", "--chart")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--load", action="store_true", help="Only the load of 1, 20 and 500 tallied deals.")
    parser.add_argument("--bounds", action="store_true", help="Only the bounded costs on the largest inputs.")
    parser.add_argument("--roundtrip", action="store_true", help="Only the largest matches exported and imported.")
    parser.add_argument("--quick", action="store_true", help="Small inputs, each timing once or twice.")
    options = parser.parse_args()
    if options.roundtrip:
        roundtrip(options.quick)
        return
    if options.load:
        load_times(5, (1, 20), 2) if options.quick else load_times()
        return
    if options.bounds:
        bounds(options.quick)
        return
    rounds, others = (2, 20) if options.quick else (options.rounds, 1000)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "pasur.db")
        store = Store(db, write=True, create=True)
        filler = actions_for(1, 0)
        for _ in range(others):
            store_match(store, filler, 1)
        short, long = actions_for(1, 1), actions_for(20, 2)
        ids = {"1 deal": store_match(store, short, 1), "20 deals": store_match(store, long, 20)}
        next_card = {name: store.match(mid)[1] for name, mid in ids.items()}
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
    print(f"{rounds} rounds, medians, {others:,} other matches in the database")
    for command in ("score", "play"):
        one, twenty = (statistics.median(times[(command, n)]) for n in ids)
        print(f"{command:6} 1 deal {one * 1000:6.1f} ms   20 deals {twenty * 1000:6.1f} ms   ratio {twenty / one:.2f}"
              f"  ({'target 1.3x met' if twenty / one <= 1.3 else 'target 1.3x NOT met'})")


if __name__ == "__main__":
    main()
