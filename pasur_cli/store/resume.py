"""Resuming a match from its newest snapshot: trusted at once, or not at all.

A load reads the newest snapshot row and the actions after the deal before it. The snapshot is
trusted when the match's running checksums hold (``chained``, each part checked once a
connection through ``Chains``: every row, the players, rules and first dealer, and every action
line up to it are what pasur wrote) and its totals are the match's sides; then the match resumes
from it, and its finished deals are read (one query) only when one is wanted, so that a long
match loads as a short one does. Anything else makes the whole log be replayed (``Store.match``
then compares the stored rows with it: ``first_mismatch``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload

from pasur_cli.engine.errors import Plural, Words
from pasur_cli.engine.match import DealResult
from pasur_cli.engine.names import sides_of
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.values import Value
from pasur_cli.store.chains import Chains
from pasur_cli.store.errors import BusyError, DamagedError, check_rows
from pasur_cli.store.snapshots import TRUSTED, Results, json_totals

SNAPSHOTS = Plural("{found} deal snapshot, not {count}", "{found} deal snapshots, not {count}", "found")
T = TypeVar("T")


if TYPE_CHECKING:  # a type for the checker only: a Protocol class costs start-up
    from typing import Protocol

    class Book(Protocol):
        """What the snapshot reader needs of the store (``health.StoreFile`` and every store made of
        it are one)."""

        db: sqlite3.Connection
        path: str
        schema: int  # the file's schema version (the running checksums are there from 4 on)
        chains: Chains  # the chains this connection found holding
        results: Results  # the results it read

        def reopen(self) -> Book: ...

        def close(self) -> None: ...


class Snapshot(Value):
    """A trusted snapshot: the actions it covers, their deals' results and finishing actions (read
    when wanted), the match totals after them, and the rows (seq, at, action) after it."""

    start: int
    results: Sequence[DealResult]
    totals: dict[str, int]
    completed_at: Sequence[int]
    log: list[Any]


class DealRows:
    """The rows of a trusted chain up to its newest, read with one query the first time either
    column is wanted. Raises DamagedError when they cannot be read, BusyError when another program
    took a deal's end back since the load."""

    def __init__(self, store: Book, match_id: int, newest: int, count: int, sides: list[str]) -> None:
        self.store, self.match_id, self.newest, self.count, self.sides = store, match_id, newest, count, sides
        self._read: tuple[list[int], list[DealResult]] | None = None

    def columns(self) -> tuple[list[int], list[DealResult]]:
        """(each deal's finishing action, each deal's result)."""
        if self._read is None:
            rows = self._rows()
            if len(rows) < self.count:  # fewer than the load counted: an undo by another program, not damage
                raise BusyError("{path} is busy: another program is using it. Nothing was changed; try again in a"
                                " moment.", path=self.store.path)
            if len(rows) != self.count:
                raise DamagedError(self.match_id, Words(SNAPSHOTS, found=len(rows), count=self.count))
            try:
                self._read = [seq for seq, _ in rows], [self.store.results.read(self.match_id, seq, text, self.sides)
                                                          for seq, text in rows]
            except (ValueError, TypeError, KeyError, RecursionError) as err:
                raise DamagedError(self.match_id, Words("its finished deals cannot be read ({reason})",
                                                        reason=str(err))) from None
        return self._read

    def _rows(self) -> list[Any]:
        """The rows, read again through a new connection when the store was closed since the load."""
        try:
            try:
                return self.store.db.execute(TRUSTED, (self.match_id, self.newest)).fetchall()
            except sqlite3.ProgrammingError:  # read after the store was closed: open the file again
                again = self.store.reopen()
                try:
                    return again.db.execute(TRUSTED, (self.match_id, self.newest)).fetchall()
                finally:
                    again.close()
        except sqlite3.Error as err:
            raise DamagedError(self.match_id, Words("its finished deals cannot be read ({reason})",
                                                    reason=str(err))) from None


class Column(Sequence[T]):
    """One column of ``DealRows``: its length known without reading them."""

    def __init__(self, rows: DealRows, which: int) -> None:
        self.rows, self.which = rows, which

    def __len__(self) -> int:
        return self.rows.count

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        column: list[T] = self.rows.columns()[self.which]  # type: ignore[assignment]
        return column[index]


def newest_snapshot(store: Book, mid: int, players: list[str], rules: Rules, dealer: int) -> Snapshot | None:
    """The match's newest snapshot when it is trusted, else None (there is none, the file's rows have
    no running checksums, or they do not hold for the log, the header or the match's sides)."""
    if store.schema < 4:
        return None  # rows without running checksums: the whole log is replayed and compared with them
    newest = _newest(store.db, mid)
    if newest is None:
        return None
    seq, previous, totals_text = newest
    log = _log_after(store.db, mid, previous)
    totals = json_totals(store.db, totals_text)
    sides = sides_of(players, rules.teams)
    if log is None or totals is None or sorted(totals) != sorted(sides) or not store.chains.holds(store.db, mid):
        return None
    count = store.db.execute("SELECT count(*) FROM snapshots WHERE match_id = ?", (mid,)).fetchone()[0]
    rows = DealRows(store, mid, seq, count, sides)
    return Snapshot(seq, Column(rows, 1), totals, Column(rows, 0), [entry for entry in log if entry[0] > seq])


def _newest(db: sqlite3.Connection, mid: int) -> tuple[int, int, object] | None:
    """(seq, the seq of the row before or 0, totals) of the newest snapshot row, None when there is
    none or it is of another engine."""
    snaps = db.execute("SELECT seq, totals FROM snapshots WHERE match_id = ? ORDER BY seq DESC LIMIT 2",
                       (mid,)).fetchall()
    if not snaps:
        return None
    previous = snaps[1][0] if len(snaps) > 1 else 0
    if type(snaps[0][0]) is not int or type(previous) is not int:
        return None
    return snaps[0][0], previous, snaps[0][1]


def _log_after(db: sqlite3.Connection, mid: int, previous: int) -> list[Any] | None:
    """The rows (seq, at, action) after ``previous``, or None when they or the log are not numbered
    1 on without a gap (the whole log replayed says what is wrong)."""
    log = db.execute("SELECT seq, at, action FROM actions WHERE match_id = ? AND seq > ? ORDER BY seq",
                     (mid, previous)).fetchall()
    try:
        check_rows(mid, log)
    except DamagedError:
        return None
    if [seq for seq, _, _ in log] != list(range(previous + 1, previous + len(log) + 1)):
        return None
    if db.execute("SELECT count(*), min(seq) FROM actions WHERE match_id = ?",
                  (mid,)).fetchone() != (previous + len(log), 1 if log or previous else None):
        return None
    return log
