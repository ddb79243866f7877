"""One change to one match's log, inside the write transaction that holds it (``Change``): actions
appended, each stored as a line that reads back as the same action (``checked_text``), or the last
ones dropped with the snapshots behind them."""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Any

from pasur_cli.engine.action import Action, read_action, read_line
from pasur_cli.engine.errors import Plural
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import ACTIONS_MOST
from pasur_cli.store.errors import FullError, StoreError
from pasur_cli.store.records import MatchRecord, unreadable


def new_key() -> str:
    """A match key: 16 random hexadecimal digits (64 bits, from the system's random source)."""
    return os.urandom(8).hex()


def now() -> str:
    """The time now, as the store writes it (UTC, ISO 8601, to the second)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())



def checked_text(action: Action | dict[str, Any]) -> str:
    """The line stored for an action, after checking that it reads back as the same action.
    Raises NotationError for no action (``read_action``), StoreError for one that would not read back."""
    value = read_action(action)
    text = value.line
    try:
        same = read_line(text) == value
    except (ValueError, TypeError, KeyError):
        same = False
    if not same:
        raise StoreError("the action {action} cannot be stored as it is (it would not read back); nothing"
                         " was changed.", action=repr(action)[:200])
    return text


class Change:
    """What one transaction does to one match's log."""

    def __init__(self, db: sqlite3.Connection, record: MatchRecord, match: Match) -> None:
        self.db, self.record, self.match = db, record, match
        self.count = record.length
        self.changed = False
        self.dropped = False
        self.undone = 0  # actions ``match`` took back with the rows dropped
        self.steps = 0  # how far the revision moves: one an action appended, one an undo
        self.texts: list[str] = []  # the lines appended, and their times
        self.times: list[str] = []

    def append(self, action: Action) -> None:
        """Add ``action`` to the log. Raises FullError when the log holds the most actions a match
        holds (ACTIONS_MOST), StoreError for an action that would not read back; the transaction
        then rolls back."""
        if self.count >= ACTIONS_MOST:
            raise FullError(Plural("match {match} holds {most} action, the most one match can hold; nothing was"
                                   " recorded (start a new match to play on).",
                                   "match {match} holds {most} actions, the most one match can hold; nothing was"
                                   " recorded (start a new match to play on).", "most"),
                            match=self.record.id, most=ACTIONS_MOST, count=self.count + 1)
        text, at = checked_text(action), now()
        self.count += 1
        self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (self.record.id, self.count, at, text))
        self.texts.append(text)
        self.times.append(at)
        self.changed = True
        self.steps += 1
        _fault("after-append")

    def drop(self, count: int) -> list[Action]:
        """Remove the last ``count`` actions and the snapshots behind them; return them, oldest first.
        ``match`` takes them back too (``Match.undo``) when they came after its snapshot; else it no
        longer describes the log (``undone`` stays 0). Raises DamagedError, before removing
        anything, when one of them cannot be read."""
        keep = self.count - count
        rows = self.db.execute("SELECT seq, action FROM actions WHERE match_id = ? AND seq > ? ORDER BY seq",
                               (self.record.id, keep)).fetchall()
        dropped = []
        for seq, text in rows:
            try:
                dropped.append(read_line(text))
            except (ValueError, TypeError, KeyError):
                raise unreadable(self.record.id, seq, text) from None
        self.db.execute("DELETE FROM actions WHERE match_id = ? AND seq > ?", (self.record.id, keep))
        self.db.execute("DELETE FROM snapshots WHERE match_id = ? AND seq > ?", (self.record.id, keep))
        self.count = keep
        self.changed = self.dropped = True
        self.steps += 1
        if count <= len(self.match.log):  # taken back as the engine takes back (Match.undo): no reload
            self.match.undo(count)
            self.undone = count
        return dropped


def _fault(point: str) -> None:
    """Test-only fault hook: with PASUR_FAULT=point the process dies here without cleaning up."""
    if os.environ.get("PASUR_FAULT") == point:
        os._exit(70)
