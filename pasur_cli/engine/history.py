"""A match's history, play by play: the engine's own records of every action, in order.

``match_events`` replays a match's whole log and keeps what each action did: the table a deal began
with, each ``Play``, the leftover table the last capturer took, and each deal's ``DealResult``
(with the running totals after it). A tallied deal has no plays: it is its result alone. Undone
actions are not in the log, so they are not here either. No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pasur_cli.engine.action import Action
from pasur_cli.engine.cards import Card
from pasur_cli.engine.deal import Deal, Play
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.match import DealResult, Match
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.values import Value


class TableDealt(Value):
    """A deal began: its number, dealer and initial table."""

    deal: int
    dealer: str
    table: tuple[Card, ...]


class Played(Value):
    """One play of deal ``deal``, as the engine recorded it."""

    deal: int
    play: Play


class Leftover(Value):
    """After the last card: ``player`` (the last capturer, or the dealer when nobody captured)
    took the cards left on the table for ``side``; ``cards`` may be empty."""

    deal: int
    player: str
    side: str
    cards: tuple[Card, ...]


class Scored(Value):
    """A deal's result, and every side's match total after it."""

    result: DealResult
    totals: Mapping[str, int]

    @property
    def deal(self) -> int:
        return self.result.number


Event = TableDealt | Played | Leftover | Scored


def match_events(players: list[str], rules: Rules, dealer: int, actions: Sequence[Action | dict[str, Any]],
                 results: Sequence[DealResult] = (), start: int = 0) -> list[Event]:
    """Every event of a match, replaying its whole log (``actions`` from the first one), or the
    events of the ``actions`` after the first ``start``, whose deals ended with ``results`` (a
    snapshot: `log --deal 5` replays deal 5 alone).

    Raises PasurError when an action cannot be replayed (as ``Match.replay`` does).
    """
    match = Match.replay(players, rules, dealer, [], results, start)
    events: list[Event] = []
    for action in actions:
        number, before = match.deal_number, len(match.results)
        done = match.apply(action)
        if isinstance(done, Deal):
            events.append(TableDealt(number, match.dealer, tuple(done.table)))
        elif isinstance(done, Play):
            events.append(Played(number, done))
        if len(match.results) > before:  # the action finished a deal (its last play, or a tally)
            if isinstance(done, Play) and done.leftover_taker is not None:
                taker = done.leftover_taker
                events.append(Leftover(number, taker, match.side_of(taker), done.leftover))
            events.append(Scored(match.results[-1], dict(match.totals)))
    return events


def deals_in(events: list[Event]) -> list[int]:
    """The numbers of the deals that have at least one event (begun or scored)."""
    return sorted({e.deal for e in events})


def of_deal(events: list[Event], number: int) -> list[Event]:
    """The events of deal ``number``. Raises NotationError when the match has no such deal yet."""
    numbers = deals_in(events)
    if number not in numbers:
        raise no_such_deal(number, numbers[-1] if numbers else 0)
    return [e for e in events if e.deal == number]


def no_such_deal(number: int, last: int) -> NotationError:
    """The error for a deal ``number`` of a match whose deals are 1 to ``last`` (0: none begun)."""
    if not last:
        return NotationError("there is no deal {deal}: no deal has begun in this match yet.", deal=number)
    return NotationError("there is no deal {deal}: this match has deals {first} to {last}.",
                         deal=number, first=1, last=last)


def cards_codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in cards]


def play_dict(play: Play) -> dict[str, object]:
    """The engine's Play record as a dict (cards as codes; ``no_sur`` as its rule, total, limit)."""
    no_sur = play.no_sur
    return {"player": play.player, "side": play.side, "card": play.card.code, "taken": cards_codes(play.taken),
            "hand": play.hand, "sur": play.sur,
            "no_sur": None if no_sur is None else no_sur.as_dict(),
            "cancelled": play.cancelled}


def event_dict(event: Event) -> dict[str, object]:
    """One event for ``log --json``: ``event`` names its kind, ``deal`` its deal, and the rest is
    the engine's record."""
    if isinstance(event, TableDealt):
        return {"event": "deal", "deal": event.deal, "dealer": event.dealer, "table": cards_codes(event.table)}
    if isinstance(event, Played):
        return {"event": "play", "deal": event.deal, "play": play_dict(event.play)}
    if isinstance(event, Leftover):
        return {"event": "leftover", "deal": event.deal, "player": event.player, "side": event.side,
                "cards": cards_codes(event.cards)}
    return {"event": "result", "deal": event.deal, "result": event.result.as_dict(), "totals": dict(event.totals)}
