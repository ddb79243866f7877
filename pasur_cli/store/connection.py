"""The file's health: how a connection waits for another program's lock, reads a stored text,
and turns a SQLite failure into the store's error (busy, moved, or damaged with the reason)."""

from __future__ import annotations

import os
import sqlite3
import time
from itertools import chain, repeat
from typing import Any

from pasur_cli.store.errors import BusyError, GoneError, StoreError


def busy_timeout() -> float:
    """Seconds to wait for another program's lock: ``PASUR_BUSY_TIMEOUT``, else 10."""
    try:
        return min(max(float(os.environ.get("PASUR_BUSY_TIMEOUT", "10")), 0.0), 600.0)
    except ValueError:
        return 10.0


def is_busy(err: BaseException) -> bool:
    """Whether a SQLite error says the file is locked by another program."""
    name = getattr(err, "sqlite_errorname", "")
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in str(err)


def failure(err: BaseException, path: str, template: str) -> StoreError:
    """The StoreError for a SQLite or decoding failure: busy, moved, or ``template`` with path and reason."""
    if is_busy(err):
        return BusyError("{path} is busy: another program is using it. Nothing was changed; try again in a"
                         " moment.", path=path)
    if getattr(err, "sqlite_errorname", "") == "SQLITE_READONLY_DBMOVED":
        return moved(path)
    return StoreError(template, path=path, reason=str(err))


def moved(path: str) -> GoneError:
    return GoneError("{path} was replaced or deleted after pasur opened it; nothing was recorded.", path=path)


SLICE = 0.05  # the longest pause between two tries at a busy file, and how long a wait lasts before it is said
PAUSES = (0.001, 0.002, 0.005, 0.01, 0.02)  # the first pauses, then SLICE: a lock held briefly costs little
_EXECUTE, _EXECUTEMANY = sqlite3.Connection.execute, sqlite3.Connection.executemany


class Patient(sqlite3.Connection):
    """A connection that waits for another program's lock in Python, never in SQLite: SQLite's own
    wait (its busy timeout) sleeps in C and keeps sleeping through a signal, so a Ctrl-C was acted
    on only when that wait ended. Here SQLite gives up at once (the connection's timeout is 0) and
    a statement that finds the file busy is tried again after pauses growing to ``SLICE``, up to
    ``patience`` seconds in all; each pause is ``time.sleep``, which a signal's handler ends at once
    (Ctrl-C raises KeyboardInterrupt there, and the statement is not tried again). ``waiting`` (if
    set) is called once a statement has waited ``SLICE``, once until a statement succeeds again. A
    statement is tried again only where SQLite allows it: outside a transaction, or COMMIT. Raises
    the last sqlite3.OperationalError when the file stays busy, or at once for any other error."""

    patience = 10.0
    waiting: Any = None
    told = False  # whether ``waiting`` was called since the last statement that succeeded

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        try:
            cursor = _EXECUTE(self, sql, parameters)
        except sqlite3.OperationalError as err:
            return self._patiently(err, _EXECUTE, sql, parameters)
        if self.told:
            self.told = False
        return cursor

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        try:
            return _EXECUTEMANY(self, sql, parameters)
        except sqlite3.OperationalError as err:
            return self._patiently(err, _EXECUTEMANY, sql, parameters)

    def _patiently(self, err: sqlite3.OperationalError, run: Any, sql: str, parameters: Any) -> sqlite3.Cursor:
        """Try the statement again after ``err`` while the file is busy, up to ``patience`` seconds."""
        began = time.monotonic()
        deadline = began + self.patience
        pauses = chain(PAUSES, repeat(SLICE))
        while True:
            now = time.monotonic()
            if not is_busy(err) or (self.in_transaction and sql != "COMMIT") or now >= deadline:
                raise err
            if self.waiting is not None and not self.told and now - began >= SLICE:
                self.told = True
                self.waiting()
            time.sleep(min(next(pauses), deadline - now))  # a signal ends it: its handler's exception goes on from here
            try:
                cursor = run(self, sql, parameters)
            except sqlite3.OperationalError as again:
                err = again
                continue
            self.told = False
            return cursor  # type: ignore[no-any-return]


def stored_text(data: bytes) -> str | bytes:
    """A stored text as str, or as its bytes when they are not UTF-8 (a hand-edited row): the
    match that holds it is then damaged ("not text"), not the whole file."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``; None when there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino
