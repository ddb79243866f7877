"""All file I/O: the SQLite database that holds every match as its players, rules and log.

A match's state is replayed from its log through the engine. Every change is one
``BEGIN IMMEDIATE`` transaction that reads the log, checks the change against the replayed match
and appends (or removes) actions, so two processes never lose or duplicate a play and a crash
leaves the old state or the new one. Reads never create anything. A file that is not a pasur
database, is damaged or is newer than this version is refused, never overwritten.

So that a long match stays instant, each finished deal leaves a snapshot row: the action count
at which it finished, its result, and a CRC of that deal's actions (those after the previous
snapshot) and the result. A command reads the snapshot rows, checks the newest against its
deal's actions, and replays only what came after; if the check fails it replays the whole log.
Undo deletes the snapshots it goes behind.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from contextlib import contextmanager
from typing import NamedTuple

from pasur_cli.errors import PasurError
from pasur_cli.match import DealResult, Match, action_text, parse_action
from pasur_cli.rules import Rules, option_text, parse_rules
from pasur_cli.scoring import SideScore

APP = "pasur"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    players TEXT NOT NULL,          -- one name per line, in playing order
    rules TEXT NOT NULL,            -- every rule option, one NAME=VALUE per line
    dealer INTEGER NOT NULL,        -- seat of the first deal's dealer
    touched INTEGER NOT NULL        -- a counter: the match changed most recently has the highest
);
CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,           -- 1, 2, 3 ... within the match
    at TEXT NOT NULL,               -- UTC time it was recorded
    action TEXT NOT NULL,           -- one line, see pasur_cli.match.action_text
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE snapshots (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,           -- a deal finished with this action
    crc INTEGER NOT NULL,           -- CRC-32 of the deal's action lines and its result
    result TEXT NOT NULL,           -- the deal's result, see result_text
    PRIMARY KEY (match_id, seq)
);
"""


class StoreError(PasurError):
    """The database cannot be used (not ours, damaged, newer, read-only, missing)."""


class StaleError(PasurError):
    """The match changed after it was shown; the change was not recorded."""


def default_path() -> str:
    """``PASUR_DB`` if set, else pasur/pasur.db in the user data folder."""
    return os.environ.get("PASUR_DB") or os.path.join(user_data_dir(), "pasur.db")


def user_data_dir(platform: str = sys.platform) -> str:
    """pasur's folder in the user data folder: the folder platformdirs' ``user_data_dir("pasur",
    appauthor=False)`` names (tests hold the two equal), without its import, which costs about
    9 ms, a fifth of start-up, on every command."""
    if platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser(r"~\AppData\Local")
    elif platform == "darwin":
        base = os.path.expanduser("~/Library/Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser("~/.local/share")
    return os.path.join(base, APP)


def _uri(path: str) -> str:
    """A file: URI for SQLite (percent-escaping the characters a URI path cannot hold)."""
    escaped = os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return "file:" + escaped


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())


class MatchRecord(NamedTuple):
    """A stored match: who plays, the rules, the first dealer, the ``touched`` counter it was read
    at, the results of its first ``start`` actions (from snapshots), and the actions after them
    (lines and times). A full load has start 0: every action, no snapshot."""

    id: int
    created: str
    players: list[str]
    rules: Rules
    dealer: int
    touched: int
    start: int
    results: list[DealResult]
    texts: list[str]
    times: list[str]

    @property
    def length(self) -> int:
        """How many actions the match's log holds."""
        return self.start + len(self.texts)

    @property
    def actions(self) -> list[dict]:
        """The actions this record holds (all of them after a full load)."""
        return [parse_action(t) for t in self.texts]

    def replay(self) -> Match:
        return Match.replay(self.players, self.rules, self.dealer, self.actions, self.results, self.start)


def crc(texts: list[str]) -> int:
    import zlib  # only when a snapshot is checked or written
    return zlib.crc32("\n".join(texts).encode())


def result_text(r: DealResult) -> str:
    """A deal result as one line: number, dealer, tallied, then side=score fields, tab-separated."""
    sides = [f"{side}={','.join(str(v) for v in score.as_dict().values())}" for side, score in r.scores.items()]
    return "\t".join([str(r.number), r.dealer, "1" if r.tallied else "0", *sides])


def parse_result(line: str) -> DealResult:
    number, dealer, tallied, *sides = line.split("\t")
    scores = {}
    for item in sides:
        side, _, values = item.rpartition("=")
        scores[side] = SideScore(*(int(v) for v in values.split(",")))
    return DealResult(int(number), dealer, scores, tallied == "1")


class Store:
    """One database file, opened for reading, or for writing with ``write``; only ``create`` makes
    a missing file (with its folder)."""

    def __init__(self, path: str | None = None, write: bool = False, create: bool = False) -> None:
        self.path = str(path) if path else default_path()
        self.write, self.may_create = write or create, create
        self.db = self._open()
        self._replayed: tuple[MatchRecord, Match] | None = None

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
        if not self.may_create and not exists:
            raise StoreError(f"no database at {where} yet: start a match with `pasur new NAME NAME`.")
        if not exists:
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
            if not self.may_create:
                raise StoreError(f"{self.path} holds no matches yet: start one with `pasur new NAME NAME`.")
            self._create(db)
            return
        if "meta" not in tables:
            raise StoreError(f"{self.path} is a SQLite database of something else, not pasur; it was left untouched.")
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.get("app") != APP:
            raise StoreError(f"{self.path} is a SQLite database of something else, not pasur; it was left untouched.")
        version = meta.get("schema_version", "")
        if not version.isdigit():
            raise StoreError(f"{self.path} is damaged (its schema version is {version!r}); it was left untouched.")
        version = int(version)
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer pasur (schema {version}, this one knows"
                             f" {SCHEMA_VERSION}); upgrade pasur. The file was left untouched.")
        if not {"matches", "actions", "snapshots"} <= tables:
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
    def load(self, match_id: int, full: bool = False) -> MatchRecord:
        """The stored match: from its snapshots and the actions after them, or with ``full`` its
        whole log. Raises StoreError when there is no such match or it cannot be read."""
        try:
            return self._load(match_id, full)
        except sqlite3.Error as err:
            raise StoreError(f"{self.path} is damaged ({err}); it was left untouched.") from None

    def _load(self, match_id: int, full: bool) -> MatchRecord:
        row = self.db.execute("SELECT id, created, players, rules, dealer, touched FROM matches WHERE id = ?",
                              (match_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no match {match_id}; `pasur matches` lists them.")
        mid, created, players, rules, dealer, touched = row
        try:
            players, rules = players.split("\n"), parse_rules("standard", rules.split("\n"))
        except PasurError as err:
            raise StoreError(f"match {mid} in {self.path} is damaged ({err}).") from None
        start, results, log = (0, [], None) if full else self._from_snapshots(mid)
        if log is None:
            log = self.db.execute("SELECT seq, at, action FROM actions WHERE match_id = ? ORDER BY seq",
                                  (mid,)).fetchall()
        return MatchRecord(mid, created, players, rules, dealer, touched, start, results,
                           [a for _, _, a in log], [t for _, t, _ in log])

    def _from_snapshots(self, mid: int) -> tuple[int, list[DealResult], list | None]:
        """(start, results, actions after start) from the snapshots, or (0, [], None) when there are
        none or the newest does not match the log."""
        snaps = self.db.execute("SELECT seq, crc, result FROM snapshots WHERE match_id = ? ORDER BY seq",
                                (mid,)).fetchall()
        if not snaps:
            return 0, [], None
        newest, crc_stored, result = snaps[-1]
        previous = snaps[-2][0] if len(snaps) > 1 else 0
        log = self.db.execute("SELECT seq, at, action FROM actions WHERE match_id = ? AND seq > ? ORDER BY seq",
                              (mid, previous)).fetchall()
        deal = [a for seq, _, a in log if seq <= newest]
        expected = list(range(previous + 1, newest + 1))
        if [seq for seq, _, _ in log if seq <= newest] != expected or crc([*deal, result]) != crc_stored:
            return 0, [], None  # the snapshot does not match the log: replay everything
        try:
            results = [parse_result(r) for _, _, r in snaps]
        except ValueError:
            return 0, [], None
        return newest, results, [entry for entry in log if entry[0] > newest]

    def match(self, match_id: int) -> tuple[MatchRecord, Match]:
        """The stored match replayed (kept, so a change in the same command need not replay it again)."""
        record = self.load(match_id)
        match = record.replay()
        self._replayed = (record, match)
        return record, match

    def every_match(self) -> list[tuple[MatchRecord, Match]]:
        """Every match replayed (from its snapshots), most recently changed first; each record
        holds the match's ``created`` date."""
        return [self.match(mid) for mid in self.match_ids()]

    def match_ids(self) -> list[int]:
        """Every match id, most recently changed first."""
        try:
            return [r[0] for r in self.db.execute("SELECT id FROM matches ORDER BY touched DESC, id DESC")]
        except sqlite3.Error as err:
            raise StoreError(f"{self.path} is damaged ({err}); it was left untouched.") from None

    # -- writing ---------------------------------------------------------------------------
    @contextmanager
    def transaction(self):
        """One write transaction: everything inside is committed together or not at all."""
        if not self.write:
            raise StoreError("this store was opened read-only.")
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise StoreError(f"cannot write to {self.path}: {err}.") from None
        try:
            yield self.db
            self.db.execute("COMMIT")
        except BaseException as err:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if isinstance(err, sqlite3.Error):
                raise StoreError(f"cannot write to {self.path}: {err}; nothing was changed.") from None
            raise

    def _touch(self, db: sqlite3.Connection, match_id: int) -> None:
        db.execute("UPDATE matches SET touched = (SELECT coalesce(max(touched), 0) + 1 FROM matches) WHERE id = ?",
                   (match_id,))

    def create(self, players: list[str], rules: Rules, dealer: int, actions: list[dict] = (),
               times: list[str] | None = None, match: Match | None = None) -> int:
        """Store a new match and return its id. An import passes its log, the times and the match
        it replays to (for the snapshot of its last finished deal)."""
        rules_lines = "\n".join(f"{k}={option_text(v)}" for k, v in rules.as_dict().items())
        texts = [action_text(a) for a in actions]
        with self.transaction() as db:
            cur = db.execute("INSERT INTO matches (created, players, rules, dealer, touched) VALUES (?, ?, ?, ?, 0)",
                             (now(), "\n".join(players), rules_lines, dealer))
            mid = cur.lastrowid
            for seq, text in enumerate(texts, 1):
                db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (mid, seq, times[seq - 1] if times else now(), text))
            if match is not None:
                for number in range(len(match.results)):
                    _snapshot(db, mid, match, number)
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
            row = db.execute("SELECT touched FROM matches WHERE id = ?", (match_id,)).fetchone()
            kept = self._replayed
            if kept and row and kept[0].id == match_id and kept[0].touched == row[0]:
                record, match = kept  # the log has not moved since this command read it
            else:
                record, match = self.match(match_id)
            self._replayed = None  # the change below mutates it
            if expect is not None and expect != record.length:
                raise StaleError("the match changed since it was shown (another pasur recorded something);"
                                 " nothing was recorded. Look again and re-enter.")
            change = Change(db, record, match)
            finished = len(match.results)
            yield change
            if change.changed:
                if len(match.results) > finished:
                    _snapshot(db, match_id, match, len(match.results) - 1)
                self._touch(db, match_id)


class Change:
    """What one transaction does to one match's log."""

    def __init__(self, db: sqlite3.Connection, record: MatchRecord, match: Match) -> None:
        self.db, self.record, self.match = db, record, match
        self.count = record.length
        self.changed = False

    def append(self, action: dict) -> None:
        self.count += 1
        self.db.execute("INSERT INTO actions VALUES (?, ?, ?, ?)", (self.record.id, self.count, now(), action_text(action)))
        self.changed = True
        _fault("after-append")

    def drop(self, count: int) -> list[dict]:
        """Remove the last ``count`` actions and the snapshots behind them; return them, oldest first.
        (``match`` no longer describes the log after this.)"""
        keep = self.count - count
        rows = self.db.execute("SELECT action FROM actions WHERE match_id = ? AND seq > ? ORDER BY seq",
                               (self.record.id, keep)).fetchall()
        self.db.execute("DELETE FROM actions WHERE match_id = ? AND seq > ?", (self.record.id, keep))
        self.db.execute("DELETE FROM snapshots WHERE match_id = ? AND seq > ?", (self.record.id, keep))
        self.count = keep
        self.changed = True
        return [parse_action(text) for text, in rows]


def _snapshot(db: sqlite3.Connection, match_id: int, match: Match, number: int) -> None:
    """Keep deal ``number`` (0-based) of the match as a snapshot row at the action that finished it."""
    seq = match.completed_at[number]
    previous = match.completed_at[number - 1] if number else 0
    deal = [a for a, in db.execute("SELECT action FROM actions WHERE match_id = ? AND seq > ? AND seq <= ?"
                                   " ORDER BY seq", (match_id, previous, seq))]
    result = result_text(match.results[number])
    db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?)", (match_id, seq, crc([*deal, result]), result))


def _fault(point: str) -> None:
    """Test-only fault hook: with PASUR_FAULT=point the process dies here without cleaning up."""
    if os.environ.get("PASUR_FAULT") == point:
        os._exit(70)
