"""All file I/O: the SQLite database that holds every match as its players, rules and log.

A match's state is never stored: it is replayed from the log through the engine. Every change is
one ``BEGIN IMMEDIATE`` transaction that reads the log, checks the change against the replayed
match and appends (or removes) actions, so two processes never lose or duplicate a play and a
crash leaves the old state or the new one. Reads open the file read-only. A file that is not a
pasur database, is damaged or is newer than this version is refused, never overwritten.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
import time
from typing import NamedTuple

from pasur_cli.errors import PasurError
from pasur_cli.match import Match
from pasur_cli.rules import Rules, rules_from_dict

APP = "pasur"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON list, in playing order
    rules TEXT NOT NULL,            -- JSON object of every rule option
    dealer INTEGER NOT NULL,        -- seat of the first deal's dealer
    touched INTEGER NOT NULL        -- a counter: the match changed most recently has the highest
);
CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,           -- 1, 2, 3 ... within the match
    at TEXT NOT NULL,               -- UTC time it was recorded
    action TEXT NOT NULL,           -- JSON, see pasur_cli.match
    PRIMARY KEY (match_id, seq)
);
"""


class StoreError(PasurError):
    """The database cannot be used (not ours, damaged, newer, read-only, missing)."""


class StaleError(PasurError):
    """The match changed after it was shown; the change was not recorded."""


def default_path() -> str:
    """``PASUR_DB`` if set, else pasur/pasur.db in the user data folder."""
    env = os.environ.get("PASUR_DB")
    if env:
        return env
    from platformdirs import user_data_dir
    return os.path.join(user_data_dir(APP, appauthor=False), "pasur.db")


def _uri(path: str) -> str:
    """A file: URI for SQLite (percent-escaping the characters a URI path cannot hold)."""
    escaped = os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return "file:" + escaped


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())


class MatchRecord(NamedTuple):
    """A stored match: who plays, the rules, the first dealer, and its log of actions."""

    id: int
    created: str
    players: list[str]
    rules: Rules
    dealer: int
    actions: list[dict]
    times: list[str]

    def replay(self) -> Match:
        return Match.replay(self.players, self.rules, self.dealer, self.actions)


class Store:
    """One database file. ``Store(path, write=False)`` opens read-only and needs the file to exist."""

    def __init__(self, path: str | None = None, write: bool = False) -> None:
        self.path = str(path) if path else default_path()
        self.write = write
        self.db = self._open()

    # -- opening ---------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        where = self.path
        exists = os.path.exists(where)
        if exists and os.path.isdir(where):
            raise StoreError(f"{where} is a folder, not a pasur database.")
        if exists and os.path.getsize(where):
            with open(where, "rb") as f:
                if f.read(16) != b"SQLite format 3\x00":
                    raise StoreError(f"{where} is not a pasur database (not SQLite at all); it was left untouched.")
        if not self.write and not exists:
            raise StoreError(f"no database at {where} yet: start a match with `pasur new NAME NAME`.")
        if self.write and not exists:
            try:
                os.makedirs(os.path.dirname(os.path.abspath(where)), exist_ok=True)
            except OSError as err:
                raise StoreError(f"cannot create the folder for {where}: {err.strerror}.") from None
        try:
            if self.write:
                db = sqlite3.connect(where, timeout=10, isolation_level=None)
            else:
                # rw (never create) lets SQLite roll back a journal a crashed writer left behind;
                # a file we may not write is still readable with ro.
                folder = os.path.dirname(os.path.abspath(where))
                writable = os.access(where, os.W_OK) and os.access(folder, os.W_OK)
                mode = "rw" if writable else "ro"
                db = sqlite3.connect(f"{_uri(where)}?mode={mode}", uri=True, timeout=10,
                                     isolation_level=None)
            db.execute("PRAGMA foreign_keys = ON")
            self._check_schema(db)
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{where} cannot be read as a pasur database ({err}); it was left untouched.") from None
        return db

    def _check_schema(self, db: sqlite3.Connection) -> None:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            if not self.write:
                raise StoreError(f"{self.path} holds no matches yet: start one with `pasur new NAME NAME`.")
            self._create(db)
            return
        if "meta" not in tables:
            raise StoreError(f"{self.path} is a SQLite database of something else, not pasur; it was left untouched.")
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.get("app") != APP:
            raise StoreError(f"{self.path} is a SQLite database of something else, not pasur; it was left untouched.")
        version = int(meta.get("schema_version", "0"))
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer pasur (schema {version}, this one knows"
                             f" {SCHEMA_VERSION}); upgrade pasur. The file was left untouched.")
        if not {"matches", "actions"} <= tables:
            raise StoreError(f"{self.path} is damaged (tables are missing); it was left untouched.")

    def _create(self, db: sqlite3.Connection) -> None:
        try:
            db.execute("BEGIN IMMEDIATE")
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.executemany("INSERT INTO meta VALUES (?, ?)",
                               [("app", APP), ("schema_version", str(SCHEMA_VERSION))])
            db.execute("COMMIT")
        except sqlite3.OperationalError as err:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StoreError(f"cannot write to {self.path}: {err}.") from None

    def close(self) -> None:
        self.db.close()

    # -- reading ---------------------------------------------------------------------------
    def _row(self, match_id: int) -> tuple:
        row = self.db.execute("SELECT id, created, players, rules, dealer FROM matches WHERE id = ?",
                              (match_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no match {match_id}; `pasur matches` lists them.")
        return row

    def load(self, match_id: int) -> MatchRecord:
        """The stored match with its whole log. Raises StoreError when there is no such match."""
        mid, created, players, rules, dealer = self._row(match_id)
        log = self.db.execute("SELECT at, action FROM actions WHERE match_id = ? ORDER BY seq", (mid,)).fetchall()
        try:
            return MatchRecord(mid, created, json.loads(players), rules_from_dict(json.loads(rules)), dealer,
                               [json.loads(a) for _, a in log], [t for t, _ in log])
        except (ValueError, TypeError) as err:
            raise StoreError(f"match {mid} in {self.path} is damaged ({err}).") from None

    def match_ids(self) -> list[int]:
        """Every match id, most recently changed first."""
        return [r[0] for r in self.db.execute("SELECT id FROM matches ORDER BY touched DESC, id DESC")]

    # -- writing ---------------------------------------------------------------------------
    @contextmanager
    def transaction(self):
        """One write transaction: everything inside is committed together or not at all."""
        if not self.write:
            raise StoreError("this store was opened read-only.")
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise StoreError(f"cannot write to {self.path}: {err}.") from None
        try:
            yield self.db
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def _touch(self, db: sqlite3.Connection, match_id: int) -> None:
        db.execute("UPDATE matches SET touched = (SELECT coalesce(max(touched), 0) + 1 FROM matches) WHERE id = ?",
                   (match_id,))

    def create(self, players: list[str], rules: Rules, dealer: int, actions: list[dict] = (),
               times: list[str] | None = None) -> int:
        """Store a new match (with an optional log, e.g. from an import) and return its id."""
        with self.transaction() as db:
            cur = db.execute("INSERT INTO matches (created, players, rules, dealer, touched) VALUES (?, ?, ?, ?, 0)",
                             (now(), json.dumps(players, ensure_ascii=False), json.dumps(rules.as_dict()), dealer))
            mid = cur.lastrowid
            for seq, action in enumerate(actions, 1):
                at = times[seq - 1] if times else now()
                db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (mid, seq, at, json.dumps(action, ensure_ascii=False)))
            self._touch(db, mid)
        return mid

    @contextmanager
    def changing(self, match_id: int, expect: int | None = None):
        """Open a write transaction on one match and yield a ``Change`` holding it replayed.

        ``expect``: the log length the caller last showed; a different length raises StaleError.
        Whatever the body records with ``Change.append`` / ``Change.drop`` is committed when it
        ends without an exception; an exception (a refused play, Ctrl-C) rolls everything back.
        """
        with self.transaction() as db:
            record = self.load(match_id)
            if expect is not None and expect != len(record.actions):
                raise StaleError("the match changed since it was shown (another pasur recorded something);"
                                 " nothing was recorded. Look again and re-enter.")
            change = Change(db, record)
            yield change
            if change.changed:
                self._touch(db, match_id)


class Change:
    """What one transaction does to one match's log."""

    def __init__(self, db: sqlite3.Connection, record: MatchRecord) -> None:
        self.db, self.record = db, record
        self.match = record.replay()
        self.changed = False

    def append(self, action: dict) -> None:
        seq = len(self.record.actions) + 1
        self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)",
                        (self.record.id, seq, now(), json.dumps(action, ensure_ascii=False)))
        self.record.actions.append(action)
        self.changed = True
        _fault("after-append")

    def drop(self, count: int) -> list[dict]:
        """Remove the last ``count`` actions; return them, oldest first."""
        n = len(self.record.actions)
        self.db.execute("DELETE FROM actions WHERE match_id = ? AND seq > ?", (self.record.id, n - count))
        dropped = self.record.actions[n - count:]
        del self.record.actions[n - count:]
        self.changed = True
        return dropped


def _fault(point: str) -> None:
    """Test-only fault hook: with PASUR_FAULT=point the process dies here without cleaning up."""
    if os.environ.get("PASUR_FAULT") == point:
        os._exit(70)
