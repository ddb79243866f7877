"""A record of many tallied deals repeats a few tallies, and the reader replays a tally equal to one
it replayed before at the same sur standing from that first replay. Here its answers are held to
the careful reading of the same record: each action checked field by field and applied to a match
alone, one after another. Records with repeated tallies, some written with a type changed, a side
spelt otherwise, a card named twice, counts that do not add up, a stranger's side, under a sur
limit reached mid-record and a match that ends before the record does."""

import json
import random
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tier import sized

from pasur_cli.engine.action import read_action
from pasur_cli.engine.cards import DECK
from pasur_cli.engine.errors import IllegalPlayError, NotationError, PasurError
from pasur_cli.engine.match import Match
from pasur_cli.engine.record import read_record
from pasur_cli.engine.rules import Rules, parse_rules

TEAMS = ["Ali", "José", "Reza", "Mina"]


def a_tally(rng: random.Random, sides: list[str], surs: int) -> dict:
    """A right tally of these sides: by piles (now and then partial) or by counts, now and then with
    up to ``surs`` surs held by one side (they may cancel)."""
    held = {rng.choice(sides): rng.randint(1, surs)} if surs and rng.random() < .4 else {}
    held.update({side: 0 for side in sides if rng.random() < .3})
    if rng.random() < .3:
        piles: dict[str, list[str]] = {side: [] for side in sides}
        cards = rng.sample(DECK, len(DECK) - (rng.randint(1, 5) if rng.random() < .3 else 0))
        for card in cards:
            piles[rng.choice(sides)].append(card.code)
        return {"type": "tally", "piles": piles, "partial": len(cards) < len(DECK), "surs": held}
    counts = {side: {"clubs": 0, "aces": 0, "jacks": 0, "two_clubs": False, "ten_diamonds": False,
                     "seven_diamonds": False} for side in sides}
    for key, most in (("clubs", 13), ("aces", 4), ("jacks", 4)):
        for _ in range(most):
            counts[rng.choice(sides)][key] += 1
    for flag in ("ten_diamonds", "seven_diamonds"):
        counts[rng.choice(sides)][flag] = True
    counts[rng.choice([s for s in sides if counts[s]["clubs"]])]["two_clubs"] = True
    if rng.random() < .5:  # written as a person writes it: what is none left out
        counts = {side: {k: v for k, v in c.items() if v} for side, c in counts.items()}
    return {"type": "tally", "counts": counts, "surs": held}


def changed(rng: random.Random, action: dict, how: str) -> dict:
    """``action`` written otherwise (a copy): a JSON type changed, a side spelt otherwise, a card
    named twice, counts that do not add up, a side that is none of the match's, cards in lowercase."""
    action = json.loads(json.dumps(action))
    field = "piles" if action.get("piles") else "counts"
    side = rng.choice(list(action[field]))
    if how == "type":
        if field == "counts":
            key = rng.choice(["clubs", "aces", "jacks", "two_clubs", "ten_diamonds"])
            value = action["counts"][side].get(key, 0 if key in ("clubs", "aces", "jacks") else False)
            action["counts"][side][key] = int(value) if isinstance(value, bool) else bool(value % 2)
        elif rng.random() < .5:
            action["partial"] = int(action["partial"])
        else:
            action["surs"][side] = bool(action["surs"].get(side, 1))
    elif how == "spelt":
        spelt = unicodedata.normalize("NFD", side) if "é" in side else f" {side} "
        action[field] = {(spelt if s == side else s): v for s, v in action[field].items()}
    elif how == "twice" and field == "piles" and action["piles"][side]:
        action["piles"][side].append(action["piles"][side][0])
    elif how == "twice" or how == "sum":
        action["counts" if field == "counts" else "surs"].setdefault(side, {} if field == "counts" else 0)
        if field == "counts":
            action["counts"][side]["aces"] = min(4, action["counts"][side].get("aces", 0) + 1)
        else:
            action["piles"][side] = action["piles"][side][:-1]  # a card missing (or, partial, two sides' cards)
    elif how == "stranger":
        action[field]["Nobody"] = action[field].pop(side)
    elif how == "lower" and field == "piles":
        action["piles"][side] = [card.lower() for card in action["piles"][side]]
    return action


def careful(doc: dict) -> tuple[type, str] | Match:
    """The record read the careful way: each action checked field by field and applied alone (what
    the reader did before it kept a tally's replay). The refusal as the reader words it, or the match."""
    match = Match(doc["players"], Rules(**doc["rules"]), 0)
    for number, entry in enumerate(doc["actions"], 1):
        try:
            action = read_action(entry["action"], complete=True)
        except NotationError as err:
            return NotationError, str(NotationError("action {number} of the record is refused: {reason}",
                                                    number=number, reason=err))
        try:
            match.apply(action)
        except PasurError as err:
            return IllegalPlayError, str(IllegalPlayError(
                "the record breaks a rule: action {number} cannot be replayed: {reason}", number=number, reason=err))
    return match


def containers(value: object) -> list[object]:
    """Every dict and list inside ``value``, itself included."""
    if isinstance(value, dict):
        return [value, *(c for v in value.values() for c in containers(v))]
    if isinstance(value, list):
        return [value, *(c for v in value for c in containers(v))]
    return []


def read_as_careful_reading_says(players: list[str], rules, actions: list[dict]):  # type: ignore[no-untyped-def]
    """The record of ``actions`` read and the careful reading's match (None when the record is
    refused), once the record is checked against the careful reading of each action alone: refused
    with its sentence, or the same actions, results (of the same JSON types: a score of 1 is never
    one of true) and totals."""
    doc = {"format": "pasur-match", "version": 1, "players": players, "dealer": players[0], "rules": rules.as_dict(),
           "actions": [{"at": "2026-01-01T00:00:00+00:00", "action": a} for a in actions]}
    expected = careful(json.loads(json.dumps(doc)))
    try:
        record = read_record(json.dumps(doc, ensure_ascii=False))
    except PasurError as err:
        assert (type(err), str(err)) == expected
        return None
    assert isinstance(expected, Match), expected
    assert record.actions == expected.log and record.match.totals == expected.totals
    assert json.dumps([r.as_dict() for r in record.match.results]) == json.dumps(
        [r.as_dict() for r in expected.results])
    return record, expected


@sized(40)
@given(st.integers(0, 10**6))
def test_a_record_of_repeated_tallies_reads_as_each_action_applied_alone(seed):
    """Each import of a record of repeated tallies (each written the same, or one of them written
    otherwise) is refused with the sentence of the careful reading, or gives its actions, results
    (types and all) and totals; no two of its actions share a dict or a list."""
    rng = random.Random(seed)
    players = TEAMS[:rng.choice([2, 3, 4])]
    overrides = [f"sur_limit={rng.choice([10, 25, 40])}" if rng.random() < .7 else "sur_limit=none",
                 f"fixed_deals={rng.randint(5, 90)}" if rng.random() < .5 else f"target={rng.randint(60, 900)}"]
    if rng.random() < .3:
        overrides.append("sur_cancel=true")
    rules = parse_rules(rng.choice(["standard", "pagat"]), overrides)
    sides = list(Match(players, rules).sides)
    pool = [a_tally(rng, sides, rng.choice([0, 0, 1, 3])) for _ in range(rng.randint(1, 6))]
    if rng.random() < .5:  # written as pasur exports them: each tally in its canonical form
        pool = [Match.replay(players, rules, 0, [a]).log[0].as_dict() for a in pool]
    actions = [rng.choice(pool) for _ in range(rng.randint(1, 60))]
    for _ in range(rng.choice([0, 0, 1, 2])):  # now and then one of them written otherwise
        at = rng.randrange(len(actions))
        actions[at] = changed(rng, actions[at], rng.choice(["type", "spelt", "twice", "sum", "stranger", "lower"]))
    read = read_as_careful_reading_says(players, rules, actions)
    if read is None:
        return
    record, expected = read
    assert record.texts == [a.line for a in record.actions] == [a.line for a in expected.log]
    inside = [id(c) for action in record.actions for c in containers(action)]
    assert len(inside) == len(set(inside))  # a change to one action changes no other
    assert all(kept is action for kept, action in zip(record.match.log, record.actions, strict=True))


@pytest.mark.parametrize("key,right,wrong", [("clubs", 1, True), ("aces", 0, False), ("two_clubs", True, 1),
                                             ("ten_diamonds", False, 0)])
def test_a_count_scored_before_is_no_count_of_the_other_type(key, right, wrong):
    """Equal counts are counted once (one PileCount for every tally that counts a side the same),
    but a JSON 1 is no true, nor false a 0: after the right count is scored, the count of the other
    type (Python holds them equal) is still refused, naming it."""
    from pasur_cli.engine.tally import tally_scores
    match = Match(["Ali", "Sara"], parse_rules("standard", []))
    counts = {"Ali": {"clubs": 1, "aces": 0, "jacks": 4, "two_clubs": True, "ten_diamonds": False},
              "Sara": {"clubs": 12, "aces": 4, "jacks": 0, "two_clubs": False, "ten_diamonds": True}}
    assert counts["Ali"][key] is right
    assert tally_scores(match, {"type": "tally", "counts": counts})["Ali"].clubs == 1
    counts["Ali"][key] = wrong
    with pytest.raises(NotationError, match=rf"{key}='?{wrong}'? is not allowed|a tally's {key} of Ali is"):
        tally_scores(match, {"type": "tally", "counts": counts})


def test_a_side_score_of_a_bool_held_keeps_it():
    """Equal scores of a side are made once, but only of whole numbers: surs held given as true
    (as a caller of score_deal may) are kept as given, as before, never as the 1 scored earlier."""
    from pasur_cli.engine.scoring import PileCount, score_deal
    rules = parse_rules("standard", [])
    piles = {"Ali": PileCount(13, 4, 4, True, True), "Sara": PileCount()}
    assert score_deal(piles, {"Ali": 1}, rules)["Ali"].surs.__class__ is int
    held = score_deal(piles, {"Ali": True}, rules)["Ali"]  # type: ignore[dict-item]
    assert held.surs is True and held == score_deal(piles, {"Ali": 1}, rules)["Ali"]


@sized(60)
@given(st.integers(0, 10**6), st.booleans(), st.sampled_from([0, 1]))
def test_counts_are_taken_exactly_when_they_add_up(seed, partial, seven):
    """Counts that plainly add up are taken at once (one pass), the rest asked rule by rule: a
    tally by counts is scored exactly when every count adds up to the cards there are (at most
    that, partial), the 2♣'s holder holds a club, and one side (at most one, partial) holds the 2♣,
    the 10♦ and, when it scores, the 7♦."""
    rng = random.Random(seed)
    match = Match(TEAMS[:rng.choice([2, 3])], parse_rules("standard", [f"seven_diamonds={seven}"]))
    sides = list(match.sides)
    most = {"clubs": 13, "aces": 4, "jacks": 4}
    fault = rng.choice(["none", "none", "count", "holders", "club"])  # at most one thing wrong, most often none
    off = rng.choice(list(most)) if fault == "count" else None
    counts: dict[str, dict] = {side: {} for side in sides}
    for key, cards in most.items():
        for _ in range(cards + (rng.choice([-1, 1]) if key == off else 0)):
            side = rng.choice(sides)
            counts[side][key] = counts[side].get(key, 0) + 1
    wrong = rng.choice(["two_clubs", "ten_diamonds", "seven_diamonds"]) if fault == "holders" else None
    for key in ("two_clubs", "ten_diamonds", "seven_diamonds"):
        for side in rng.sample(sides, rng.choice([0, 2]) if key == wrong else 1):
            counts[side][key] = True
    for side in sides:
        for key, cards in most.items():
            counts[side][key] = min(counts[side].get(key, 0), cards)
    for side in [s for s in sides if counts[s].get("two_clubs")]:  # the 2 of clubs is a club, unless that is wrong
        other = rng.choice([s for s in sides if s != side and counts[s]["clubs"]] or [s for s in sides if s != side])
        if fault == "club":
            counts[other]["clubs"], counts[side]["clubs"] = counts[other]["clubs"] + counts[side]["clubs"], 0
        elif not counts[side]["clubs"]:
            counts[other]["clubs"], counts[side]["clubs"] = counts[other]["clubs"] - 1, 1
    totals = {key: sum(c.get(key, 0) for c in counts.values()) for key in most}
    holders = {key: sum(1 for c in counts.values() if c.get(key)) for key in ("two_clubs", "ten_diamonds",
                                                                                "seven_diamonds")}
    if not seven:
        holders.pop("seven_diamonds")
    adds_up = (all(total <= most[key] if partial else total == most[key] for key, total in totals.items())
               and all(n <= 1 if partial else n == 1 for n in holders.values())
               and all(c.get("clubs") for c in counts.values() if c.get("two_clubs")))
    try:
        match.tally(counts=counts, partial=partial)
    except IllegalPlayError:
        assert not adds_up
    else:
        assert adds_up


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=12)


def swapped(value: object) -> object:
    """``value`` (a copy) with its first true or false written as the number Python holds it equal
    to, or its first 0 or 1 as that bool; ``value`` itself when it holds neither."""
    done = False

    def walk(v: object) -> object:
        nonlocal done
        if done:
            return v
        if isinstance(v, bool) or (isinstance(v, int) and v in (0, 1)):
            done = True
            return int(v) if isinstance(v, bool) else bool(v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        return v
    return walk(value)


@sized(60)
@given(st.integers(0, 10**6), st.sampled_from(["alike", "true for 1", "reordered"]), st.integers(1, 4))
def test_a_tally_is_known_again_only_when_written_exactly_alike(seed, how, repeats):
    """A tally repeated in a record, written alike, with its first true or false written as 1 or 0
    (or 0 or 1 as a bool), or with its fields in another order: the record reads as the careful
    reading of each action alone says (refused with its sentence, or the same actions, results of
    the same JSON types and totals): a repeat is never taken for the tally read before when its
    JSON differs, a 1 is never a true."""
    rng = random.Random(seed)
    players = TEAMS[:rng.choice([2, 3, 4])]
    rules = parse_rules(rng.choice(["standard", "pagat"]), ["fixed_deals=20"])
    first = a_tally(rng, list(Match(players, rules).sides), 0)
    other = {"alike": lambda: json.loads(json.dumps(first)), "true for 1": lambda: swapped(first),
             "reordered": lambda: dict(reversed(list(json.loads(json.dumps(first)).items())))}[how]()
    actions = [first] * repeats + [other] + [first]
    read_as_careful_reading_says(players, rules, actions)


@sized(40)
@given(st.integers(0, 10**6))
def test_counts_and_scores_made_quickly_are_those_made_field_by_field(seed):
    """A tally's SideScores are each the value made field by field (equal, same hash, repr and
    dict, frozen), and a PileCount whose check fails is refused."""
    from pasur_cli.engine.scoring import PileCount, SideScore
    from pasur_cli.engine.tally import tally_scores
    rng = random.Random(seed)
    match = Match(TEAMS[:rng.choice([2, 3, 4])], parse_rules(rng.choice(["standard", "pagat"]), []))
    sides = list(match.sides)
    action = a_tally(rng, sides, 3)
    action.setdefault("surs", {}).clear()  # what the rules let any side hold
    if action.get("counts"):
        action["surs"][rng.choice(sides)] = rng.randint(0, 3)
    scores = tally_scores(match, action)
    for score in scores.values():
        plain = SideScore(**score.as_dict())
        assert (score, hash(score), repr(score), score.as_dict()) == (plain, hash(plain), repr(plain), plain.as_dict())
        with pytest.raises(AttributeError):
            score.total = 0  # type: ignore[misc]
    values = (rng.randint(0, 13), rng.randint(0, 4), rng.randint(0, 4), rng.random() < .5, False, False)
    with pytest.raises(NotationError):
        PileCount(14, *values[1:])


@sized(20)
@given(st.integers(0, 10**6))
def test_a_tallied_deal_is_added_as_every_finished_deal_is(seed):
    """A tally adds its result as a deal played out does (written out for speed): dealt by the
    player after the last dealer, finished at its place in the log, its scores in the totals, and
    taken back by undo."""
    rng = random.Random(seed)
    players = TEAMS[:rng.choice([2, 3, 4])]
    dealer = rng.randrange(len(players))
    match = Match(players, parse_rules("standard", ["fixed_deals=100"]), dealer)
    sides = list(match.sides)
    deals = rng.randint(1, 12)
    for _ in range(deals):
        action = a_tally(rng, sides, 0)
        assert match.dealer == players[(dealer + len(match.results)) % len(players)]
        match.apply(action)
    assert [r.dealer for r in match.results] == [players[(dealer + i) % len(players)] for i in range(deals)]
    assert [r.number for r in match.results] == list(range(1, deals + 1)) and all(r.tallied for r in match.results)
    assert match.completed_at == list(range(1, deals + 1))
    assert match.totals == {s: sum(r.scores[s].total for r in match.results) for s in sides}
    assert match.totals == dict(match.running_totals()[-1])
    match.undo()
    assert len(match.results) == deals - 1 and match.completed_at == list(range(1, deals))
    assert match.totals == {s: sum(r.scores[s].total for r in match.results) for s in sides}


@pytest.mark.parametrize("between", [[], [{"type": "deal", "table": ["5C", "9D", "3H", "KS"]}]])
def test_a_tally_read_before_is_refused_while_a_deal_is_played(between):
    """A tally written as one replayed before is still asked whether the match takes a tally now:
    after a deal's table, while it is played card by card, it is refused as the careful reading
    refuses it (and taken again once no deal is in progress)."""
    tally = {"type": "tally", "counts": {"Ali": {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True,
                                                 "ten_diamonds": True}, "Sara": {}}}
    doc = {"format": "pasur-match", "version": 1, "players": ["Ali", "Sara"], "rules": {},
           "actions": [{"at": "", "action": a} for a in [tally, *between, tally]]}
    expected = careful(json.loads(json.dumps(doc)))
    if between:
        with pytest.raises(IllegalPlayError, match="being played card by card") as refused:
            read_record(json.dumps(doc))
        assert (type(refused.value), str(refused.value)) == expected
    else:
        assert isinstance(expected, Match) and read_record(json.dumps(doc)).match.results == expected.results
