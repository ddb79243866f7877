"""Promise 2, generated: nothing enters the database that cannot be read back.

Hypothesis builds valid match records (random players, rules, played and tallied deals, stopped
anywhere), then changes one thing: a field's type or value anywhere in the document, a field
removed or added, or the text itself (NaN, Infinity, huge numbers, deep nesting, a lone
surrogate, garbage). Importing the result either is refused (exit 1 or 2, database byte for byte
unchanged) or succeeds, and then every command works on the imported match, and its export
imports again to the same match.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from simulate import random_plays, random_table
from tier import sized

from pasur_cli.cli.app import main
from pasur_cli.engine.cards import DECK
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.database import Store

NAMES = ["Ali", "Sara", "Reza", "Mina", "علی", "José"]
HOSTILE: list[object] = [
    None, True, False, 0, -1, 1, 7, 99, 10**6, 10**7, 2**63, -(2**63) - 1, 10**30, "", " ", "2S", "2S KH", "2S\t",
    "10♦", "qh", "ZZ", "\t", "Ali", "Sara", "Ali\tSara", "Al\u202eí", "\ud800", "x" * 500, [], ["2S"], ["2S", "2S"],
    [["2S"]], {}, {"type": "deal"}, {"a": 1}, [1, 2], ["AS", "2S", "3S", "4S"], "deal", "play", "tally", "none",
    "standard", "pagat", "sum11", "true", [None], {"Ali": 1}, {"Ali": ["AS"]}, {"Ali": {"clubs": 13}},
]


def build_record(rng: random.Random) -> dict:
    """A valid record: 2-4 players, a preset with a few overrides, played or tallied deals, stopped
    at a random action."""
    count = rng.choice([2, 2, 3, 4])
    players = rng.sample(NAMES, count)
    overrides = [f"fixed_deals={rng.randint(1, 3)}"]
    if count == 4 and rng.random() < 0.3:
        overrides.append("teams=false")
    rules = parse_rules(rng.choice(["standard", "pagat"]), overrides)
    dealer = rng.randrange(count)
    match = Match(players, rules, dealer)
    actions: list[dict] = []
    stop = rng.randint(0, 70)
    while not match.finished and len(actions) < stop:
        if rng.random() < 0.35:
            cards = [c.code for c in DECK]
            rng.shuffle(cards)
            piles = {side: [] for side in match.sides}
            for code in cards:
                piles[rng.choice(match.sides)].append(code)
            action = {"type": "tally", "piles": piles, "counts": {}, "surs": {s: 0 for s in match.sides},
                      "partial": False}
            match.apply(action)
            actions.append(action)
            continue
        table, stock = random_table(rng, rules)
        action = {"type": "deal", "table": [c.code for c in table]}
        match.apply(action)
        actions.append(action)
        for player, card, take in random_plays(rng, match.deal, stock):
            action = {"type": "play", "card": card.code, "take": [c.code for c in take], "by": player}
            match.apply(action)
            actions.append(action)
            if len(actions) >= stop:
                break
    return {"format": "pasur-match", "version": 1, "players": players, "dealer": players[dealer],
            "rules": rules.as_dict(), "created": "2026-01-01T00:00:00+00:00",
            "actions": [{"at": f"2026-01-01T00:00:{i % 60:02d}+00:00", "action": a} for i, a in enumerate(actions)]}


def paths(node: object, here: tuple = ()) -> list[tuple]:
    """Every place in the document: keys of objects and indexes of lists."""
    found = [here]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*here, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*here, index))
    return found


SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def respell(doc: dict, rng: random.Random) -> dict:
    """The record with cards in other notations (7♣, qh, 1s, TD), ``by`` left out or null, no
    dealer or creation time, the player names in another case: it means the same match."""
    def card(code: str) -> str:
        rank, suit = code[:-1], code[-1]
        rank = {"A": rng.choice(["A", "1", "a"]), "10": rng.choice(["10", "T", "t"])}.get(rank, rank)
        return rank + (SYMBOLS[suit] if rng.random() < 0.5 else suit.lower())
    for entry in doc["actions"]:
        action = entry["action"]
        if action["type"] == "deal":
            action["table"] = [card(c) for c in action["table"]]
        elif action["type"] == "play":
            action["card"] = card(action["card"])
            action["take"] = [card(c) for c in action["take"]]
            choice = rng.random()
            if choice < 0.3:
                del action["by"]
            elif choice < 0.5:
                action["by"] = None
            elif choice < 0.7:
                action["by"] = action["by"].upper()
        if rng.random() < 0.2:
            del entry["at"]
    if rng.random() < 0.5 and doc["dealer"] == doc["players"][0]:
        del doc["dealer"]
    if rng.random() < 0.5:
        del doc["created"]
    return doc


def mutate(doc: dict, rng: random.Random) -> str:
    """The record's text with one thing changed."""
    kind = rng.choice(["replace"] * 6 + ["drop", "add", "text", "other notation", "other notation"])
    if kind == "other notation":  # the same record written differently: it must be accepted as it means
        return json.dumps(respell(doc, rng), ensure_ascii=rng.random() < 0.5)
    if kind == "text":
        text = json.dumps(doc)
        return rng.choice([
            lambda: text.replace('"version": 1', '"version": NaN'),
            lambda: text.replace('"target": 62', '"target": Infinity').replace('"target": 62', '"target": -Infinity'),
            lambda: text.replace('"sur_points": 5', '"sur_points": 1e999'),
            lambda: text.replace('"sur_points": 5', '"sur_points": 5.0'),
            lambda: text.replace('"sur_points": 5', '"sur_points": ' + "9" * 5000),
            lambda: text[:rng.randrange(len(text))],
            lambda: text + "garbage",
            lambda: "\ufeff" + text,
            lambda: text.replace('"actions": [', '"actions": [' + "[" * 100_000 + "]" * 100_000 + ",", 1),
            lambda: text.replace('"Ali"', '"\\ud800"'),
            lambda: text.replace('"format"', '"format": "pasur-match", "format"', 1),
        ])()
    where = rng.choice(paths(doc)[1:])
    parent = doc
    for step in where[:-1]:
        parent = parent[step]
    last = where[-1]
    if kind == "drop":
        del parent[last]
    elif kind == "add" and isinstance(parent, dict):
        parent[rng.choice(["extra", "type", "comment", "Ali"])] = rng.choice(HOSTILE)
    elif kind == "add":
        parent.insert(rng.randrange(len(parent) + 1), rng.choice(HOSTILE))
    else:
        parent[last] = rng.choice(HOSTILE)
    return json.dumps(doc, ensure_ascii=True)


def run(runner: CliRunner, env: dict, *args: str):
    result = runner.invoke(main, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output
    return result


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A database that already holds one match (so a refusal has a file to leave alone)."""
    folder = tmp_path_factory.mktemp("fuzz")
    env = {"PASUR_DB": str(folder / "pasur.db"), "NO_COLOR": "1"}
    assert CliRunner().invoke(main, ["new", "Ali", "Sara"], env=env).exit_code == 0
    (folder / "pristine.db").write_bytes((folder / "pasur.db").read_bytes())
    return folder, env


@sized(20)  # each example imports a record and runs every reader on it
@given(st.integers(0, 2**32))
def test_a_mutated_record_is_refused_or_works_everywhere(base, seed):
    folder, env = base
    db = Path(env["PASUR_DB"])
    pristine = (folder / "pristine.db").read_bytes()
    db.write_bytes(pristine)
    rng = random.Random(seed)
    doc = build_record(rng)
    text = mutate(doc, rng)
    record = folder / "record.json"
    record.write_text(text, encoding="utf-8", errors="surrogatepass")
    runner = CliRunner()
    result = run(runner, env, "import", str(record))
    if result.exit_code != 0:
        assert result.exit_code in (1, 2), result.output
        assert result.output.startswith("Error: ") and len(result.output.strip().splitlines()) == 1, result.output
        assert db.read_bytes() == pristine
        return
    # accepted: it must read back, and every command must work on it
    store = Store(str(db))
    try:
        full = store.load(2, full=True)
        full.replay()
        store.match(2)
    finally:
        store.close()
    for args in (["matches"], ["show", "--match", "2"], ["show", "--json", "--match", "2"],
                 ["score", "--match", "2"], ["score", "--json", "--match", "2"]):
        assert run(runner, env, *args).exit_code == 0, args
    exported = run(runner, env, "export", "--match", "2")
    assert exported.exit_code == 0
    again = folder / "again.json"
    again.write_text(exported.output, encoding="utf-8")
    assert run(runner, env, "import", str(again)).exit_code == 1  # the same record: asks for --again
    assert run(runner, env, "import", "--again", str(again)).exit_code == 0
    copy = json.loads(run(runner, env, "export", "--match", "3").output)
    assert copy["actions"] == json.loads(exported.output)["actions"]  # canonical: it reads back the same
    if full.length:
        assert run(runner, env, "undo", "--match", "2").exit_code == 0
        assert run(runner, env, "show", "--match", "2").exit_code == 0
