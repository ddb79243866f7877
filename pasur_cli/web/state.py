"""What the scoreboard shows, read from the store: the JSON of ``show --json``, ``score --json``
and the last event of ``log --json``, one object. No web machinery here."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pasur_cli.engine.errors import PasurError
from pasur_cli.engine.reading import N_
from pasur_cli.store.errors import BusyError
from pasur_cli.store.tables import table_name
from pasur_cli.text import render, shapes
from pasur_cli.text.i18n import _

if TYPE_CHECKING:
    from pasur_cli.engine.match import Match
    from pasur_cli.store.database import Store

Chooser = Callable[["Store"], tuple[int, "Match"]]

# What the page says of a database it cannot read: never the file's path, nor the system's text
# (which names it), since anyone who can open the page reads it.
GONE = N_("The database is not there any more; the page will show it again once it is back.")
FOLDER = N_("The database is a folder now, not a pasur file.")
NOT_PASUR = N_("The database is not a pasur file, or cannot be read.")
BUSY = N_("The database is busy; the page will try again.")
TROUBLE = N_("The scoreboard cannot read the database; it will try again.")


def unreadable(err: BaseException, path: str) -> str:
    """The page's sentence, in the chosen language, for ``err`` met reading the database at
    ``path``: what is at the path now (nothing, a folder, another file), never the path itself. An
    error that names no file (no match yet, a damaged match) is said as the commands say it."""
    if isinstance(err, PasurError) and "path" not in err.facts:
        return render.message(err, render.Look())
    if not isinstance(err, PasurError | OSError | sqlite3.Error):
        return _(TROUBLE)
    if not os.path.lexists(path):
        return _(GONE)
    if os.path.isdir(path):
        return _(FOLDER)
    return _(BUSY) if isinstance(err, BusyError) else _(NOT_PASUR)


def page_state(store: Store, choose: Chooser) -> dict[str, Any]:
    """``{"show": ..., "score": ..., "last": ..., "table": ...}`` of the match ``choose`` picks (as
    the commands pick it: --match, else the match being played); ``last`` is the log's last play
    (``last_play``, or null), ``table`` the name of the table it is played at (or null). A store
    or match that cannot be read is ``{"error": sentence}`` in the chosen language (``unreadable``):
    the page says it and goes on following the file."""
    try:
        mid, match = choose(store)
        last = last_play(store, mid, match)
    except PasurError as err:
        return {"error": unreadable(err, store.path)}
    show = shapes.show_json(mid, match)
    show["length"] = store.length(mid)  # as `show --json` adds them
    show["revision"] = store.expected(mid).token
    show["table_name"] = table = table_name(store, mid)
    return {"show": show, "score": shapes.score_json(mid, match), "last": last, "table": table}


def last_play(store: Store, mid: int, match: Match) -> dict[str, object] | None:
    """The last play of stored match ``mid`` (``match``, as the store resumed it) as ``log --json``
    prints it, or None before the first play (or with tallied deals only). The deal in progress
    says it (``Match.last_play``); else the last deal played card by card is replayed alone, from
    its snapshot (as ``log --deal N`` replays it), so the work does not grow with the match. Raises
    PasurError (the store's DamagedError) when that deal cannot be read or replayed."""
    from pasur_cli.engine.history import Played, event_dict, match_events
    play = match.last_play
    if play is not None:
        return event_dict(Played(match.deal_number, play))
    number = next((result.number for result in reversed(match.results) if not result.tallied), None)
    if number is None:
        return None
    record = store.match(mid)[0]
    results, start, actions = store.deal_actions(record, number)
    events = match_events(record.players, record.rules, record.dealer, actions, results, start)
    return next((event_dict(e) for e in reversed(events) if isinstance(e, Played)), None)
