"""The room (pasur_cli.web.room): which tables are in play and what the scoreboard serves of them,
without a browser: the root's state is the tiles of two or more tables, each table's board has its
own address, a play at one table leaves the others' tiles and places alone. (In Chromium:
tests/test_serve_browser.py.)"""

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pasur_cli.engine.cards import parse_card
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.actions import enter_table
from pasur_cli.store.database import Store
from pasur_cli.store.recent import Changed, last_changes
from pasur_cli.web.room import IN_PLAY, LINGER, Room, in_play, tile
from pasur_cli.web.state import page_state

NOW = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
RULES = parse_rules("standard", ["target=10"])
WON = {"type": "tally", "piles": {}, "surs": {}, "partial": False,  # 20 points for Ali: won at 10
       "counts": {"Ali": {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True, "ten_diamonds": True}, "Sara": {}}}


def stamp(when):
    return when.strftime("%Y-%m-%dT%H:%M:%S+00:00")


def stored(store, ago, won=False, now=NOW):
    """A match of Ali and Sara last changed ``ago`` before ``now`` (its one tally then), won or not."""
    when = now - ago
    if not won:
        return store.create(["Ali", "Sara"], RULES, 0, [], created=stamp(when))
    return store.create(["Ali", "Sara"], RULES, 0, [WON], times=[stamp(when)], created=stamp(when - ago))


@pytest.fixture
def store(tmp_path):
    made = Store(str(tmp_path / "pasur.db"), create=True)
    yield made
    made.close()


def test_the_tables_in_play_are_the_unfinished_of_the_last_hours_and_the_just_finished(store):
    fresh = stored(store, timedelta(minutes=1))
    old = stored(store, IN_PLAY + timedelta(minutes=1))
    earlier = stored(store, IN_PLAY - timedelta(minutes=1))
    won = stored(store, LINGER - timedelta(minutes=1), won=True)
    won_long_ago = stored(store, LINGER + timedelta(minutes=1), won=True)
    room = Room(clock=lambda: NOW)
    assert room.tables(store) == [fresh, earlier, won]
    assert old not in room.tables(store) and won_long_ago not in room.tables(store)
    state = room.room_state(store)
    assert [t["match"] for t in state["room"]] == [fresh, earlier, won]
    assert state["room"][2]["winner"] == "Ali" and state["room"][2]["totals"] == {"Ali": 20, "Sara": 0}
    assert state["room"][0] == tile(fresh, page_state(store, lambda s: s.current(fresh)))


def test_one_table_in_play_is_its_board(store):
    stored(store, IN_PLAY * 2)  # long ago
    mid = stored(store, timedelta(minutes=5))
    stored(store, IN_PLAY * 3)
    state = Room(clock=lambda: NOW).room_state(store)
    assert "room" not in state
    assert state == page_state(store, lambda s: s.current(mid))


def test_no_table_in_play_is_the_board_the_commands_would_pick(store):
    stored(store, IN_PLAY * 2, won=True)
    last = stored(store, IN_PLAY * 3)  # unfinished, though long ago: what `pasur show` shows
    assert Room(clock=lambda: NOW).room_state(store)["show"]["match"] == last


def test_a_match_changes_when_its_last_action_was_recorded(store):
    mid = stored(store, timedelta(hours=9), won=True)
    (changed,) = last_changes(store)
    assert (changed.id, changed.at) == (mid, NOW - timedelta(hours=9))


def test_a_board_is_read_again_only_when_its_match_changed(store, tmp_path):
    now = datetime.now(UTC)  # the table is entered now
    one, two = stored(store, timedelta(minutes=2), now=now), stored(store, timedelta(minutes=3), now=now)
    reader = Store(str(tmp_path / "pasur.db"))
    room = Room()
    before = room.tiles(reader, room.tables(reader))
    kept = room.board(reader, two)
    enter_table(store, one, [parse_card(c) for c in ("5C", "9D", "3H", "KS")])
    after = room.tiles(reader, room.tables(reader))
    assert room.board(reader, two) is kept  # not read again
    assert after["room"][1] == before["room"][1]
    assert after["room"][0]["turn"] == "Sara" and before["room"][0]["turn"] is None
    reader.close()


@given(st.lists(st.tuples(st.integers(-60, 10 * 60), st.booleans()), max_size=12))
def test_in_play_keeps_the_order_of_ids_and_asks_finished_only_of_recent_ones(ages):
    """A table is in play iff changed within LINGER, or unfinished and changed within IN_PLAY."""
    changes = [Changed(mid, mid, NOW - timedelta(minutes=age)) for mid, (age, _) in enumerate(ages, 1)]
    done = {mid: won for mid, (_, won) in enumerate(ages, 1)}
    asked = []

    def finished(mid):
        asked.append(mid)
        return done[mid]
    shown = in_play(changes, finished, NOW)
    assert shown == sorted(shown)
    for mid, (age, won) in enumerate(ages, 1):
        linger, recent = LINGER.total_seconds() / 60, IN_PLAY.total_seconds() / 60
        assert (mid in shown) == (age <= linger or (age <= recent and not won)), (mid, age, won)
        if age > recent:
            assert mid not in asked


def test_the_served_room_and_each_table_s_board(pasur, db):
    """Served: the root is the room of two tables; /match/ID/ is that table's board, as `show
    --json --match ID` prints it; plays at the two tables in turn change each its own tile, the
    tiles keep their places (never a switch)."""
    from serving import served
    pasur("new", "Ali", "Sara")
    pasur("new", "Reza", "Mina")
    with served(db) as server, server.events() as room, server.events("/match/2") as board:
        _, state = room.next()
        assert [(t["match"], t["sides"], t["turn"]) for t in state["room"]] == \
            [(1, ["Ali", "Sara"], None), (2, ["Reza", "Mina"], None)]
        _, two = board.next()
        assert two["show"] == json.loads(pasur("show", "--json", "--match", "2").output)
        lengths = [0, 0]
        for match, card in [(1, "deal"), (2, "deal"), (1, "4C"), (2, "4C"), (1, "JD"), (2, "JD")]:
            args = ["deal", "5C", "9D", "3H", "KS"] if card == "deal" else ["play", card]
            assert pasur(*args, "--match", match).exit_code == 0
            lengths[match - 1] += 1
            _, state = room.next()
            assert [(t["match"], t["length"]) for t in state["room"]] == [(1, lengths[0]), (2, lengths[1])]
        while two["show"]["length"] < 3:
            _, two = board.next()
        assert two["show"] == json.loads(pasur("show", "--json", "--match", "2").output)
        assert two["last"]["play"]["card"] == "JD"
        assert server.request("GET", "/match/2")[0] in (307, 308)  # to /match/2/: its relative addresses
        assert server.request("GET", "/match/2/")[0] == 200
        assert server.request("GET", "/match/2/static/app.js")[0] == 200
        assert json.loads(server.request("GET", "/match/7/state")[2]) == \
            {"error": "there is no match 7; `pasur matches` lists them."}
        assert json.loads(server.request("GET", "/match/1/state")[2])["show"]["length"] == 3


def test_a_board_s_address_needs_and_keeps_the_token(pasur, db):
    from serving import served
    pasur("new", "Ali", "Sara")
    with served(db, "--lan") as server:
        status, headers, _ = server.request("GET", "/match/1")
        assert status == 307 and headers["location"].endswith(f"{server.prefix}/match/1/")
        assert server.request("GET", "/match/1/state", prefix="")[0] == 403
        assert json.loads(server.request("GET", "/match/1/state")[2])["show"]["match"] == 1
