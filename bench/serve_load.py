"""`pasur serve` under load: 50 viewers on the event stream for 30 s while plays are recorded.

    nice -n 10 python bench/serve_load.py [--viewers 50] [--seconds 30] [--quiet 20]

A scoreboard server on loopback follows a fresh database; VIEWERS threads each hold one
server-sent event stream (as a browser's EventSource does); another process records a random
legal match with `pasur deal` / `pasur play` (an action about every 0.3 s) for SECONDS, then
nothing for QUIET seconds with every viewer still connected. Prints, for every viewer, whether it
saw every state the server sent (no event id skipped) and every length of the log that was
recorded; the delay from each action's command ending to each viewer having it (median, 95th
percentile, worst); and the server's resident memory sampled once a second (first, last, most,
the change over the second half, then over the quiet part). Loopback only; every loop is bounded
by the time given.

    nice -n 10 python bench/serve_load.py --flood 1100 [--files 1024] [--rounds 5] [--quick]

The flood mode: the server started with an open-file limit of FILES (soft and hard, as `ulimit -n`
sets them), then FLOOD idle TCP connections opened to it at once and held, each one the server
closes opened again every half second. While they are held, ROUNDS times a second apart: a viewer
loads the page (the page, script, style, words, state, and the first state on the event stream,
each on a connection of its own), then `pasur play` records a play and the viewer's stream is
timed until it has it. `pasur deal`/`play` are timed with and without the flood. Prints the connections held,
the server's open files (most), the viewer's times (median, worst), the server's stderr lines
(and tracebacks) and the play time with and without the flood. --quick: 2 rounds, 4 plays each.
Without --flood, --quick: 5 viewers, 3 s of plays, 2 s quiet.

    nice -n 10 python bench/serve_load.py --per-change [--quick]

The scoreboard's work per change, through the process: a match stored with 0 and with 39 finished
deals (a match in its 1st deal and one in its 40th) served by `pasur serve` with one viewer, then
the next actions recorded one by one through the public Store (the rest of a deal, the next table
and its plays), and for each the server process's CPU time (the scheduler's count, every thread)
from the action to the viewer having its state, less its idle polling over that time. Prints the
median, mean and worst of each and the ratio of the means (the goal: at most 2).
--quick: 12 actions around a deal's end instead of two whole deals.

    nice -n 10 python bench/serve_load.py --room [--tables 8] [--plays 200] [--quick]

The room mode: TABLES matches in play on one database (a random legal match each), the server
without --match (the room's screen: a tile per table) and one viewer on its event stream; PLAYS
actions recorded round the tables in turn with `pasur deal`/`play --match N`. Prints the time from
each command ending to the viewer's stream having that table's tile changed (median, worst; 0 when
it was there before the command had exited), the tiles' order (never changed), the room state's
size, and the server's resident memory (first, most, last). --quick: 4 tables, 16 actions.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serving import Flood, Server, enough_files, served  # the tests' server in a process of its own
from simulate import random_match

from pasur_cli import Match, Store, enter_play, enter_table, parse_card, parse_rules

PACE = 0.3  # seconds between two actions


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def pasur(db: str, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "pasur_cli", "--db", db, *args], check=True, capture_output=True,
                   timeout=60, env={**os.environ, "PASUR_LANG": "en"})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--quiet", type=float, default=20.0, help="then seconds with the viewers on and no plays")
    parser.add_argument("--flood", type=int, default=0, help="the flood mode: this many idle connections")
    parser.add_argument("--files", type=int, default=1024, help="the server's open-file limit (flood mode)")
    parser.add_argument("--rounds", type=int, default=5, help="viewer visits under the flood (flood mode)")
    parser.add_argument("--quick", action="store_true",
                        help="5 viewers for 3 s and 2 s quiet; in flood and per-change modes a short run")
    parser.add_argument("--per-change", action="store_true", help="the scoreboard's work per change, 1 vs 40 deals")
    parser.add_argument("--room", action="store_true", help="the room's screen: several tables in play at once")
    parser.add_argument("--tables", type=int, default=8, help="tables in play (room mode)")
    parser.add_argument("--plays", type=int, default=200, help="actions recorded round the tables (room mode)")
    args = parser.parse_args()
    if args.room:
        room(4 if args.quick else args.tables, 16 if args.quick else args.plays)
        return
    if args.per_change:
        per_change(args.quick)
        return
    if args.flood:
        flood(args.flood, args.files, 2 if args.quick else args.rounds, 4 if args.quick else 12)
        return
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "load.db")
        pasur(db, "new", "Ali", "Sara")
        with served(db) as server:
            if args.quick:
                run(server, db, 5, 3.0, 2.0)
            else:
                run(server, db, args.viewers, args.seconds, args.quiet)


def run(server, db: str, viewers: int, seconds: float, quiet: float) -> None:  # type: ignore[no-untyped-def]
    seen: list[list[tuple[int, int, float]]] = [[] for _ in range(viewers)]  # (event id, log length, when)
    errors: list[str] = []
    connected = threading.Barrier(viewers + 1, timeout=60)

    def view(n: int) -> None:
        try:
            with server.events() as stream:
                first = stream.next()
                seen[n].append((first[0], first[1]["show"]["length"], time.monotonic()))
                connected.wait()
                while True:
                    eid, state = stream.next()
                    seen[n].append((eid, state["show"]["length"], time.monotonic()))
        except EOFError:  # the server stopped: the end of the run
            pass
        except Exception as err:  # reported below, not raised in a thread
            errors.append(f"viewer {n}: {err!r}")

    threads = [threading.Thread(target=view, args=(n,), daemon=True) for n in range(viewers)]
    for t in threads:
        t.start()
    connected.wait()
    rss: list[tuple[float, int]] = [(0.0, rss_kib(server.pid))]
    recorded: dict[int, float] = {}  # log length -> when the command recording it ended
    rng = random.Random(20)
    match = Match(["Ali", "Sara"], parse_rules("standard", []))
    actions = random_match(rng, match)  # each applied to ``match`` before the next is asked for
    start = time.monotonic()
    next_sample = start + 1
    length = 0
    while time.monotonic() - start < seconds:
        action = next(actions, None)
        if action is None:
            break
        match.apply(action)
        args = (["deal", *action["table"]] if action["type"] == "deal"
                else ["play", action["card"], "--take", " ".join(action["take"]), "--by", action["by"]])
        pasur(db, *args)
        length += 1
        recorded[length] = time.monotonic()
        while time.monotonic() >= next_sample:
            rss.append((next_sample - start, rss_kib(server.pid)))
            next_sample += 1
        time.sleep(max(0.0, PACE - (time.monotonic() - recorded[length])))
    # let the last state reach everyone: wait (bounded) until every viewer has the final length
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(not s or s[-1][1] != length for s in seen):
        time.sleep(0.05)
    rss.append((time.monotonic() - start, rss_kib(server.pid)))
    elapsed = time.monotonic() - start
    calm = [rss_kib(server.pid)]  # every viewer still connected, nothing recorded
    for _ in range(int(quiet)):
        time.sleep(1)
        calm.append(rss_kib(server.pid))
    report(seen, recorded, rss, errors, viewers, elapsed)
    print(f"then {int(quiet)} s with {viewers} viewers and no plays: RSS {calm[0]} -> {calm[-1]} KiB"
          f" ({calm[-1] - calm[0]:+d}), most {max(calm)}")


class Actions:
    """A random legal match, recorded one action at a time with the pasur command (timed); with
    ``mid``, into that match (--match)."""

    def __init__(self, db: str, mid: int | None = None, seed: int = 20, players: tuple[str, str] = ("Ali", "Sara")):
        self.db, self.mid = db, mid
        self.match = Match(list(players), parse_rules("standard", []))
        self.actions = random_match(random.Random(seed), self.match)

    def next(self) -> float:
        """Records the next action (a deal or a play); the seconds the command took."""
        action = next(self.actions)
        self.match.apply(action)
        args = (["deal", *action["table"]] if action["type"] == "deal"
                else ["play", action["card"], "--take", " ".join(action["take"]), "--by", action["by"]])
        if self.mid is not None:
            args += ["--match", str(self.mid)]
        start = time.monotonic()
        pasur(self.db, *args)
        return time.monotonic() - start


def timed(step: Callable[[], float]) -> float:
    """What ``step`` measured, or infinity when it got no answer (30 s) or a wrong one."""
    try:
        return step()
    except (OSError, EOFError, AssertionError):
        return math.inf


def update(server: Server, actions: Actions, took: list[float]) -> float:
    """Seconds from a recorded action's command ending to a viewer's stream having it (the
    viewer connected before it); the command's own time goes to ``took``."""
    with server.events() as stream:
        seen = stream.next()[0]
        took.append(actions.next())
        ended = time.monotonic()
        while stream.next()[0] <= seen:
            pass
        return time.monotonic() - ended


def flood(count: int, files: int, rounds: int, plays: int) -> None:
    if not enough_files(count):
        sys.exit(f"this process cannot open {count} connections (its open-file limit)")
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "flood.db")
        stderr = Path(folder) / "stderr"
        pasur(db, "new", "Ali", "Sara")
        actions = Actions(db)
        with served(db, files=files, stderr=stderr) as server:
            calm = [actions.next() for _ in range(plays)]
            calm_page = [server.load_page() for _ in range(rounds)]
            start = time.monotonic()
            with Flood(server.port, count) as idle:
                opened = time.monotonic() - start
                held, most_files = idle.held(), server.open_files()
                pages, updates, busy = [], [], []
                for _ in range(rounds):
                    pages.append(timed(server.load_page))
                    most_files = max(most_files, server.open_files())
                    for _ in range(max(1, plays // rounds)):
                        updates.append(timed(lambda: update(server, actions, busy)))
                    held = max(held, idle.held())
                    time.sleep(1)  # the rounds spread over more than a header timeout
                while len(busy) < plays:  # the viewer got no answer: time the commands anyway
                    busy.append(actions.next())
                most_held, opened_all, closed = idle.most, idle.opened, idle.closed
        said = stderr.read_text(errors="replace").splitlines()
    median = statistics.median
    print(f"flood: {count} idle connections to a server with an open-file limit of {files}, opened in {opened:.1f} s;"
          f" held open at once (this side's count): up to {most_held}; {opened_all} opened in all,"
          f" {closed} closed by the server")
    print(f"server's open files: most {most_files} (limit {files})")
    print(f"viewer, time to the page: without the flood median {median(calm_page):.3f} s;"
          f" under it median {median(pages):.3f} s, worst {max(pages):.3f} s ({len(pages)} visits)")
    print(f"viewer, time from `pasur play` ending to the update: median {median(updates):.3f} s,"
          f" worst {max(updates):.3f} s ({len(updates)} updates)")
    print(f"server stderr: {len(said)} lines, {sum('Traceback' in line for line in said)} tracebacks")
    for line in said[:5]:
        print(f"  | {line}")
    print(f"`pasur deal`/`play`: median {median(calm):.3f} s without the flood, {median(busy):.3f} s with it"
          f" (ratio {median(busy) / median(calm):.2f}; {len(calm)} and {len(busy)} commands)")


def cpu_ns(pid: int) -> int:
    """Nanoseconds of CPU the process ``pid`` has run, all its threads (the scheduler's count)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(FileNotFoundError):  # a thread that ended meanwhile
            total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[0])
    return total


def room(tables: int, plays: int) -> None:
    names = ["Ali", "Sara", "Reza", "Mina", "Omid", "Nasrin", "Kian", "Shirin", "Babak", "Parisa", "Dara", "Laleh"]
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "room.db")
        seats = [(names[(2 * n) % len(names)] + str(n + 1), names[(2 * n + 1) % len(names)] + str(n + 1))
                 for n in range(tables)]
        for first, second in seats:
            pasur(db, "new", first, second)
        games = [Actions(db, n + 1, seed=n, players=seats[n]) for n in range(tables)]
        with served(db) as server, server.events() as viewer:
            _, state = viewer.next()
            order = [t["match"] for t in state["room"]]  # type: ignore[index]
            rss = [rss_kib(server.pid)]
            delays, took, orders, size = [], [], {tuple(order)}, 0
            lengths = dict.fromkeys(order, 0)
            for step in range(plays):
                mid = step % tables + 1
                took.append(games[mid - 1].next())
                lengths[mid] += 1
                ended = time.monotonic()
                while True:
                    _, state = viewer.next()
                    tiles = {t["match"]: t for t in state["room"]}  # type: ignore[index]
                    if tiles[mid]["length"] == lengths[mid]:
                        break
                delays.append(time.monotonic() - ended)
                orders.add(tuple(tiles))
                size = max(size, len(json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode()))
                rss.append(rss_kib(server.pid))
    median = statistics.median
    print(f"the room's screen: {tables} tables in play, {plays} actions recorded round them, one viewer")
    print(f"time from `pasur deal`/`play --match N` ending to the room's stream having that tile: median"
          f" {median(delays) * 1000:.0f} ms, worst {max(delays) * 1000:.0f} ms (the commands: median"
          f" {median(took) * 1000:.0f} ms)")
    print(f"tiles' order: {'never changed' if len(orders) == 1 else f'{len(orders)} orders seen'}"
          f" {sorted(orders)[0]}; room state: at most {size} bytes")
    print(f"server RSS (KiB): first {rss[0]}, most {max(rss)}, last {rss[-1]}")


def changes(deals: int, plays: int, count: int) -> list[float]:
    """Seconds of the scoreboard server's CPU for each of ``count`` actions recorded in a match stored
    with ``deals`` finished deals and ``plays`` plays of the next one (a random legal match): from
    just before the action is recorded to one viewer's stream having the state of it, less what
    the server spends idle (its look at the file every tenth of a second) over that time."""
    rules = parse_rules("standard", ["fixed_deals=100"])
    match = Match(["Ali", "Sara"], rules)
    actions = random_match(random.Random(deals), match)  # each applied to ``match`` before the next is asked for
    history: list[dict[str, Any]] = []
    while len(match.results) < deals or (match.deal.played if match.deal else -1) < plays:
        history.append(next(actions))
        match.apply(history[-1])
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "per-change.db")
        writer = Store(path, write=True, create=True)
        mid = writer.create(["Ali", "Sara"], rules, 0, history)
        took = []
        with served(path) as server, server.events() as stream:
            stream.next()  # the first state
            start, idle = time.perf_counter(), cpu_ns(server.pid)
            time.sleep(1.0)
            idle = (cpu_ns(server.pid) - idle) / (time.perf_counter() - start)  # ns a second, idle
            for action in itertools.islice(actions, count):
                match.apply(action)
                start, before = time.perf_counter(), cpu_ns(server.pid)
                if action["type"] == "deal":
                    enter_table(writer, mid, action["table"])
                else:
                    enter_play(writer, mid, parse_card(action["card"]), [parse_card(c) for c in action["take"]])
                while stream.next()[1].get("show", {}).get("length") != writer.length(mid):  # type: ignore[union-attr]
                    pass
                spent = cpu_ns(server.pid) - before - idle * (time.perf_counter() - start)
                took.append(max(spent, 0.0) / 1e9)
        writer.close()
    return took


def per_change(quick: bool) -> None:
    plays, count = (40, 12) if quick else (0, 98)
    print(f"the scoreboard's work per change (`pasur serve`'s CPU from an action recorded to a viewer having it,"
          f" idle polling taken off), {count} actions recorded from play {plays}")
    print(f"{'match':<14}{'median':>10}{'mean':>10}{'worst':>10}")
    means = []
    for deals in (0, 39):
        took = changes(deals, plays, count)
        means.append(statistics.mean(took))
        print(f"{f'in deal {deals + 1}':<14}{statistics.median(took) * 1000:>8.2f} ms{means[-1] * 1000:>7.2f} ms"
              f"{max(took) * 1000:>7.2f} ms")
    print(f"ratio of the means, deal 40 to deal 1: {means[1] / means[0]:.2f} (goal: at most 2)")


def report(seen, recorded, rss, errors, viewers, elapsed) -> None:  # type: ignore[no-untyped-def]
    lengths = set(recorded)
    every_id = sum(bool(s) and [e for e, _, _ in s] == list(range(s[0][0], s[-1][0] + 1)) for s in seen)
    every_length = sum(lengths <= {n for _, n, _ in s} for s in seen)
    delays = [when - recorded[n] for s in seen for _, n, when in s[1:] if n in recorded]
    delays.sort()
    print(f"{viewers} viewers, {len(recorded)} actions recorded in {elapsed:.1f} s")
    print(f"viewers that saw every state the server sent (no event id skipped): {every_id} of {viewers}")
    print(f"viewers that saw every recorded log length: {every_length} of {viewers}")
    print(f"states delivered: {sum(len(s) - 1 for s in seen)} (expected {viewers * len(recorded)})")
    if delays:
        print(f"delay from a command's end to a viewer having it: median {statistics.median(delays) * 1000:+.0f} ms,"
              f" 95th percentile {delays[int(len(delays) * 0.95)] * 1000:+.0f} ms, worst {delays[-1] * 1000:+.0f} ms"
              " (negative: the state was out before the recording process had exited)")
    half = [kib for t, kib in rss if t >= rss[-1][0] / 2]
    print(f"server RSS (KiB): first {rss[0][1]}, last {rss[-1][1]}, most {max(k for _, k in rss)};"
          f" second half: {half[0]} -> {half[-1]} ({half[-1] - half[0]:+d})")
    print("samples (s: KiB): " + ", ".join(f"{t:.0f}: {k}" for t, k in rss))
    for error in errors:
        print(error)


if __name__ == "__main__":
    main()
