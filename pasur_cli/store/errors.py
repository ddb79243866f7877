"""The store's refusals: a database that cannot be used, a path that names no file, a busy file,
a damaged match, a change made on a match that moved meanwhile."""

from __future__ import annotations

from typing import Any

from pasur_cli.engine.errors import NotationError, PasurError, Words
from pasur_cli.engine.reading import N_


class StoreError(PasurError):
    """The database cannot be used (not ours, damaged, newer, read-only, missing, busy)."""


class PathError(StoreError, NotationError):
    """A database path that does not name one file on disk (exit 2)."""


class BusyError(StoreError):
    """Another program holds the database; nothing was changed."""


class DamagedError(StoreError):
    """One match cannot be read or replayed: ``match_id`` says which, ``reason`` why (``Words``, the
    engine's error, or a system's text: a fact each language writes; ``str`` gives the English)."""

    def __init__(self, match_id: int, reason: Words | PasurError | str) -> None:
        super().__init__(N_("match {match} is damaged: {reason}"), match=match_id, reason=reason)
        self.match_id, self.reason = match_id, reason


class StaleError(PasurError):
    """The match changed after it was shown, or is not the match that was shown; the change was not
    recorded. Facts: ``match``, ``revision`` and ``length`` now, ``expect`` (the revision expected),
    ``shown`` (the log length that was shown, when the caller knows it)."""


class GoneError(StoreError):
    """The match or the file a long-lived view (the session) was showing is gone: the match was
    deleted, or the database file was replaced or deleted. Nothing was recorded."""


class NoMatchError(StoreError):
    """There is no match of that id (never made, or deleted)."""


class FullError(StoreError):
    """The match would hold more actions than one match can (``most``, ACTIONS_MOST); nothing was
    recorded. Facts: ``match`` (None for a match not made yet), ``most``, ``count`` (the actions it
    would hold)."""


class AlreadyImported(StoreError):
    """The record was imported before (``match`` says as which match); nothing was changed."""


def check_rows(mid: int, log: list[Any]) -> None:
    """Raise DamagedError for a log row whose time or action is not text."""
    for seq, at, action in log:
        if not isinstance(at, str) or not isinstance(action, str):
            raise DamagedError(mid, Words("action {number} is not text", number=seq))


class ChooseMatchError(StoreError):
    """A change was asked for without naming its match while several are in play (a club night's
    tables); nothing was recorded. Facts: ``count`` and ``tables`` (``store.tables.InPlay``, most
    recently changed first), for the refusal to list them."""
