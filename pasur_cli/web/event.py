"""The event's page (`pasur serve --event NAME`): its standings, as `pasur event standings --json`
prints them, and a tile per table of its current round (the last one paired), each from the
room's ``Room.tiles``, the bye named. No web machinery here: the watcher (web.app) asks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pasur_cli.engine.club.event import Table, last_round
from pasur_cli.engine.errors import PasurError
from pasur_cli.store import events as book
from pasur_cli.text.render_event import standings_json
from pasur_cli.web.state import unreadable

if TYPE_CHECKING:
    from pasur_cli.store.database import Store
    from pasur_cli.web.room import Room


def event_state(room: Room, store: Store, name: str) -> dict[str, Any]:
    """``{"event": ...}``: the standings JSON of event ``name`` with its ``round`` (0 before the
    first is paired), ``rounds``, the round's ``tables`` (each its number, entrants, ``score`` and
    whether given on ``paper``, and its match's ``tile``) and its ``bye`` (an entrant's name, or
    null). An event or file that cannot be read is ``{"error": sentence}``, as on a board."""
    try:
        found = book.find_event(store, name)
        played = book.tables(store, found)
        people = {e.number: e.name for e in book.entrants(store, found)}
        places = book.places(store, found, played)
        now = last_round(played)
        current = [t for t in played if t.round == now]
        room.changes(store)  # which matches changed since read: only those are read again
        tiles = room.tiles(store, [t.match for t in current if t.match is not None])["room"]
    except PasurError as err:
        return {"error": unreadable(err, store.path)}
    by_match = {t["match"]: t for t in tiles}
    shown = {**standings_json(found.name, found.pairing, places), "round": now, "rounds": found.rounds,
             "tables": [seat(t, people, by_match) for t in current if not t.bye],
             "bye": next((people[t.first] for t in current if t.bye), None)}
    return {"event": shown}


def seat(table: Table, people: dict[int, str], tiles: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """One table of the round as the page shows it: its number, its entrants' names, its score
    (null while it plays), whether that score was given on paper, and its match's tile (null
    without a match)."""
    return {"table": table.number, "first": people[table.first], "second": people[table.second or 0],
            "match": table.match, "score": None if table.score is None else list(table.score),
            "paper": table.paper, "tile": tiles.get(table.match) if table.match is not None else None}
