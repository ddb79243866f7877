"""A club night's tables: which matches are in play at once, and the table each is played at.

A match is *in play* when it is not finished and changed (an action recorded, or made) in the
last ``RECENT_HOURS``. With two or more in play, a change that names no match could go to the
wrong table, so ``Store.current`` refuses it (``check_one_in_play``); a read names what it shows
(``in_play``). The table's name is the ``table_name`` column (schema 6), set when the match is
made (``Store.create``).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from pasur_cli.engine.errors import Plural
from pasur_cli.engine.reading import N_
from pasur_cli.engine.values import Value
from pasur_cli.store.connection import failure
from pasur_cli.store.errors import ChooseMatchError, DamagedError, NoMatchError
from pasur_cli.store.recent import last_changes

if TYPE_CHECKING:
    from pasur_cli.store.reads import Reads

RECENT_HOURS = 6  # a match changed this long ago or less, and not finished, is in play: one evening


class InPlay(Value):
    """One match in play: its id, its table's name (None: none given), its sides, whose turn it is
    (None between deals: ``dealer`` enters the next table) and who deals."""

    id: int
    table: str | None
    sides: tuple[str, ...]
    turn: str | None
    dealer: str


def recent_ids(store: Reads, hours: float = RECENT_HOURS) -> list[int]:
    """The matches made or changed in the last ``hours``, most recently changed first (finished or
    not): ``recent.last_changes``, the one reader of when a match last changed. Raises StoreError
    when the file cannot be read."""
    since = datetime.now(UTC) - timedelta(hours=hours)
    return [c.id for c in sorted(last_changes(store, since), key=lambda c: (-c.touched, -c.id))]


def table_name(store: Reads, match_id: int) -> str | None:
    """The name of the table ``match_id`` is played at; None when none was given (or the file is of a
    schema before 6, or there is no such match). Raises StoreError when the file cannot be read."""
    if store.schema < 6:
        return None
    try:
        row = store.db.execute("SELECT table_name FROM matches WHERE id = ?", (match_id,)).fetchone()
    except (sqlite3.Error, UnicodeDecodeError) as err:
        raise failure(err, store.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
    return row[0] if row and isinstance(row[0], str) else None


def table_names(store: Reads) -> dict[int, str]:
    """Every match's table name, by match id (the matches without one are left out). Raises
    StoreError when the file cannot be read."""
    if store.schema < 6:
        return {}
    try:
        rows = store.db.execute("SELECT id, table_name FROM matches WHERE table_name IS NOT NULL").fetchall()
    except (sqlite3.Error, UnicodeDecodeError) as err:
        raise failure(err, store.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
    return {mid: name for mid, name in rows if isinstance(name, str)}


def in_play(store: Reads, hours: float = RECENT_HOURS) -> list[InPlay]:
    """The matches in play (see the module), most recently changed first. A damaged match is left
    out: nothing can be recorded in it. Raises StoreError when the file cannot be read."""
    out = []
    for mid in recent_ids(store, hours):
        try:
            match = store.match(mid)[1]
        except (DamagedError, NoMatchError):
            continue
        if match.finished:
            continue
        deal = match.deal
        out.append(InPlay(mid, table_name(store, mid), tuple(match.sides), deal.turn if deal else None,
                          match.dealer))
    return out


def check_one_in_play(store: Reads) -> None:
    """Raise ChooseMatchError, naming them, when two or more matches are in play: a change that
    names no match is then refused."""
    tables = in_play(store)
    if len(tables) > 1:
        raise ChooseMatchError(Plural("{count} match is in play; name the one to change with --match N (or"
                                      " PASUR_MATCH=N for the whole shell); nothing was recorded.",
                                      "{count} matches are in play; name the one to change with --match N (or"
                                      " PASUR_MATCH=N for the whole shell); nothing was recorded.", "count"),
                               count=len(tables), tables=tuple(tables))
