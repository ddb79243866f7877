"""Club events in the database: the events, their entrants and the tables of their rounds
(schema 6), read and written through the Store's public methods. Each change is one transaction;
everything is checked before it, so a refused change writes nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

from pasur_cli.engine.club.event import ROUNDS_MOST, SYSTEMS, Entrant, EventError, Table, seats
from pasur_cli.engine.club.pairing import Pairs, pairs_in
from pasur_cli.engine.club.record import SCORE_MOST, EventRecord
from pasur_cli.engine.club.standings import Place, standings
from pasur_cli.engine.errors import PasurError, Words
from pasur_cli.engine.rules import Rules
from pasur_cli.store.database import Store, now
from pasur_cli.store.errors import DamagedError, NoMatchError, StoreError


class Event(NamedTuple):
    """One event's row: its id, name, when it was made, its pairing system, rounds and rules."""

    id: int
    name: str
    created: str
    pairing: str
    rounds: int
    rules: Rules


def _has_events(store: Store) -> bool:
    """Whether the file has the events' tables (a file of an older schema, only read, has none)."""
    return bool(store.db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'events'").fetchone()[0])


def damaged(event: object, what: Words) -> StoreError:
    """The refusal for an event whose stored rows are not what pasur writes (edited by hand, or
    written by another program): ``event`` names it (its name, or its row id), ``what`` the row."""
    return StoreError("the stored event {event} is damaged: {what} is not what pasur writes; nothing was changed.",
                      event=event, what=what)


def _whole(value: object, least: int, most: int) -> bool:
    return type(value) is int and least <= value <= most


def _event(store: Store, row: tuple[object, ...]) -> Event:
    """One events row as an Event. Raises StoreError when it is damaged."""
    i, name, created, pairing, rounds, rules = row
    if not isinstance(name, str) or not isinstance(created, str) or pairing not in SYSTEMS \
            or not _whole(rounds, 1, ROUNDS_MOST) or not isinstance(rules, str):
        raise damaged(name if isinstance(name, str) else i, Words("its name, date, pairing or rounds"))
    try:
        read = store.rules_of(rules)
    except (PasurError, ValueError, TypeError):
        raise damaged(name, Words("its rules")) from None
    return Event(int(str(i)), name, created, str(pairing), int(str(rounds)), read)


def events(store: Store) -> list[Event]:
    """Every event, the newest first. Raises StoreError when an event's row is damaged."""
    if not _has_events(store):
        return []
    rows = store.db.execute("SELECT id, name, created, pairing, rounds, rules FROM events ORDER BY id DESC")
    return [_event(store, row) for row in rows.fetchall()]


def find_event(store: Store, name: str | None) -> Event:
    """The event named ``name`` (compared as names are), or without a name the newest event whose last
    round is not finished (else the newest). Raises EventError when there is none such."""
    from pasur_cli.engine.names import name_key
    every = events(store)
    if not every:
        raise EventError("there is no event yet: start one with `pasur event new NAME --players A B C ...`.")
    if name is not None:
        found = [e for e in every if name_key(e.name) == name_key(name)]
        if not found:
            raise EventError("there is no event named {name!r}; the events are: {names}.", name=name,
                             names=", ".join(e.name for e in every))
        return found[0]
    for event in every:
        played = tables(store, event)
        if not played or max(t.round for t in played) < event.rounds or not all(t.finished for t in played):
            return event
    return every[0]


def entrants(store: Store, event: Event) -> list[Entrant]:
    """The event's entrants in the order of entry. Raises StoreError when a row is damaged, or the
    event has none."""
    rows = store.db.execute("SELECT number, name, players, joined, dropped FROM entrants WHERE event_id = ?"
                            " ORDER BY number", (event.id,)).fetchall()
    if not rows:
        raise damaged(event.name, Words("its list of entrants"))
    out = []
    for index, (number, name, players, joined, dropped) in enumerate(rows, 1):
        if number != index or not isinstance(name, str) or not isinstance(players, str) \
                or not 1 <= players.count("\n") + 1 <= 2 or not _whole(joined, 1, ROUNDS_MOST) \
                or not (dropped is None or _whole(dropped, 1, ROUNDS_MOST + 1)):
            raise damaged(event.name, Words("entrant {number}", number=index))
        out.append(Entrant(index, name, tuple(players.split("\n")), int(str(joined)),
                           None if dropped is None else int(str(dropped))))
    return out


def _paper(text: object) -> tuple[int, int] | None:
    """A table's score given on paper as stored (JSON [first, second]); None when it is not one."""
    try:
        points = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None
    if not isinstance(points, list) or len(points) != 2 or not all(_whole(p, 0, SCORE_MOST) for p in points):
        return None
    return points[0], points[1]


def _checked(event: Event, row: tuple[object, ...], people: dict[int, Entrant]) -> None:
    """Raise StoreError when a pairings row is not what pasur writes: its round, table, entrants or
    match are not whole numbers of this event, or its paper score is not one."""
    round_number, number, first, second, mid, paper = row
    if not _whole(round_number, 1, ROUNDS_MOST) or not _whole(number, 0, 2**31) or first not in people \
            or not (second is None or second in people) or not (mid is None or _whole(mid, 1, 2**63 - 1)) \
            or not (paper is None or _paper(paper) is not None):
        raise damaged(event.name, Words("table {table} of round {round}", table=number, round=round_number))


def tables(store: Store, event: Event) -> list[Table]:
    """Every table of the event's rounds, round by round (the bye last), each with its score: the one
    given on paper, else its match's final totals once the match is finished. Raises StoreError when
    a row of the event is damaged."""
    rows = store.db.execute("SELECT round, table_no, first, second, match_id, paper FROM pairings"
                            " WHERE event_id = ? ORDER BY round, table_no = 0, table_no", (event.id,)).fetchall()
    people = {e.number: e for e in entrants(store, event)} if rows else {}
    out = []
    for row in rows:
        _checked(event, row, people)
        round_number, number, first, second, mid, paper = row
        score = _paper(paper)
        if score is None and mid is not None and second is not None:
            score = _match_score(store, mid, people[first].players[0], people[second].players[0])
        out.append(Table(round_number, number, first, second, mid, score, paper is not None))
    return out


def places(store: Store, event: Event, played: Sequence[Table] | None = None) -> list[Place]:
    """The event's standings as its tables (``played``, else read) say now: the engine's
    ``standings`` of its entrants and tables, what `pasur event standings` prints and the
    scoreboard shows. Raises the store's errors."""
    played = tables(store, event) if played is None else played
    return standings(entrants(store, event), played, event.pairing == "swiss")


def _match_score(store: Store, mid: int, first: str, second: str) -> tuple[int, int] | None:
    """(first's side's total, second's) of a finished match; None while it goes on, or when it was
    deleted, is damaged or is not of these players (its table can be given a score on paper)."""
    try:
        _, match = store.match(mid)
    except (NoMatchError, DamagedError):
        return None
    if not match.finished or first not in match.players or second not in match.players:  # another's match
        return None
    return match.totals[match.side_of(first)], match.totals[match.side_of(second)]


def _taken(db: sqlite3.Connection, name: str) -> str | None:
    """The stored event whose name is ``name`` as names are compared (case, accents, spaces: "Club
    night" is "club  night"), or None."""
    from pasur_cli.engine.names import name_key
    key = name_key(name)
    return next((n for (n,) in db.execute("SELECT name FROM events") if isinstance(n, str) and name_key(n) == key),
                None)


def create_event(store: Store, name: str, pairing: str, rounds: int, rules: Rules,
                 entered: list[tuple[str, tuple[str, ...]]]) -> int:
    """Store a new event with its entrants (name, players) and return its id. Raises EventError
    when an event has that name already (as names are compared), writing nothing."""
    with store.transaction() as db:
        taken = _taken(db, name)
        if taken is not None:
            raise EventError("there is an event named {name!r} already; give the new one another name.", name=taken)
        cursor = db.execute("INSERT INTO events (name, created, pairing, rounds, rules) VALUES (?, ?, ?, ?, ?)",
                            (name, now(), pairing, rounds, store.rules_text(rules)))
        event_id = int(cursor.lastrowid or 0)
        db.executemany("INSERT INTO entrants VALUES (?, ?, ?, ?, 1, NULL)",
                       [(event_id, number, who, "\n".join(players))
                        for number, (who, players) in enumerate(entered, 1)])
    return event_id


def add_round(store: Store, event: Event, round_number: int, pairs: Pairs) -> list[Table]:
    """Store round ``round_number``'s tables and make a match for each (not the bye), all in one
    transaction; return the tables. Raises EventError, storing nothing, when the round was paired
    meanwhile."""
    people = {e.number: e for e in entrants(store, event)}
    made = []
    with store.transaction() as db:
        last = db.execute("SELECT coalesce(max(round), 0) FROM pairings WHERE event_id = ?", (event.id,)).fetchone()[0]
        if last != round_number - 1:  # another `event pair` was quicker
            raise EventError("round {round} of {event} was paired meanwhile; nothing was changed.",
                             round=round_number, event=event.name)
        for number, first, second in pairs_in(pairs):
            mid = None
            if second is not None:
                players, dealer = seats(people[first], people[second])
                mid = store.create(players, event.rules, dealer, table=str(number))
            db.execute("INSERT INTO pairings VALUES (?, ?, ?, ?, ?, ?, NULL)",
                       (event.id, round_number, number, first, second, mid))
            made.append(Table(round_number, number, first, second, mid))
    return made


def add_entrant(store: Store, event: Event, name: str, players: tuple[str, ...], joined: int) -> int:
    """Enter a late arrival, paired from round ``joined`` on; return its number."""
    with store.transaction() as db:
        number = db.execute("SELECT coalesce(max(number), 0) + 1 FROM entrants WHERE event_id = ?",
                            (event.id,)).fetchone()[0]
        db.execute("INSERT INTO entrants VALUES (?, ?, ?, ?, ?, NULL)",
                   (event.id, number, name, "\n".join(players), joined))
    return int(number)


def drop_entrant(store: Store, event: Event, number: int, from_round: int) -> None:
    """The entrant ``number`` is not paired from round ``from_round`` on (its results stand)."""
    with store.transaction() as db:
        db.execute("UPDATE entrants SET dropped = ? WHERE event_id = ? AND number = ?", (from_round, event.id, number))


def return_entrant(store: Store, event: Event, number: int) -> None:
    """The entrant ``number``, dropped before any round was paired since, is paired again."""
    with store.transaction() as db:
        db.execute("UPDATE entrants SET dropped = NULL WHERE event_id = ? AND number = ?", (event.id, number))


def give_score(store: Store, event: Event, table: Table, score: tuple[int, int]) -> None:
    """Record the table's final score as given on paper (replacing one given before)."""
    with store.transaction() as db:
        db.execute("UPDATE pairings SET paper = ? WHERE event_id = ? AND round = ? AND table_no = ?",
                   (json.dumps(list(score)), event.id, table.round, table.number))


def import_event(store: Store, record: EventRecord) -> int:
    """Store an event read from a file (``club.record.read_event``): its matches as new matches and
    its rows naming them, in one transaction; return its id. Raises EventError when an event has its
    name already (as names are compared), storing nothing."""
    with store.transaction() as db:
        taken = _taken(db, record.name)
        if taken is not None:
            raise EventError("there is an event named {name!r} already; nothing was imported.", name=taken)
        ids = [store.create(m.players, m.rules, m.dealer, m.actions, m.times, m.match, m.fingerprint, m.created,
                            texts=m.texts) for m in record.matches]
        cursor = db.execute("INSERT INTO events (name, created, pairing, rounds, rules) VALUES (?, ?, ?, ?, ?)",
                            (record.name, record.created, record.pairing, record.rounds,
                             store.rules_text(record.rules)))
        event_id = int(cursor.lastrowid or 0)
        db.executemany("INSERT INTO entrants VALUES (?, ?, ?, ?, ?, ?)",
                       [(event_id, e.number, e.name, "\n".join(e.players), e.joined, e.dropped)
                        for e in record.entrants])
        db.executemany("INSERT INTO pairings VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [(event_id, t.round, t.number, t.first, t.second,
                         None if t.match is None else ids[t.match],
                         json.dumps(list(t.score)) if t.paper and t.score else None) for t in record.tables])
    return event_id
