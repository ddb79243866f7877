"""400 deals of random legal plays through `pasur session` over a pipe: the same scores as the
engine computes directly, and the session's memory does not grow with the number of deals.
A soak test (about two minutes): .ci/run runs it; the README's quick command does not."""

import json
import os
import random
import subprocess
import sys
import threading

import pytest
from simulate import new_match, random_match

from pasur_cli.engine.match import Match

DEALS = 400  # 19,600 actions: within the 20,000 a match holds
pytestmark = pytest.mark.soak


def session_lines(engine: Match, rng: random.Random) -> list[str]:
    lines = []
    for action in random_match(rng, engine):
        engine.apply(action)
        lines.append(" ".join(action["table"]) if action["type"] == "deal" else " ".join([action["card"], *action["take"]]))
    return lines


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def test_400_deals_through_a_session(pasur, db):
    overrides = [f"fixed_deals={DEALS}", "target=100000"]
    engine = new_match(pasur, ["Ali", "Sara"], "pagat", overrides)
    lines = session_lines(engine, random.Random(500))
    env = dict(os.environ, PASUR_DB=str(db), NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "pasur_cli", "session"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def feed():
        for line in lines:
            proc.stdin.write(line + "\n")
        proc.stdin.close()
    writer = threading.Thread(target=feed)
    writer.start()
    samples, errors = {}, []
    for out in proc.stdout:
        if out.startswith("Error:"):
            errors.append(out)
        for number in (50, DEALS):
            if out.startswith(f"Deal {number} (Ali dealt") or out.startswith(f"Deal {number} (Sara dealt"):
                samples[number] = rss_kib(proc.pid)
    writer.join()
    assert proc.wait() == 0, proc.stderr.read()
    assert errors == []
    score = json.loads(pasur("score", "--json").output)
    assert len(score["deals"]) == DEALS and score["finished"]
    assert score["totals"] == engine.totals and score["winner"] == engine.winner
    assert [d["scores"] for d in score["deals"]] == [{s: v.as_dict() for s, v in r.scores.items()} for r in engine.results]
    growth = samples[DEALS] - samples[50]
    print(f"session memory: {samples}")
    assert growth < 3 * 1024, f"the session grew by {growth} KiB between deal 50 and deal {DEALS}: {samples}"
