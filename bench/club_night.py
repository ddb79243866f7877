"""A whole simulated club night, with the event's page on the room's screen, and a season's standings.

    nice -n 10 python bench/club_night.py [--seed 7] [--target 62] [--events 50] [--quick]

The evening: `pasur event new` of 8 players, 4 Swiss rounds; `pasur serve --event` follows it
with one viewer on its event stream (as the TV's browser). Round by round, `pasur event pair`;
each round's first table is played out card by card with random legal plays (`pasur deal` /
`play --match N`), the others tallied deal by deal with random counts (`pasur tally --match N`)
until the match is won, and one table of round 3 is kept on paper (`pasur event result`). A late
arrival joins for round 2 (`event add`), a player leaves after round 2 (`event drop`). For every
command that changes the page, the time from the command ending to the viewer's stream having
the change (median, worst; 0 when it was there before the command had exited), and the server's
resident memory (first, most, last). Prints each round's pairings and the final standings.

The season: a file of EVENTS events (8 of 24 players each, 3 Swiss rounds; each round's first table
won by one tallied deal, the others given on paper), then `pasur event standings` timed on the
first event, the last one, and with no name (every event's tables read to find the one being
played). --quick: 4 players, 2 rounds, the evening's matches to 20 points, a season of 3 events.
Everything through the `pasur` command in processes; loopback only.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serving import Events, served  # the tests' server in a process of its own
from simulate import random_match

from pasur_cli import Match, parse_rules

PLAYERS = ["Maman", "Baba", "Sara", "Reza", "Nasrin", "Omid", "Kian", "Shirin"]
LATE, LEAVES = "Dara", "Omid"
TABLE = re.compile(r"Table (\d+): (\S+) against (\S+), match (\d+)\.")
State = dict[str, Any]


def pasur(db: str, *args: object) -> str:
    """`pasur ARGS` in a process of its own; what it printed. Raises CalledProcessError when it fails."""
    done = subprocess.run([sys.executable, "-m", "pasur_cli", "--db", db, *map(str, args)], check=True,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PASUR_LANG": "en"})
    return done.stdout


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


class Night:
    """The evening's database, its server's viewer and what was measured."""

    def __init__(self, db: str, viewer: Events, pid: int, first: State) -> None:
        self.db, self.viewer, self.pid, self.state = db, viewer, pid, first
        self.delays: list[float] = []
        self.rss = [rss_kib(pid)]
        self.commands = 0

    def run(self, args: list[object], shown: Callable[[State], bool]) -> str:
        """`pasur ARGS`, then the viewer's states until one ``shown`` holds of; the time from the
        command ending to that state noted (0 when the viewer had it before)."""
        said = pasur(self.db, *args)
        ended = time.monotonic()
        self.commands += 1
        while not shown(self.state["event"]):
            _, self.state = self.viewer.next()
            if "error" in self.state:
                raise RuntimeError(self.state["error"])
        self.delays.append(time.monotonic() - ended)
        self.rss.append(rss_kib(self.pid))
        return said


def tile(event: State, mid: int) -> State:
    return next(t["tile"] for t in event["tables"] if t["match"] == mid)


def counts(rng: random.Random, first: str, second: str) -> list[str]:
    """A deal's random counts for `pasur tally`: the 13 clubs, 4 aces, 4 jacks, 2♣ and 10♦ shared out."""
    clubs, aces, jacks = rng.randint(0, 13), rng.randint(0, 4), rng.randint(0, 4)
    two = clubs > 0 if clubs < 13 else True
    ten = rng.random() < 0.5
    yes = {True: "yes", False: "no"}
    return ["--count", f"{first}: clubs={clubs} aces={aces} jacks={jacks} 2c={yes[two]} 10d={yes[ten]}",
            "--count", f"{second}: clubs={13 - clubs} aces={4 - aces} jacks={4 - jacks} 2c={yes[not two]}"
            f" 10d={yes[not ten]}", "--surs", f"{first}={rng.randint(0, 1)}"]


def play_out(night: Night, mid: int, players: list[str], target: int, seed: int) -> None:
    """Match ``mid`` (``players``, the second deals first) played to its end with random legal plays."""
    match = Match(players, parse_rules("standard", [f"target={target}"]), 1)
    for action in random_match(random.Random(seed), match):
        match.apply(action)
        args: list[object] = (["deal", *action["table"]] if action["type"] == "deal"
                              else ["play", action["card"], "--take", " ".join(action["take"]), "--by", action["by"]])
        length = match.length
        night.run([*args, "--match", mid], lambda e, length=length: tile(e, mid)["length"] == length)


def tally_out(night: Night, mid: int, players: list[str], rng: random.Random) -> None:
    """Match ``mid`` tallied deal by deal, with random counts, until it is won."""
    length = 0
    while True:
        length += 1
        night.run(["tally", "--match", mid, *counts(rng, *players)],
                  lambda e, length=length: tile(e, mid)["length"] == length)
        if tile(night.state["event"], mid)["winner"]:
            return


def evening(players: list[str], rounds: int, target: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "club.db")
        pasur(db, "event", "new", "Club night", "--players", *players, "--rounds", rounds, "--rule", f"target={target}")
        start = time.monotonic()
        with served(db, "--event", "Club night") as server, server.events() as viewer:
            night = Night(db, viewer, server.pid, viewer.next()[1])
            for number in range(1, rounds + 1):
                if number == 2:
                    night.run(["event", "add", LATE], lambda e: any(p["name"] == LATE for p in e["standings"]))
                if number == 3:
                    night.run(["event", "drop", LEAVES],
                              lambda e: any(p["name"] == LEAVES and p["dropped"] for p in e["standings"]))
                said = night.run(["event", "pair"], lambda e, n=number: e["round"] == n)
                print(said.rstrip())
                for table, first, second, mid in TABLE.findall(said):
                    if table == "1":
                        play_out(night, int(mid), [first, second], target, seed + number)
                    elif table == "2" and number == 3:
                        score = (target + 4, rng.randint(10, target))
                        night.run(["event", "result", table, f"{score[0]}-{score[1]}"],
                                  lambda e, t=int(table), s=list(score): e["tables"][t - 1]["score"] == s)
                    else:
                        tally_out(night, int(mid), [first, second], rng)
            took = time.monotonic() - start
            print(pasur(db, "event", "standings").rstrip())
    ms = [d * 1000 for d in night.delays]
    print(f"\nthe evening: {night.commands} commands in {took:.0f} s, `pasur serve --event` with one viewer")
    print(f"time from a command ending to the event page's stream having its change: median {statistics.median(ms):.0f}"
          f" ms, worst {max(ms):.0f} ms")
    print(f"server RSS (KiB): first {night.rss[0]}, most {max(night.rss)}, last {night.rss[-1]}")


def season(events: int, seed: int) -> None:
    rng = random.Random(seed)
    everyone = [f"P{i}" for i in range(1, 25)]
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "season.db")
        start = time.monotonic()
        for number in range(1, events + 1):
            pasur(db, "event", "new", f"Night {number}", "--players", *rng.sample(everyone, 8), "--rounds", 3)
            for _ in range(3):
                for table, first, second, mid in TABLE.findall(pasur(db, "event", "pair")):
                    if table == "1":
                        winner, loser = (first, second) if rng.random() < 0.5 else (second, first)
                        pasur(db, "tally", "--match", mid, "--count",
                              f"{winner}: clubs=13 aces=4 jacks=4 2c=yes 10d=yes", "--count",
                              f"{loser}: clubs=0 aces=0 jacks=0 2c=no 10d=no", "--surs", f"{winner}=9")
                    else:
                        x, y = 62, rng.randint(20, 61)
                        pasur(db, "event", "result", table, f"{x}-{y}" if rng.random() < 0.5 else f"{y}-{x}")
        made = time.monotonic() - start
        print(f"\nthe season: {events} events of 8 players, 3 rounds each, made in {made:.0f} s"
              f" ({os.path.getsize(db) // 1024} KiB)")
        for args in (["--event", "Night 1"], ["--event", f"Night {events}"], [], ["--json"]):
            times = []
            for _ in range(3):
                begun = time.perf_counter()
                pasur(db, "event", "standings", *args)
                times.append(time.perf_counter() - begun)
            print(f"`pasur event standings {' '.join(args) or '(no name: the newest being played)'}`:"
                  f" {min(times) * 1000:.0f} ms (best of 3), {max(times) * 1000:.0f} ms (worst)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--target", type=int, default=62, help="the evening's matches are played to this")
    parser.add_argument("--events", type=int, default=50, help="events in the season")
    parser.add_argument("--quick", action="store_true", help="4 players, 2 rounds, to 20 points; 3 events")
    args = parser.parse_args()
    if args.quick:
        evening(PLAYERS[:4], 2, 20, args.seed)
        season(3, args.seed)
    else:
        evening(PLAYERS, 4, args.target, args.seed)
        season(args.events, args.seed)


if __name__ == "__main__":
    main()
