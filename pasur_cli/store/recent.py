"""When each stored match last changed: what the scoreboard's room reads to know which tables are
in play. Reads through the Store's connection (``store.db``); writes nothing."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pasur_cli.engine.reading import N_
from pasur_cli.engine.values import Value
from pasur_cli.store.connection import failure

if TYPE_CHECKING:
    from pasur_cli.store.reads import Reads

# the time of a match's last action (through the actions' primary key: one look a match), else its
# making; those since a time (pasur writes times in one form, which sorts as text)
CHANGED = ("coalesce((SELECT at FROM actions WHERE match_id = matches.id ORDER BY seq DESC LIMIT 1), created)")
LAST_CHANGES = f"SELECT id, touched, {CHANGED} AS changed FROM matches WHERE changed >= ? ORDER BY id"
STAMP = "%Y-%m-%dT%H:%M:%S+00:00"  # store.database.now's form


class Changed(Value):
    """A stored match, its ``touched`` counter (higher: changed later) and when it last changed."""

    id: int
    touched: int
    at: datetime


def read_time(text: object) -> datetime | None:
    """A stored time (``YYYY-MM-DDTHH:MM:SS+00:00``) as an aware datetime; None for anything else.

    >>> read_time("2026-12-05T12:03:54+00:00").hour
    12
    >>> read_time("yesterday") is None
    True
    """
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def last_changes(store: Reads, since: datetime | None = None) -> list[Changed]:
    """Every stored match with when it last changed (its last action's time, else when it was
    made), by id; with ``since``, only those changed then or later. A match whose time cannot be
    read is left out. Raises the store's errors (``failure``) for a file that cannot be read."""
    after = "" if since is None else since.astimezone(UTC).strftime(STAMP)
    try:
        rows = store.db.execute(LAST_CHANGES, (after,)).fetchall()
    except (sqlite3.Error, UnicodeDecodeError) as err:
        raise failure(err, store.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
    out = []
    for mid, touched, text in rows:
        at = read_time(text)
        if at is not None and type(mid) is int and type(touched) is int and (since is None or at >= since):
            out.append(Changed(mid, touched, at))
    return out
