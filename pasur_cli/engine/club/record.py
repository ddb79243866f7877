"""The event record: one JSON document holding an event (its entrants, its rounds' tables) and
the match record of every table's match, as `pasur event export` writes it and `pasur import`
reads it back:

    {"format": "pasur-event", "version": 1, "name": "...", "created": "...", "pairing": "swiss",
     "rounds": 4, "rules": {...}, "entrants": [...], "tables": [...], "matches": [match record, ...]}

``read_event`` trusts nothing: the document is parsed by the match record's bounded reader
(``record.load_json``), every field is checked, each match is read by ``read_record`` (its own
checks, its actions replayed), and every table must name entrants of the event and a match whose
players are the ones its seats say."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from pasur_cli.engine.club.event import ENTRANTS_MOST, ROUNDS_MOST, SYSTEMS, Entrant, Table, entered, event_name, seats
from pasur_cli.engine.errors import NotationError, PasurError, Words
from pasur_cli.engine.record import CheckedRecord, load_json, read_record
from pasur_cli.engine.rules import OPTION_NAMES, Rules, option_text, stored_rules

FORMAT, VERSION = "pasur-event", 1
FIELDS = ("format", "version", "name", "created", "pairing", "rounds", "rules", "entrants", "tables", "matches")
SCORE_MOST = 9999


class EventRecord(NamedTuple):
    """An event read from a file: its head, entrants, tables (``match``: an index into ``matches``)
    and the matches, each checked and replayed."""

    name: str
    created: str
    pairing: str
    rounds: int
    rules: Rules
    entrants: list[Entrant]
    tables: list[Table]
    matches: list[CheckedRecord]


def write_event(name: str, created: str, pairing: str, rounds: int, rules: Rules, entrants: Sequence[Entrant],
                tables: Sequence[Table], matches: dict[int, dict[str, Any]]) -> str:
    """The event document as text; ``matches``: each table's match id -> its match record
    (``record.write_record``)."""
    order = sorted(matches)
    doc = {"format": FORMAT, "version": VERSION, "name": name, "created": created, "pairing": pairing,
           "rounds": rounds, "rules": rules.as_dict(),
           "entrants": [{"number": e.number, "name": e.name, "players": list(e.players), "joined": e.joined,
                         "dropped": e.dropped} for e in entrants],
           "tables": [{"round": t.round, "table": t.number, "first": t.first, "second": t.second,
                       "paper": list(t.score) if t.paper and t.score else None,
                       "match": order.index(t.match) if t.match in matches else None} for t in tables],
           "matches": [matches[mid] for mid in order]}
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def is_event(text: str) -> bool:
    """Whether ``text`` says it is an event record (its "format", in the first lines it writes)."""
    head = text[:400].replace(" ", "")
    return f'"format":"{FORMAT}"' in head


def _bad(what: Words) -> NotationError:
    return NotationError("this event record is malformed: {what}; nothing was imported.", what=what)


def _int(value: object, what: Words, least: int, most: int) -> int:
    if type(value) is not int or not least <= value <= most:
        raise _bad(what)
    return value


def _rules(value: object) -> Rules:
    if not isinstance(value, dict) or not set(value) <= set(OPTION_NAMES) or not all(
            v is None or isinstance(v, bool | int | str) for v in value.values()):
        raise _bad(Words("its rules"))
    return stored_rules("\n".join(f"{k}={option_text(v)}" for k, v in value.items()))


def _entrants(value: object) -> list[Entrant]:
    if not isinstance(value, list) or not 2 <= len(value) <= ENTRANTS_MOST:
        raise _bad(Words("its entrants"))
    out = []
    for number, item in enumerate(value, 1):
        if not isinstance(item, dict) or set(item) != {"number", "name", "players", "joined", "dropped"}:
            raise _bad(Words("entrant {number}", number=number))
        players = item["players"]
        if item["number"] != number or not isinstance(players, list) or not 1 <= len(players) <= 2 or not all(
                isinstance(p, str) for p in players) or item["name"] != " & ".join(players):
            raise _bad(Words("entrant {number}", number=number))
        joined = _int(item["joined"], Words("entrant {number}", number=number), 1, ROUNDS_MOST)
        dropped = None if item["dropped"] is None else _int(item["dropped"], Words("entrant {number}", number=number),
                                                            joined, ROUNDS_MOST + 1)  # joined: left before playing
        out.append(Entrant(number, item["name"], tuple(players), joined, dropped))
    if len({len(e.players) for e in out}) != 1:
        raise _bad(Words("its entrants"))
    entered([e.name for e in out], len(out[0].players) == 2)  # the names, each entered once
    return out


def _table(item: object, index: int, count: int, rounds: int, matches: int) -> Table:
    what = Words("table {number}", number=index)
    if not isinstance(item, dict) or set(item) != {"round", "table", "first", "second", "paper", "match"}:
        raise _bad(what)
    round_number = _int(item["round"], what, 1, rounds)
    first = _int(item["first"], what, 1, count)
    second = None if item["second"] is None else _int(item["second"], what, 1, count)
    number = _int(item["table"], what, 0 if second is None else 1, 0 if second is None else ENTRANTS_MOST)
    match = None if item["match"] is None else _int(item["match"], what, 0, matches - 1)
    paper = item["paper"]
    score = None
    if paper is not None:
        if not isinstance(paper, list) or len(paper) != 2 or second is None:
            raise _bad(what)
        score = (_int(paper[0], what, 0, SCORE_MOST), _int(paper[1], what, 0, SCORE_MOST))
        if score[0] == score[1]:
            raise _bad(what)
    if first == second or (second is None) != (match is None):
        raise _bad(what)
    return Table(round_number, number, first, second, match, score, score is not None)


def read_event(text: str) -> EventRecord:
    """Parse and check an event record; every match in it is read by ``read_record``. Raises
    NotationError for a malformed document, IllegalPlayError for a match that breaks a rule."""
    doc = load_json(text)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or set(doc) != set(FIELDS):
        raise _bad(Words("its fields"))
    if doc["version"] != VERSION or not isinstance(doc["name"], str) or not isinstance(doc["created"], str) \
            or doc["pairing"] not in SYSTEMS or not isinstance(doc["matches"], list) \
            or not isinstance(doc["tables"], list):
        raise _bad(Words("its name, time, pairing or lists"))
    rounds = _int(doc["rounds"], Words("its rounds"), 1, ROUNDS_MOST)
    entrants = _entrants(doc["entrants"])
    matches = []
    for number, match in enumerate(doc["matches"], 1):
        try:
            matches.append(read_record(json.dumps(match)))
        except PasurError as err:
            raise NotationError("match {number} of the event record is refused: {reason}", number=number,
                                reason=err) from None
    tables = [_table(item, i, len(entrants), rounds, len(matches)) for i, item in enumerate(doc["tables"], 1)]
    used = [t.match for t in tables if t.match is not None]
    if len(set(used)) != len(used) or len(used) != len(matches) or len({(t.round, t.number) for t in tables}) != len(
            tables):
        raise _bad(Words("its tables"))
    _check_seats(entrants, tables, matches)
    _check_rounds(entrants, tables)
    return EventRecord(event_name(doc["name"]), doc["created"][:64], doc["pairing"], rounds, _rules(doc["rules"]),
                       entrants, tables, matches)


def _check_seats(entrants: list[Entrant], tables: list[Table], matches: list[CheckedRecord]) -> None:
    """Each table's match is of the players its seats say, the dealer the one they say. Raises NotationError."""
    for table in tables:
        if table.second is None or table.match is None:
            continue
        players, dealer = seats(entrants[table.first - 1], entrants[table.second - 1])
        match = matches[table.match]
        if match.players != players or match.dealer != dealer:
            raise _bad(Words("table {number}", number=table.number))


def _check_rounds(entrants: list[Entrant], tables: list[Table]) -> None:
    """The rounds are 1, 2, ... with none left out; in each, an entrant sits at one table at most,
    only while it plays (joined, not dropped), and one entrant at most has the bye: as `pasur event
    pair` makes them. Raises NotationError."""
    rounds = sorted({t.round for t in tables})
    if rounds != list(range(1, len(rounds) + 1)):
        raise _bad(Words("its rounds"))
    for number in rounds:
        these = [t for t in tables if t.round == number]
        seated = [n for t in these for n in (t.first, t.second) if n is not None]
        if len(set(seated)) != len(seated) or sum(t.bye for t in these) > 1 \
                or not all(entrants[n - 1].plays_in(number) for n in seated):
            raise _bad(Words("round {round}", round=number))
