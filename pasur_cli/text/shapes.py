"""The JSON shapes the commands print with ``--json``: plain dicts of codes, numbers and names
(every field by name, cards as codes), for scripts. Sentences are render's; these carry facts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pasur_cli.engine.captures import Captures, is_sur
from pasur_cli.engine.cards import Card
from pasur_cli.engine.rules import MEANINGS, PRESETS, Rules

if TYPE_CHECKING:
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.stats import Standing


def dumps(data: object) -> str:
    import json
    return json.dumps(data, ensure_ascii=False, indent=2)


def check_json(card: Card, table_cards: list[Card], rules: Rules, found: Captures,
               legal: bool | None, reason: str | None) -> dict[str, object]:
    return {
        "played": card.code,
        "table": [c.code for c in table_cards],
        "rules": rules.preset,
        "captures": [{"take": [c.code for c in take], "sur": is_sur(card, take, table_cards, rules)}
                     for take in found.options],
        "count": found.count,
        "truncated": found.truncated,
        "trail": found.trail,
        "legal": legal,
        "reason": reason,
    }


def rules_json(names: list[str]) -> dict[str, object]:
    return {"presets": {n: PRESETS[n].as_dict() for n in names}, "meanings": dict(MEANINGS)}


def score_json(match_id: int, match: Match) -> dict[str, Any]:
    from pasur_cli.engine.match import DealResult
    results = [(r, True) for r in match.results]
    if match.deal is not None:
        results.append((DealResult(match.deal_number, match.dealer, match.deal.score()), False))
    deals = [{"number": r.number, "dealer": r.dealer, "complete": complete, **r.as_dict()} for r, complete in results]
    return {"match": match_id, "rules": match.rules.preset, "target": match.rules.target,
            "sides": list(match.sides), "deals": deals, "totals": match.totals,
            "finished": match.finished, "winner": match.winner}


def show_json(match_id: int, match: Match) -> dict[str, Any]:
    deal = match.deal
    return {
        "match": match_id,
        "deal": match.deal_number,
        "hand": deal.hand if deal else None,
        "hands": deal.hands if deal else None,
        "dealer": match.dealer,
        "turn": deal.turn if deal else None,
        "table": [c.code for c in deal.table] if deal else [],
        "piles": {s: len(p) for s, p in deal.piles.items()} if deal else {s: 0 for s in match.sides},
        "surs": dict(deal.surs) if deal else {s: 0 for s in match.sides},
        "last_capturer": deal.last_capturer if deal else None,
        "unseen": deal.unseen if deal else 52,
        "cards_left": deal.cards_left() if deal else None,
        "if_ended_now": {s: score.total for s, score in deal.score_if_ended().items()} if deal else None,
        "finished": match.finished,
        "winner": match.winner,
    }


def matches_rows(items: list[Standing]) -> list[dict[str, object]]:
    """Each match's standing as the rows of `matches --json`."""
    return [{"match": s.id, "created": s.created, "players": list(s.players), "sides": list(s.sides),
             "rules": s.preset, "deals": s.deals, "totals": s.totals, "finished": s.finished, "winner": s.winner,
             "damaged": None} for s in items]


def damaged_row(match_id: int, players: list[str], reason: object) -> dict[str, object]:
    """A `matches` row for a match that cannot be replayed; ``reason`` a fact (``Words``, an error),
    written in the reader's language by ``matches_text`` and in English by ``matches_json``."""
    return {"match": match_id, "created": None, "players": players, "sides": [], "rules": "?", "deals": None,
            "totals": {}, "finished": False, "winner": None, "damaged": reason}


def matches_json(rows: list[dict[str, Any]]) -> str:
    """The rows of `matches --json`: a damaged match's reason as English text."""
    return dumps([{**r, "damaged": None if r["damaged"] is None else str(r["damaged"])} for r in rows])
