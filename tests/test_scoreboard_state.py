"""The scoreboard's state (pasur_cli.web.state) and ``Match.last_play``: the last play is the
replay's, and a long match's page is built without replaying its log (no server here; the served
page: tests/test_serve.py)."""

import random

from hypothesis import example, given
from hypothesis import strategies as st
from simulate import random_match, random_plays, random_table
from tier import sized

from pasur_cli.engine.cards import parse_card
from pasur_cli.engine.history import Played, event_dict, match_events
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.actions import enter_play, enter_table, enter_tally, take_back
from pasur_cli.store.database import Store
from pasur_cli.web.state import page_state

PLAYERS = ["Ali", "Sara"]
RULES = parse_rules("standard", ["fixed_deals=60"])
TALLY = {"type": "tally", "piles": {}, "surs": {}, "partial": False,
         "counts": {"Ali": {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True, "ten_diamonds": True},
                    "Sara": {}}}


def replayed_last(actions):
    """The last play of a match's whole log, as ``log --json`` prints it (None before any)."""
    events = match_events(PLAYERS, RULES, 0, actions)
    return next((event_dict(e) for e in reversed(events) if isinstance(e, Played)), None)


@given(st.integers(0, 2**32))
@sized(10)
def test_last_play_is_the_deal_in_progress_s_last_play_of_the_replay(seed):
    match = Match(PLAYERS, parse_rules("standard", ["fixed_deals=2"]))
    actions = []
    for action in random_match(random.Random(seed), match):
        match.apply(action)
        actions.append(action)
        events = match_events(match.players, match.rules, 0, actions)
        plays = [e for e in events if isinstance(e, Played) and match.deal is not None and e.deal == match.deal_number]
        assert match.last_play == (plays[-1].play if plays else None), len(actions)
    assert match.finished and match.last_play is None  # no deal in progress: its log says the last play


class Table:
    """A stored match written through the store's actions (as the commands write it), and the
    scoreboard's own connection to it."""

    def __init__(self, path, actions=()):
        self.store = Store(str(path), create=True)
        self.id = self.store.create(PLAYERS, RULES, 0, list(actions))
        self.reader = Store(str(path))

    def record(self, action):
        if action["type"] == "deal":
            enter_table(self.store, self.id, action["table"])
        elif action["type"] == "play":
            enter_play(self.store, self.id, parse_card(action["card"]), [parse_card(c) for c in action["take"]])
        else:
            enter_tally(self.store, self.id, action)

    def state(self):
        return page_state(self.reader, lambda store: (self.id, store.match(self.id)[1]))

    def log(self):
        return self.store.load(self.id, full=True).actions


def deal_actions(rng, match):
    """A random deal played card by card, applied to ``match`` as it goes: its table and plays."""
    table, stock = random_table(rng, match.rules)
    action = {"type": "deal", "table": [c.code for c in table]}
    match.apply(action)
    yield action
    for player, card, take in random_plays(rng, match.deal, stock):
        action = {"type": "play", "card": card.code, "take": [c.code for c in take], "by": player}
        match.apply(action)
        yield action


@given(st.integers(0, 2**32), st.lists(st.sampled_from(["played", "tallied", "undone"]), min_size=3, max_size=5))
@example(1, ["played", "tallied", "undone", "tallied"])  # the last play two deals back; undo across a deal's end
@sized(2)
def test_the_page_s_last_play_is_the_log_s_through_deals_tallies_and_undos(tmp_path_factory, seed, deals):
    """After every change, the page's last play is what a replay of the whole log says: in a deal,
    between deals, after a tallied deal (the play of a deal before it) and after an undo across a
    deal's end."""
    rng = random.Random(seed)
    table = Table(tmp_path_factory.mktemp("state") / "pasur.db")
    twin = Match(PLAYERS, RULES)
    for kind in deals:
        steps = [TALLY] if kind == "tallied" else list(deal_actions(rng, twin))
        for action in steps:
            if kind == "tallied":
                twin.apply(action)
            table.record(action)
            assert table.state()["last"] == replayed_last(table.log())
        if kind == "undone":  # three actions back across the deal's end, then played again
            for count in (1, 2):
                take_back(table.store, table.id, count)
                assert table.state()["last"] == replayed_last(table.log())
            assert table.state()["show"]["deal"] == len(twin.results)
            for action in steps[-3:]:
                table.record(action)
                assert table.state()["last"] == replayed_last(table.log())
    assert table.state()["score"]["deals"][-1]["number"] == len(deals)


def test_a_long_match_s_page_is_built_without_replaying_its_log(tmp_path, monkeypatch):
    """A match of 40 deals: after a play, after a deal's last play and after the next table, the
    page applies the deal in progress's actions and, while that deal has no play, those of the deal
    whose last play it shows: at most a deal and a table, not the log's 1,900 actions and more; and
    it says the replay's last play."""
    match = Match(PLAYERS, RULES)
    rng = random.Random(40)
    actions = [a for _ in range(39) for a in deal_actions(rng, match)]
    last = list(deal_actions(rng, match))
    table = Table(tmp_path / "pasur.db", actions + last[:40])
    applied = []
    real = Match.apply

    def counted(self, action, kind=None):
        applied.append(action)
        return real(self, action, kind)
    monkeypatch.setattr(Match, "apply", counted)
    for action in [*last[40:], next(deal_actions(rng, match))]:  # a play, the deal's last, the next table
        table.record(action)
        applied.clear()
        state = table.state()
        assert len(applied) <= 50, len(applied)  # a deal (its table, 48 plays) and the next table
        assert state["show"]["length"] > 1900
        assert state["last"] == replayed_last(table.log())
    assert state["show"]["deal"] == 41 and state["last"]["deal"] == 40
