"""A season of 50 events (8 players each, 3 Swiss rounds, half the tables finished by a tallied
match, half on paper) in one file: every event's standings are what its tables say, and reading
one stays quick however many events the file holds. Prints the figures (run with -s)."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time

import pytest
from test_event import by_hand, tally_out


@pytest.mark.soak
def test_a_season_of_fifty_events(pasur, db):
    rng = random.Random(1)
    everyone = [f"P{i}" for i in range(1, 25)]
    for number in range(1, 51):
        assert pasur("event", "new", f"Night {number}", "--players", *rng.sample(everyone, 8), "--rounds", 3).exit_code == 0
        for round_number in range(1, 4):
            assert pasur("event", "pair").exit_code == 0
            con = sqlite3.connect(db)
            tables = con.execute("SELECT table_no, match_id FROM pairings WHERE round = ? AND event_id ="
                                 " (SELECT max(id) FROM events)", (round_number,)).fetchall()
            seated = {mid: players.split("\n") for mid, players in con.execute("SELECT id, players FROM matches")}
            con.close()
            for table, mid in tables:
                if table <= 2:
                    tally_out(pasur, mid, *rng.sample(seated[mid], 2))
                else:
                    x, y = 62, rng.randint(20, 61)
                    assert pasur("event", "result", table, f"{x}-{y}" if rng.random() < .5 else f"{y}-{x}").exit_code == 0
    con = sqlite3.connect(db)
    for number in (1, 25, 50):
        people = [n for (n,) in con.execute("SELECT name FROM entrants WHERE event_id = ?", (number,))]
        got = json.loads(pasur("event", "standings", "--event", f"Night {number}", "--json").output)["standings"]
        tables = []
        for first, second, paper, mid in con.execute(
                "SELECT a.name, b.name, p.paper, p.match_id FROM pairings p JOIN entrants a ON"
                " a.event_id = p.event_id AND a.number = p.first LEFT JOIN entrants b ON b.event_id = p.event_id AND"
                " b.number = p.second WHERE p.event_id = ?", (number,)):
            if second is None:
                tables.append((first, None, (0, 0)))
            elif paper is not None:
                tables.append((first, second, tuple(json.loads(paper))))
            else:  # tallied: the winner took 65 of one deal
                won = json.loads(pasur("show", "--json", "--match", mid).output)["winner"]
                tables.append((first, second, (65, 0) if won == first else (0, 65)))
        assert {p["name"]: (p["wins"], p["buchholz"], p["difference"], p["scored"]) for p in got} == by_hand(people, tables)
    con.close()
    for args in (["--event", "Night 1"], ["--event", "Night 50"], []):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pasur_cli", "event", "standings", *args], capture_output=True)
        took = time.perf_counter() - start
        assert done.returncode == 0, done.stderr
        print(f"event standings {' '.join(args) or '(newest unfinished)'} of 50 events: {took:.2f} s")
        assert took < 10  # a whole season's file: seconds at most, on a machine shared by many
