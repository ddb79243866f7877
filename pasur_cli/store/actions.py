"""What the write commands do to a stored match, as functions: `pasur deal`, `play`, `undo` and
`tally` call them, and so does `pasur session`, so both record through the same code.

Each takes an open write ``Store``, the match id and ``expect`` (the match and revision the caller
last showed, a ``store.Expected``; None: do not check), records one change in one transaction, and returns what happened
with the match as it now stands. Every argument is checked before the transaction commits: a
refusal is a PasurError (the engine's, or the store's) and leaves the file as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from pasur_cli.engine.arguments import check_whole, wrong_type
from pasur_cli.engine.cards import parse_cards
from pasur_cli.engine.deal import check_table_size
from pasur_cli.engine.errors import IllegalPlayError, Plural, Words

if TYPE_CHECKING:
    from collections.abc import Iterable
    from contextlib import AbstractContextManager

    from pasur_cli.engine.action import Action
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.deal import Play
    from pasur_cli.engine.match import DealResult, Match
    from pasur_cli.store.database import Change, Expected, Store


def enter_table(store: Store, match_id: int, cards: Iterable[Card | str] | str,
                expect: Expected | None = None) -> Match:
    """Start the next deal with its four face-up cards (Cards or codes); returns the match. Raises
    NotationError for cards that are not four cards, what ``Match.start_deal`` raises."""
    cards = parse_cards(cards, Words("table"))
    check_table_size(cards)
    with _changing(store, match_id, expect) as change:
        match: Match = change.match
        match.start_deal(cards)
        change.append(_last(match))  # the canonical form, as it replays
    return match


def enter_play(store: Store, match_id: int, card: Card, take: list[Card] | None = None, by: str | None = None,
               expect: Expected | None = None) -> tuple[Play, Match]:
    """Record ``card`` played (taking ``take``, or its only legal capture when None); returns the
    play (which says what a screen shows after it) and the match. Raises AmbiguousPlayError
    when ``take`` is None and several captures are legal."""
    with _changing(store, match_id, expect) as change:
        match: Match = change.match
        record = match.play(card, take, by)
        change.append(_last(match))  # the canonical form: the capture made, whose turn it was
    return record, match


def take_back(store: Store, match_id: int, count: int = 1, expect: Expected | None = None,
              describe: Callable[[Action], str] | None = None,
              reopened: Callable[[str], str] | None = None,
              ) -> tuple[list[Action], list[str], Match]:
    """Take back the last ``count`` actions; returns them (oldest first), ``describe`` of each
    (newest first) and the match as it now stands. The descriptions are made inside the
    transaction, so one that fails takes nothing back. When the match was over and is open again,
    ``reopened`` of the side that had won it follows the descriptions. Raises NotationError for a
    ``count`` that is no whole number from 1, IllegalPlayError for more actions than the match has,
    StaleError when ``expect`` no longer holds."""
    check_whole("count", count, 1)
    with _changing(store, match_id, expect) as change:
        winner = change.match.winner  # read before the take-back, in its transaction
        have = change.count
        if count > have:
            raise IllegalPlayError(Plural("match {match} has {have} recorded action; cannot undo {count}.",
                                          "match {match} has {have} recorded actions; cannot undo {count}.", "have"),
                                   match=match_id, have=have, count=count)
        dropped: list[Action] = change.drop(count)
        words = [describe(action) for action in reversed(dropped)] if describe else []
    match = store.match(match_id)[1]
    if reopened is not None and winner is not None and not match.finished:
        words.append(reopened(winner))
    return dropped, words, match


def enter_tally(store: Store, match_id: int, action: dict[str, Any], expect: Expected | None = None,
                ) -> tuple[DealResult, Match]:
    """Score the next deal from a tally action (``{"type": "tally", "piles": ..., "counts": ...,
    "surs": ..., "partial": ...}``, as pasur_cli.text.tally_input reads it from what was typed);
    returns the result and the match. Raises NotationError for anything but a tally action, what
    ``Match.apply`` raises for one it refuses."""
    with _changing(store, match_id, expect) as change:
        match: Match = change.match
        result = match.apply(action, "tally")
        change.append(_last(match))  # the canonical form, as it replays
    return cast("DealResult", result), match


def _changing(store: Store, match_id: int, expect: Expected | None) -> AbstractContextManager[Change]:
    """``store.changing(match_id, expect)``; raises NotationError when ``store`` is no Store."""
    from pasur_cli.store.database import Store
    if not isinstance(store, Store):
        raise wrong_type("store", store, Store)
    return store.changing(match_id, expect)


def _last(match: Match) -> Action:
    """The canonical form of the action the match just applied (what the store keeps)."""
    action = match.last_action
    assert action is not None, "an action has just been applied"
    return action
