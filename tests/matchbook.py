"""Random whole matches built by the engine, for the record-book, log and chart tests: played
deals and tallied ones (from a deal played aside, by piles or by counts), finished or cut short,
stored in a database as `pasur import` stores them."""

from __future__ import annotations

import random
from pathlib import Path

import simulate
from simulate import random_plays, random_table

from pasur_cli.engine.deal import Deal
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import Rules, parse_rules
from pasur_cli.engine.scoring import PileCount
from pasur_cli.store.database import Store

NAMES = ["Ali", "Sara", "Reza", "Mina", "Zoë", "Dara"]


def spelt(rng: random.Random, name: str) -> str:
    """The name as someone might type it this time."""
    return rng.choice([name, name.lower(), name.upper(), name])


def random_tally(rng: random.Random, match: Match) -> dict:
    """A tally action for the next deal: a deal played aside, given by its piles or its counts."""
    table, stock = random_table(rng, match.rules)
    deal = Deal(match.players, match.seat_sides, match.players.index(match.dealer), match.rules, table,
                match.totals)
    for player, card, take in random_plays(rng, deal, stock):
        deal.play(card, take, player)
    if rng.random() < 0.5:
        return {"type": "tally", "piles": {s: [c.code for c in p] for s, p in deal.piles.items()},
                "surs": dict(deal.surs)}
    counts = {}
    for side, pile in deal.piles.items():
        p = PileCount.of(pile)
        counts[side] = {"clubs": p.clubs, "aces": p.aces, "jacks": p.jacks, "two_clubs": p.two_clubs,
                        "ten_diamonds": p.ten_diamonds, "seven_diamonds": p.seven_diamonds}
    return {"type": "tally", "counts": counts, "surs": dict(deal.surs)}


def random_actions(rng: random.Random, match: Match, tallies: float = 0.3) -> list[dict]:
    """Actions that play ``match`` to its end (applied to it as they are made)."""
    actions = []
    while not match.finished:
        if rng.random() < tallies:
            actions.append(random_tally(rng, match))
            match.apply(actions[-1])
            continue
        table, stock = random_table(rng, match.rules)
        actions.append({"type": "deal", "table": [c.code for c in table]})
        match.apply(actions[-1])
        for player, card, take in random_plays(rng, match.deal, stock):
            actions.append({"type": "play", "card": card.code, "take": [c.code for c in take], "by": player})
            match.apply(actions[-1])
    return actions


def random_setup(rng: random.Random) -> tuple[list[str], object, int]:
    """Players (2, 3 or 4; teams or solo), rules and the first dealer of a short random match."""
    count = rng.choice([2, 3, 4])
    players = [spelt(rng, n) for n in rng.sample(NAMES, count)]
    overrides = [rng.choice(["target=31", "target=45", "fixed_deals=2", "fixed_deals=3"])]
    if count == 4:
        overrides.append(rng.choice(["teams=true", "teams=false"]))
    rules = parse_rules(rng.choice(["standard", "pagat"]), overrides)
    return players, rules, rng.randrange(count)


def random_match(rng: random.Random, finished: bool = True) -> tuple[list[str], object, int, list[dict], Match]:
    """(players, rules, dealer, actions, replayed match) of a random match; not ``finished``: cut
    after a random action before its end."""
    players, rules, dealer = random_setup(rng)
    actions = random_actions(rng, Match(players, rules, dealer))
    if not finished:
        actions = actions[:rng.randrange(len(actions))]
    return players, rules, dealer, actions, Match.replay(players, rules, dealer, actions)


def stored(path: Path, matches: list[tuple[list[str], object, int, list[dict], Match]]) -> list[int]:
    """Store the matches in the database at ``path``; their ids, in order."""
    store = Store(str(path), create=True)
    try:
        return [store.create(players, rules, dealer, actions, match=match)
                for players, rules, dealer, actions, match in matches]
    finally:
        store.close()


def stored_match(path, players: list[str], rules: Rules, seed: int, deals: int, plays: int = 0) -> Match:
    """One match stored directly, as an import or a hand edit leaves it (names, actions and
    snapshots consistent): ``deals`` finished deals of random legal plays drawn from ``seed``, then
    the next deal's table and ``plays`` plays of it. Returns the engine's twin, at the same point."""
    engine, actions = Match(players, rules), []
    for action in simulate.random_match(random.Random(seed), engine):
        engine.apply(action)
        actions.append(action)
        if len(engine.results) == deals and engine.deal is not None and len(engine.deal.plays) == plays:
            break
    stored(path, [(list(players), rules, 0, actions, Match.replay(list(players), rules, 0, actions))])
    return engine


# -- the largest matches pasur holds (ACTIONS_MOST actions) ------------------------------------
WIDE_NAMES = ["\U0001d538" * 39 + letter for letter in "ABCD"]  # 40 characters of 4 bytes each, the longest
WIDE_TIME = '"' * 64  # the longest time a record may give (MAX_TIME), each character written as two in JSON


def largest_match(kind: str, seed: int = 0, most: int | None = None) -> tuple[list[str], Rules, list[dict], list]:
    """(players, rules, actions, times) of a match of ``most`` actions (ACTIONS_MOST: the most a
    match holds), never finished: ``tallies``, random tallied deals by counts (the most deals);
    ``wide``, the widest tally repeated (four players of the longest names, every count and sur
    written, each with the longest time: the largest export); ``played``, deals played card by card."""
    from pasur_cli.engine.names import ACTIONS_MOST
    most = ACTIONS_MOST if most is None else most
    rng = random.Random(seed)
    if kind == "wide":
        players, rules = list(WIDE_NAMES), parse_rules("standard", ["teams=false", "fixed_deals=1000000"])
        counts = {name: {} for name in players}
        counts[players[0]] = {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True, "ten_diamonds": True}
        tally = {"type": "tally", "counts": counts, "surs": {name: 48 for name in players}}
        return players, rules, [tally] * most, [WIDE_TIME] * most
    players, rules = ["Ali", "Sara"], parse_rules("standard", ["fixed_deals=1000000"])
    match, actions = Match(players, rules), []
    while len(actions) < most:
        if kind == "tallies":
            actions.append(counted_tally(rng, players))
            continue
        table, stock = random_table(rng, rules)
        actions.append({"type": "deal", "table": [c.code for c in table]})
        match.apply(actions[-1])
        for player, card, take in random_plays(rng, match.deal, stock):
            if len(actions) == most:
                break
            actions.append({"type": "play", "card": card.code, "take": [c.code for c in take], "by": player})
            match.apply(actions[-1])
    return players, rules, actions, []


def counted_tally(rng: random.Random, sides: list[str]) -> dict:
    """A tally of two sides by random counts that add up (each side holding a few surs)."""
    clubs, aces, jacks, two, ten = (rng.randint(1, 12), rng.randint(0, 4), rng.randint(0, 4), rng.random() < .5,
                                    rng.random() < .5)
    first, second = sides
    return {"type": "tally", "counts": {
        first: {"clubs": clubs, "aces": aces, "jacks": jacks, "two_clubs": two, "ten_diamonds": ten},
        second: {"clubs": 13 - clubs, "aces": 4 - aces, "jacks": 4 - jacks, "two_clubs": not two,
                 "ten_diamonds": not ten}}, "surs": {first: rng.randint(0, 3), second: rng.randint(0, 3)}}


def store_largest(path: Path, kind: str, seed: int = 0, most: int | None = None) -> int:
    """``largest_match`` stored in the database at ``path`` (made if need be), as an import stores
    it (each action in its canonical form): its id."""
    players, rules, actions, times = largest_match(kind, seed, most)
    match = Match.replay(players, rules, 0, actions)
    store = Store(str(path), create=True)
    try:
        return store.create(players, rules, 0, match.log, times or None, match=match)
    finally:
        store.close()


def rules_as_lines(con) -> None:
    """Every match's rules as a file of a schema before 5 holds them (NAME=VALUE lines), for the
    tests that make such a file from one of today's."""
    import json

    from pasur_cli.engine.rules import rules_lines
    for mid, text in con.execute("SELECT id, rules FROM matches").fetchall():
        con.execute("UPDATE matches SET rules = ? WHERE id = ?", (rules_lines(Rules.from_dict(json.loads(text))), mid))
    con.commit()
