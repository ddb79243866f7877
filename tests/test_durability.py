"""Crashes and concurrency: killed processes lose nothing completed; two writers never duplicate."""

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from simulate import cli_args, random_match

from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.database import Store

PASUR = [sys.executable, "-m", "pasur_cli"]


def one_deal(seed: int, players=("Ali", "Sara")) -> list[dict]:
    engine = Match(list(players), parse_rules("pagat", ["fixed_deals=1"]))
    actions = []
    for action in random_match(random.Random(seed), engine):
        engine.apply(action)
        actions.append(action)
    return actions


def log(db) -> list[dict]:
    store = Store(db)
    try:
        record = store.load(store.match_ids()[0], full=True)
        record.replay()  # must replay cleanly
        return [action.as_dict() for action in record.actions]
    finally:
        store.close()


def test_fault_after_append_records_nothing(db, pasur):
    """The process that dies inside the transaction is a real one; the commands around it run in-process."""
    assert pasur("new", "Ali", "Sara", "--rules", "pagat").exit_code == 0
    actions = one_deal(1)
    assert pasur(*cli_args(actions[0])).exit_code == 0
    before = db.read_bytes()
    env = dict(os.environ, PASUR_FAULT="after-append")
    crashed = subprocess.run([*PASUR, *cli_args(actions[1])], env=env, capture_output=True)
    assert crashed.returncode == 70  # died inside the transaction, before COMMIT
    assert log(db) == actions[:1]
    assert db.read_bytes() == before  # the hot journal rolled the half-made change back
    done = pasur(*cli_args(actions[1]))
    assert done.exit_code == 0, done.output
    assert log(db) == actions[:2]


@pytest.mark.parametrize("plays", [6, pytest.param(48, marks=pytest.mark.soak)])
def test_sigkill_at_random_moments_loses_no_completed_play(db, plays):
    """Each play's command is killed once at a random moment of the later part of its run, where it
    opens the database and writes (the moments scale with how long the last whole run took, so a
    slow or busy machine is tested as a fast one is), then run again and let finish."""
    start = time.perf_counter()
    subprocess.run([*PASUR, "new", "Ali", "Sara", "--rules", "pagat"], check=True, capture_output=True)
    lifetime = time.perf_counter() - start
    actions = one_deal(2)[:plays]
    rng = random.Random(3)
    recorded, tried, kills = 0, -1, 0
    while recorded < len(actions):
        again = tried == recorded  # its first run was killed before it committed
        tried = recorded
        start = time.perf_counter()
        proc = subprocess.Popen([*PASUR, *cli_args(actions[recorded])], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            code = proc.wait(timeout=None if again else rng.uniform(0.4, 1.2) * lifetime)
            lifetime = time.perf_counter() - start
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            kills += 1
            code = proc.wait()
        now = log(db)
        assert now in (actions[:recorded], actions[:recorded + 1])
        if code == 0 or again:
            assert code == 0 and now == actions[:recorded + 1]  # a play that said it was done is there
        recorded = len(now)
    assert kills > 0  # about three runs in four are killed


WORKER = """
import json, sys
from click import ClickException
from pasur_cli.cli.app import main
accepted = []
for number, args in enumerate(json.loads(sys.argv[1])):
    try:
        main.main(args=args, prog_name="pasur", standalone_mode=False)
        accepted.append(number)
    except ClickException:
        pass
print(json.dumps(accepted))
"""


@pytest.mark.parametrize("count", [13, pytest.param(None, marks=pytest.mark.soak)])
def test_two_writers_record_every_play_once_in_order(db, pasur, count):
    """Both writers try every action of the deal (its table and 12 plays; the whole deal under soak)."""
    assert pasur("new", "Ali", "Sara", "--rules", "pagat", "--rule", "fixed_deals=1").exit_code == 0
    actions = one_deal(4)[:count]
    batch = json.dumps([cli_args(a) for a in actions])
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, batch], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True) for _ in range(2)]
    accepted = [json.loads(w.communicate()[0].strip().splitlines()[-1]) for w in workers]
    assert log(db) == actions
    assert sorted(accepted[0] + accepted[1]) == list(range(len(actions)))  # each play exactly once
