"""The event's page of the scoreboard (`pasur serve --event NAME`, pasur_cli.web.event) without a
browser: its state is the standings `pasur event standings --json` prints and a tile per table of
the round (the bye named), updated when a result is given or a match ends; a bad event name is
refused before anything is served. (In Chromium: tests/test_event_browser.py.)"""

import json
import re

import pytest
from test_event import tally_out

from pasur_cli.store.database import Store
from pasur_cli.web.app import catalogs
from pasur_cli.web.event import event_state
from pasur_cli.web.room import Room

PLAYERS = ["Ali", "Sara", "Reza", "Mina", "Omid"]


@pytest.fixture
def spring(pasur, db):
    """An event of five players with its first round paired: (table number, first, second, match) of each table."""
    assert pasur("event", "new", "Spring", "--players", *PLAYERS, "--rounds", 3).exit_code == 0
    assert pasur("event", "pair").exit_code == 0
    tables = state(db)["event"]["tables"]
    return [(t["table"], t["first"], t["second"], t["match"]) for t in tables]


def state(db, name="Spring"):
    """The event page's state, read as the server reads it."""
    store = Store(str(db))
    try:
        return event_state(Room(), store, name)
    finally:
        store.close()


def test_the_state_is_the_standings_and_the_round_s_tables(pasur, db, spring):
    shown = state(db, "spring")["event"]  # the name compared as names are
    printed = json.loads(pasur("event", "standings", "--json").output)
    assert {k: shown[k] for k in printed} == printed
    assert (shown["round"], shown["rounds"]) == (1, 3)
    assert [t["table"] for t in shown["tables"]] == [1, 2]
    seated = {name for t in shown["tables"] for name in (t["first"], t["second"])}
    assert seated | {shown["bye"]} == set(PLAYERS) and shown["bye"] not in seated
    for table in shown["tables"]:
        tile = table["tile"]
        assert (tile["match"], tile["sides"], tile["table"]) == (table["match"], [table["first"], table["second"]],
                                                                str(table["table"]))
        assert (table["score"], table["paper"], tile["turn"], tile["winner"]) == (None, False, None, None)


def test_a_result_and_a_finished_match_update_the_state(pasur, db, spring):
    (one, first, second, _), (_, third, fourth, mid) = spring
    assert pasur("event", "result", one, "62-48").exit_code == 0
    shown = state(db)["event"]
    assert (shown["tables"][0]["score"], shown["tables"][0]["paper"]) == ([62, 48], True)
    places = {p["name"]: p for p in shown["standings"]}
    assert (places[first]["wins"], places[first]["difference"], places[second]["scored"]) == (1, 14, 48)
    tally_out(pasur, mid, fourth, third)
    shown = state(db)["event"]
    assert (shown["tables"][1]["score"], shown["tables"][1]["paper"]) == ([0, 65], False)
    assert shown["tables"][1]["tile"]["winner"] == fourth
    assert shown["standings"] == json.loads(pasur("event", "standings", "--json").output)["standings"]
    assert pasur("event", "result", one, "40-62").exit_code == 0  # corrected
    places = {p["name"]: p for p in state(db)["event"]["standings"]}
    assert (places[first]["wins"], places[second]["wins"], places[second]["difference"]) == (0, 1, 22)


def test_before_the_first_round_and_after_the_last(pasur, db):
    assert pasur("event", "new", "Pairs", "--players", "Ali", "Sara", "--rounds", 1).exit_code == 0
    shown = state(db, "Pairs")["event"]
    assert (shown["round"], shown["tables"], shown["bye"]) == (0, [], None)
    assert [p["rank"] for p in shown["standings"]] == [1, 1]
    assert pasur("event", "pair").exit_code == 0
    assert pasur("event", "result", 1, "70-20").exit_code == 0
    shown = state(db, "Pairs")["event"]
    assert shown["round"] == 1 and shown["tables"][0]["score"] == [70, 20]


def test_an_event_not_there_is_said_on_the_page(pasur, db, spring):
    assert state(db, "Autumn") == {"error": "there is no event named 'Autumn'; the events are: Spring."}


def test_the_served_event_page_follows_results_and_its_tables_boards(pasur, db, spring, monkeypatch):
    """Served with --event (PASUR_MATCH set in the shell does not change it): the root's stream
    has the event, a result given and a match ending each reach it; a tile's board is /match/ID/."""
    from serving import served
    (one, first, _, _), (_, third, fourth, mid) = spring
    with served(db, "--event", "Spring", env={"PASUR_MATCH": str(mid)}) as server, server.events() as page:
        _, shown = page.next()
        assert [t["table"] for t in shown["event"]["tables"]] == [1, 2]
        assert pasur("event", "result", one, "62-48").exit_code == 0
        _, shown = page.next()
        assert shown["event"]["tables"][0]["score"] == [62, 48]
        assert shown["event"]["standings"][0]["name"] == first
        tally_out(pasur, mid, third, fourth)
        while shown["event"]["tables"][1]["score"] is None:
            _, shown = page.next()
        assert shown["event"]["tables"][1]["score"] == [65, 0]
        assert shown["event"]["standings"] == json.loads(pasur("event", "standings", "--json").output)["standings"]
        assert json.loads(server.request("GET", f"/match/{mid}/state")[2])["show"]["winner"] == third


def test_a_bad_event_name_serves_nothing(pasur, db, spring):
    before = db.read_bytes()
    result = pasur("serve", "--event", "Autumn", "--port", 0)
    assert result.exit_code == 1
    assert "there is no event named 'Autumn'; the events are: Spring." in result.output
    result = pasur("serve", "--event", "Spring", "--match", 1, "--port", 0)
    assert result.exit_code == 2 and "--event and --match cannot be used together." in result.output
    assert db.read_bytes() == before


def test_no_event_yet_serves_nothing(pasur, db):
    assert pasur("new", "Ali", "Sara").exit_code == 0
    result = pasur("serve", "--event", "Spring", "--port", 0)
    assert result.exit_code == 1 and "there is no event yet" in result.output


@pytest.mark.parametrize("lang", ["de", "es", "fa"])
def test_the_event_page_s_words_are_translated(lang):
    words = catalogs()[lang]["words"]
    english = catalogs()["en"]["words"]
    for key in ("standings", "tables", "event_round", "event_unpaired", "on_paper", "event_table"):
        assert words[key] != english[key], (lang, key)
        assert sorted(re.findall(r"\{\w+\}", words[key])) == sorted(re.findall(r"\{\w+\}", english[key]))
