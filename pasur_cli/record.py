"""The match record: a self-describing JSON document that exports a match and imports it back.

    {"format": "pasur-match", "version": 1, "players": [...], "dealer": "Ali",
     "rules": {every option}, "created": "...", "actions": [{"at": "...", "action": {...}}, ...]}

``read_record`` checks the shape, the players and every rule value, then replays the actions
through the engine; the first action that breaks a rule is named in the error.
"""

from __future__ import annotations

import json
import unicodedata

from pasur_cli.errors import IllegalPlayError, NotationError
from pasur_cli.match import Match, check_players
from pasur_cli.rules import OPTION_NAMES, option_text, parse_rules

FORMAT, VERSION = "pasur-match", 1


def write_record(record) -> dict:
    """The export document of a stored MatchRecord."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": record.players,
        "dealer": record.players[record.dealer],
        "rules": record.rules.as_dict(),
        "created": record.created,
        "actions": [{"at": at, "action": action} for at, action in zip(record.times, record.actions)],
    }


def read_record(text: str) -> tuple[list[str], object, int, list[dict], list[str], Match]:
    """Parse and verify a record; return players, rules, dealer seat, actions, times and the replayed match.

    Raises NotationError for a malformed document, IllegalPlayError for one that breaks a rule.
    """
    try:
        doc = json.loads(text)
    except ValueError as err:
        raise NotationError(f"the record is not JSON ({err}).") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise NotationError(f"this is not a pasur match record (its \"format\" is not {FORMAT!r}).")
    if doc.get("version") != VERSION:
        raise NotationError(f"record version {doc.get('version')!r} is not one this pasur reads ({VERSION}).")
    players, rules_doc, entries = doc.get("players"), doc.get("rules"), doc.get("actions")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise NotationError("the record's \"players\" is not a list of names.")
    if not isinstance(rules_doc, dict) or not isinstance(entries, list):
        raise NotationError("the record needs \"rules\" (an object) and \"actions\" (a list).")
    players = check_players(players, doc.get("dealer"))  # as stored: NFC (issue 9)
    unknown = sorted(set(rules_doc) - set(OPTION_NAMES))
    if unknown:
        raise NotationError(f"the record names unknown rule options: {', '.join(unknown)}.")
    rules = parse_rules("standard", [f"{k}={option_text(v)}" for k, v in rules_doc.items()])
    actions, times = [], []
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("action"), dict):
            raise NotationError(f"action {number} of the record is malformed: {json.dumps(entry)[:80]}")
        actions.append(entry["action"])
        times.append(str(entry.get("at", "")))
    dealer = players.index(unicodedata.normalize("NFC", doc["dealer"]).strip()) if doc.get("dealer") else 0
    try:
        match = Match.replay(players, rules, dealer, actions)
    except IllegalPlayError as err:
        raise IllegalPlayError(f"the record breaks a rule: {err}") from None
    return players, rules, dealer, actions, times, match
