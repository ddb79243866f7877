"""The record book on disk: the SQLite database that holds every match as its players, rules and log.

A match's state is replayed from its log through the engine. Every change is one
``BEGIN IMMEDIATE`` transaction that reads the log, checks the change against the replayed match
and appends (or removes) actions, so two processes never lose or duplicate a play and a crash
leaves the old state or the new one. Reads never create anything. A file that is not a pasur
database, is damaged or is newer than this version is refused, never overwritten. A path is
always one file on disk: ``:memory:``, ``file:`` URIs and an empty path are refused.

So that a long match stays instant, each finished deal leaves a snapshot row: the action count
at which it finished, the engine version that computed it, its result and the match totals after
it (JSON, fields by name), and a CRC of that deal's actions (those after the previous snapshot),
the result and the totals. A command reads the newest snapshot row, checks it against its deal's actions and
the engine version, and replays only what came after. The totals are read by SQLite's JSON
functions; the results are parsed only when a command reads them (``score``: the CRC covers each
result; one that does not fit its match makes the whole log be replayed). If the check fails it replays
the whole log (and the next change rewrites the snapshots). Undo deletes the snapshots it goes behind.

A match is one match forever: ids only grow (the highest given is kept in ``meta`` across deletes),
each match has a random ``key`` no other match has, and a ``revision`` that moves with every change
(one an action appended, one an undo) and never goes back. ``--expect`` and the session hold an
``Expected`` (key and revision) and a change is refused (StaleError) unless the match still is that
match at that revision. A wait for another program's lock is Python's, in pauses a signal ends (``Patient``),
so Ctrl-C ends it at once; a store notices when its path no longer names the file it opened (GoneError).

A match whose log no longer replays is *damaged*: loading it raises DamagedError naming the
reason, and the other matches are unaffected; ``delete`` removes it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pasur_cli.engine.action import Action, read_action, read_line
from pasur_cli.engine.arguments import check_type, shown, wrong_type
from pasur_cli.engine.errors import NotationError, PasurError, Plural, Words, shorten
from pasur_cli.engine.match import DealResult, Match
from pasur_cli.engine.names import ACTIONS_MOST, check_players, side_names, sides_of
from pasur_cli.engine.reading import N_
from pasur_cli.engine.rules import Rules, rules_lines, stored_rules
from pasur_cli.engine.scoring import match_winner
from pasur_cli.engine.stats import Standing, standing_of
from pasur_cli.engine.values import Value
from pasur_cli.store.connection import Patient, busy_timeout, failure, identity, is_busy, moved, stored_text
from pasur_cli.store.errors import (
    AlreadyImported,
    DamagedError,
    FullError,
    NoMatchError,
    StaleError,
    StoreError,
    check_rows,
)
from pasur_cli.store.paths import APP, check_path, default_path, sqlite_uri
from pasur_cli.store.resume import newest_snapshot
from pasur_cli.store.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION
from pasur_cli.store.snapshots import (
    EVERY_BOOK,
    EVERY_LOG,
    as_json,
    chain_holds,
    figures_from,
    first_mismatch,
    json_totals,
    read_object,
    rebuild_snapshots,
    sql_crc,
    write_snapshot,
)


class Expected(Value):
    """What a caller last showed of a match, for ``--expect`` and the session: the match's ``key``
    (None: not checked, as for a bare ``--expect N``) and its ``revision``; ``length`` is the log
    length shown (None when unknown), used only to say what changed."""

    key: str | None
    revision: int
    length: int | None = None

    @property
    def token(self) -> str:
        """The text ``--expect`` takes for it: ``KEY:REVISION``, or the bare revision."""
        return str(self.revision) if self.key is None else f"{self.key}:{self.revision}"


def parse_expected(text: str) -> Expected | None:
    """The Expected that ``--expect`` text names: ``KEY:REVISION`` (as ``show --json`` reports
    "revision") or a bare number; None when it is neither. Digits may be in any script."""
    from pasur_cli.engine.reading import whole_number
    key, sep, number = text.strip().rpartition(":")
    if sep and not _is_key(key):
        return None
    revision = whole_number(number, 40)
    if revision is None or revision > 2**63 - 1:
        return None
    return Expected(key if sep else None, revision)


def _is_key(text: str) -> bool:
    return len(text) == 16 and all(ch in "0123456789abcdef" for ch in text)


def new_key() -> str:
    """A match key: 16 random hexadecimal digits (64 bits, from the system's random source)."""
    return os.urandom(8).hex()


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())


def _read_header(path: str) -> bytes:
    """The first 16 bytes of the file (a seam the tests use to simulate a file nobody may read)."""
    with open(path, "rb") as f:
        return f.read(16)


def _check_header(where: str, exists: bool) -> None:
    """Raise StoreError unless the file at ``where`` (if any, and not empty) begins as SQLite's do."""
    if exists and os.path.isdir(where):
        raise StoreError("{path} is a folder, not a pasur database.", path=where)
    if exists and os.path.getsize(where):
        try:
            header = _read_header(where)
        except OSError as err:
            raise StoreError("{path} cannot be read ({reason}); it was left untouched.",
                             path=where, reason=err.strerror or err) from None
        if header != b"SQLite format 3\x00":
            raise StoreError("{path} is not a pasur database (not SQLite at all); it was left untouched.",
                             path=where)


class MatchRecord(Value):
    """A stored match: who plays, the rules, the first dealer, the ``touched`` counter it was read
    at, the results of its first ``start`` actions (from snapshots) with the totals and action
    counts at each, and the actions after them (lines and times). A full load has start 0: every
    action, no snapshot."""

    id: int
    created: str
    players: list[str]
    rules: Rules
    dealer: int
    touched: int
    start: int
    results: Sequence[DealResult]
    texts: list[str]
    times: list[str]
    totals: dict[str, int] | None = None
    completed_at: Sequence[int] | None = None
    key: str | None = None  # None in a file of an older schema, read without migrating it
    revision: int = -1  # -1: the log's length (a file of an older schema)

    @property
    def expected(self) -> Expected:
        """What a caller that shows this record expects when it records: this match, this revision."""
        return Expected(self.key, self.revision if self.revision >= 0 else self.length, self.length)

    @property
    def length(self) -> int:
        """How many actions the match's log holds."""
        return self.start + len(self.texts)

    @property
    def actions(self) -> list[Action]:
        """The actions this record holds (all of them after a full load). Raises DamagedError for
        a line that is no action."""
        out = []
        for number, text in enumerate(self.texts, self.start + 1):
            try:
                out.append(read_line(text))
            except (ValueError, TypeError, KeyError):
                raise _unreadable(self.id, number, text) from None
        return out

    def replay(self) -> Match:
        """The match resumed from its snapshot (``Match.resume``) and replayed on with the actions
        after it. Raises DamagedError."""
        actions = self.actions
        try:
            if not self.start:
                return Match.replay(self.players, self.rules, self.dealer, actions)
            match = Match.resume(self.players, self.rules, self.dealer, start=self.start, results=self.results,
                                 completed_at=self.completed_at or (), totals=self.totals or {})
            match.replay_more(actions)
            return match
        except Exception as err:  # a stored log the engine cannot replay, for whatever reason, is damaged
            raise DamagedError(self.id, _reason(err)) from None


def _reason(err: Exception) -> PasurError | str:
    """An exception as the reason a match is damaged: the engine's error itself (a fact the reader's
    language writes), or the kind and text of any other."""
    if isinstance(err, PasurError):
        return err
    text = str(err)
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _unreadable(match_id: int, number: int, line: str) -> DamagedError:
    """The error for a stored line that is no action: the line itself (shortened) is the reason."""
    return DamagedError(match_id, Words("action {number} is not a line pasur writes ({line!r})",
                                        number=number, line=shorten(line, 60)))


class Store:
    """One database file, opened for reading, or for writing with ``write``; only ``create`` makes
    a missing file (with its folder)."""

    def __init__(self, path: str | None = None, write: bool = False, create: bool = False,
                 waiting: Any = None) -> None:
        self.path = check_path(str(path) if path is not None else default_path())
        self.write, self.may_create = write or create, create
        self.legacy = False  # schema 1: snapshots in the old format (ignored; rebuilt on migration)
        self.schema = SCHEMA_VERSION  # of the file, read as it is when it is older and only read
        self._waiting = waiting  # called when the file is first found busy (see Patient)
        self._unchained = False  # the snapshots' figures and running checksums are yet to be written (schema 4)
        self.db = self._open()
        self.identity = identity(self.path)  # the file opened, to notice it replaced or deleted
        self.commits = 0  # transactions committed through this store
        self._replayed: tuple[MatchRecord, Match] | None = None
        # match id -> the first deal whose stored figures did not match its log (they were
        # recomputed from the log instead): the commands that show figures say so
        self.mismatched: dict[int, int] = {}
        if self._unchained:
            self._chain_every_match()

    # -- opening ---------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        where = self.path
        exists = os.path.exists(where)
        _check_header(where, exists)
        if not self.may_create and not exists:
            raise StoreError("no database at {path} yet: start a match with `pasur new NAME NAME`.", path=where)
        if not exists:
            try:
                os.makedirs(os.path.dirname(os.path.abspath(where)), exist_ok=True)
            except OSError as err:
                raise StoreError("cannot create the folder for {path}: {reason}.", path=where,
                                 reason=err.strerror) from None
        try:
            if self.write:
                mode = "rwc" if self.may_create else "rw"
            else:
                # rw (never create) lets SQLite roll back a journal a crashed writer left behind;
                # a file we may not write is still readable with ro.
                folder = os.path.dirname(os.path.abspath(where))
                writable = os.access(where, os.W_OK) and os.access(folder, os.W_OK)
                mode = "rw" if writable else "ro"
            patience = busy_timeout()
            db = sqlite3.connect(f"{sqlite_uri(where)}?mode={mode}", uri=True, timeout=0,
                                 isolation_level=None, factory=Patient)
            db.patience = patience
            db.waiting = self._waiting
            db.text_factory = stored_text
            db.create_function("pasur_crc", 1, sql_crc, deterministic=True)
        except sqlite3.Error as err:
            raise failure(err, where, N_("{path} cannot be opened ({reason}); it was left untouched.")) from None
        try:
            db.execute("PRAGMA foreign_keys = ON")
            self._check_schema(db)
        except (sqlite3.Error, UnicodeDecodeError, ValueError) as err:
            db.close()
            if isinstance(err, PasurError):
                raise
            raise failure(err, where, N_("{path} cannot be read as a pasur database ({reason});"
                                       " it was left untouched.")) from None
        except BaseException:
            db.close()
            raise
        return db

    def _check_schema(self, db: sqlite3.Connection) -> None:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            if not self.may_create:
                raise StoreError("{path} holds no matches yet: start one with `pasur new NAME NAME`.", path=self.path)
            self._create(db)
            return
        if "meta" not in tables:
            raise StoreError("{path} is a SQLite database of something else, not pasur; it was left untouched.",
                             path=self.path)
        meta = dict(db.execute("SELECT key, value FROM meta"))
        if meta.get("app") != APP:
            raise StoreError("{path} is a SQLite database of something else, not pasur; it was left untouched.",
                             path=self.path)
        text = str(meta.get("schema_version", ""))
        if not (text.isascii() and text.isdigit() and len(text) < 6):
            raise StoreError("{path} is damaged (its schema version is {version}); it was left untouched.",
                             path=self.path, version=repr(text))
        version = int(text)
        if version > SCHEMA_VERSION:
            raise StoreError("{path} was written by a newer pasur (schema {version}, this one knows {known});"
                             " upgrade pasur. The file was left untouched.", path=self.path, version=version,
                             known=SCHEMA_VERSION)
        if not {"matches", "actions", "snapshots"} <= tables:
            raise StoreError("{path} is damaged (tables are missing); it was left untouched.", path=self.path)
        if version < SCHEMA_VERSION:
            if self.write:
                self._migrate(db, version)
                meta["unchained"] = "1" if version >= 2 else ""
            else:
                self.schema, self.legacy = version, version < 2
        self._unchained = self.write and meta.get("unchained") == "1"

    def _migrate(self, db: sqlite3.Connection, version: int) -> None:
        """Move the file from schema ``version`` to this one, each step in turn (``MIGRATIONS``), in
        one transaction; everything else is kept as it is."""
        db.execute("BEGIN IMMEDIATE")
        try:
            for step in MIGRATIONS[version:]:
                step(db)
            db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _chain_every_match(self) -> None:
        """After the move to schema 4: every match whose snapshots all check out against its log
        (each match replayed from its whole log: its snapshots have no running checksums yet, and a
        rule changed by hand is in no deal's own checksum) gets them written again with their
        figures and running checksums, in one transaction; until it is committed the file's meta
        says ``unchained``, so an interrupted one is done again by the next command that writes. A
        match that is damaged, or whose figures do not match its log, is left as it is: the commands
        that show it still say so, and its next change writes them."""
        try:
            with self.transaction() as db:
                for (mid,) in db.execute("SELECT DISTINCT match_id FROM snapshots").fetchall():
                    try:  # from the whole log: a chained snapshot (schema 5) is read lazily, after its rows go
                        match = self.load(mid, full=True).replay()
                        self._compare(mid, match)
                    except (DamagedError, StoreError):
                        continue
                    if mid not in self.mismatched:
                        rebuild_snapshots(db, mid, match)
                db.execute("DELETE FROM meta WHERE key = 'unchained'")
        finally:
            self._replayed, self.mismatched = None, {}

    def _create(self, db: sqlite3.Connection) -> None:
        try:
            db.execute("BEGIN IMMEDIATE")
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.executemany("INSERT INTO meta VALUES (?, ?)",
                               [("app", APP), ("schema_version", str(SCHEMA_VERSION)), ("last_match", "0")])
            db.execute("COMMIT")
        except sqlite3.OperationalError as err:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise failure(err, self.path, N_("cannot write to {path}: {reason}.")) from None

    def reopen(self) -> Store:
        """The same file opened again, read-only (after this one was closed)."""
        return Store(self.path)

    def close(self) -> None:
        self.db.close()

    def check_file(self) -> None:
        """Raise GoneError when the path no longer names the file this store opened (it was
        replaced by another, or deleted): what would be written now would be lost with it."""
        if identity(self.path) != self.identity:
            raise moved(self.path)

    def hold_little(self) -> None:
        """For a process that lives long (the session): SQLite keeps at most 256 KiB of the file in
        memory. Its default, 2 MiB, fills as a long match's snapshots are checked again at each deal's
        end, so the session grew with the file (1.7 of its 2.8 MiB over 450 deals); the file's pages
        are in the system's cache all the same."""
        try:
            self.db.execute("PRAGMA cache_size = -256")
        except sqlite3.Error as err:
            raise failure(err, self.path, N_("{path} cannot be read ({reason}); it was left untouched.")) from None

    def waiting(self, call: Any) -> None:
        """Call ``call()`` whenever a statement first finds the file busy (the session says it waits)."""
        self.db.waiting = call  # type: ignore[attr-defined]

    # -- reading ---------------------------------------------------------------------------
    def load(self, match_id: int, full: bool = False) -> MatchRecord:
        """The stored match: from its newest snapshot and the actions after it, or with ``full``
        its whole log. Raises StoreError when there is no such match or it cannot be read."""
        _check_id(match_id)
        try:
            return self._load(match_id, full)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    def _load(self, match_id: int, full: bool) -> MatchRecord:
        identity = "key, revision" if self.schema >= 3 else "NULL, -1"
        row = self.db.execute(f"SELECT id, created, players, rules, dealer, touched, {identity} FROM matches"
                              " WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise _no_match(match_id)
        mid, created, players, rules, dealer, touched, key, revision = row
        least = 0 if self.schema >= 3 else -1
        if type(revision) is not int or revision < least or (key is not None and not isinstance(key, str)):
            raise DamagedError(mid, Words("its key or revision is not what pasur writes"))
        if not isinstance(players, str) or not isinstance(rules, str):
            raise DamagedError(mid, Words("its players or rules are not text"))
        if not isinstance(created, str):
            raise DamagedError(mid, Words("its date is not text"))
        try:
            players, rules = players.split("\n"), self.rules_of(rules)
        except (ValueError, TypeError) as err:  # NotationError naming the option, or Rules.from_dict's refusal
            raise DamagedError(mid, _reason(err)) from None
        if not isinstance(dealer, int) or not 0 <= dealer < len(players):
            raise DamagedError(mid, Words("its first dealer is seat {seat}", seat=repr(dealer)))
        snap = None if full or self.legacy else newest_snapshot(self, mid, players, rules, dealer)
        if snap is None:
            log = self.db.execute("SELECT seq, at, action FROM actions WHERE match_id = ? ORDER BY seq",
                                  (mid,)).fetchall()
            check_rows(mid, log)
            if [seq for seq, _, _ in log] != list(range(1, len(log) + 1)):
                raise DamagedError(mid, Words("its actions are not numbered 1 to {count}", count=len(log)))
            return MatchRecord(mid, created, players, rules, dealer, touched, 0, [],
                               [a for _, _, a in log], [t for _, t, _ in log], key=key, revision=revision)
        return MatchRecord(mid, created, players, rules, dealer, touched, snap.start, snap.results,
                           [a for _, _, a in snap.log], [t for _, t, _ in snap.log], snap.totals, snap.completed_at,
                           key, revision)

    def match(self, match_id: int) -> tuple[MatchRecord, Match]:
        """The stored match replayed (kept, so a change in the same command need not replay it
        again). Raises DamagedError when it cannot be replayed."""
        kept = self._replayed
        if kept and kept[0].id == match_id:  # replayed in this process: still the log, unless another wrote
            try:
                row = self.db.execute("SELECT touched FROM matches WHERE id = ?", (match_id,)).fetchone()
            except (sqlite3.Error, UnicodeDecodeError) as err:
                if is_busy(err):  # waited already: not a second time through load
                    raise failure(err, self.path, "") from None
                row = None
            if row and row[0] == kept[0].touched:
                return kept
        try:
            record = self.load(match_id)
            match = record.replay()
        except DamagedError:
            self.mismatched.pop(match_id, None)  # damaged, said as such: not merely figures recomputed
            raise
        if not record.start and not self.legacy:  # the snapshots, if any, were not trusted
            self._compare(match_id, match)
        self._replayed = (record, match)
        return record, match

    def current(self, match_id: int | None = None) -> tuple[int, Match]:
        """The match every front end means when none is named: ``match_id`` when given, else the
        most recently changed match that is not finished, else the most recent one (so a match just
        won is still the one shown), with the match replayed. Raises NoMatchError for a ``match_id``
        that names no match, DamagedError for a damaged match on the way (never skipped silently),
        StoreError when the file holds no match."""
        if match_id is not None:
            return match_id, self.match(match_id)[1]
        ids = self.match_ids()
        for mid in ids:
            match = self.match(mid)[1]
            if not match.finished:
                return mid, match
        if not ids:
            raise StoreError("there is no match yet: start one with `pasur new NAME NAME`.")
        return ids[0], self.match(ids[0])[1]

    def deal_actions(self, record: MatchRecord, number: int) -> tuple[list[DealResult], int, list[Action]]:
        """What `log --deal N` replays: the results of the deals before deal ``number`` (from the
        snapshots, checked against their deals' actions), how many actions came before it, and
        its own actions (none for a deal not begun). Reads that deal's actions alone. Raises
        DamagedError."""
        count = len(record.results) if record.start else 0
        if not record.start or not 0 < number <= count + 1:
            return [], 0, record.actions if not record.start else []  # no snapshot to start from
        completed = record.completed_at or []
        first = completed[number - 2] if number > 1 else 0
        last = completed[number - 1] if number <= count else record.length
        rows = self.db.execute("SELECT seq, action FROM actions WHERE match_id = ? AND seq > ? AND seq <= ?"
                               " ORDER BY seq", (record.id, first, last)).fetchall()
        if [seq for seq, _ in rows] != list(range(first + 1, last + 1)):
            raise DamagedError(record.id, Words("its actions are not numbered 1 to {count}", count=record.length))
        actions = []
        for seq, text in rows:
            try:
                actions.append(read_line(text))
            except (ValueError, TypeError, KeyError):
                raise _unreadable(record.id, seq, text) from None
        return list(record.results[:number - 1]), first, actions

    def _compare(self, match_id: int, match: Match) -> None:
        """Note in ``mismatched`` the first deal whose stored snapshot is not what the match, replayed
        from its whole log, makes of it (its figures are shown recomputed)."""
        try:
            number = first_mismatch(self.db, match_id, match, self.schema >= 4)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
        if number is not None:
            self.mismatched.setdefault(match_id, number)

    def checked(self, match_id: int) -> tuple[MatchRecord, Match]:
        """``match``: every finished deal's snapshot is trusted at once or the whole log replayed and
        compared with them (a deal that does not match is noted in ``mismatched``). Raises
        DamagedError."""
        return self.match(match_id)


    def expected(self, match_id: int) -> Expected:
        """The match and revision a caller that shows the match now expects when it records (as
        replayed by ``match`` in this command, if it was)."""
        kept = self._replayed
        if kept and kept[0].id == match_id:
            return kept[0].expected
        return self.load(match_id).expected

    def stored_revision(self, match_id: int) -> Expected | None:
        """The match's key and revision as stored, read without replaying it (a damaged match has
        them too); None when there is no such match."""
        identity = "key, revision" if self.schema >= 3 else "NULL, NULL"
        try:
            row = self.db.execute(f"SELECT {identity}, (SELECT count(*) FROM actions WHERE match_id = ?)"
                                  " FROM matches WHERE id = ?", (match_id, match_id)).fetchone()
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
        if row is None:
            return None
        key, revision, count = row
        return Expected(key if isinstance(key, str) else None, revision if type(revision) is int else count, count)

    def length(self, match_id: int) -> int:
        """How many actions the match's log holds (as replayed by ``match`` in this command, if it was)."""
        kept = self._replayed
        if kept and kept[0].id == match_id:
            return kept[0].length
        try:
            return int(self.db.execute("SELECT count(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone()[0])
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    def standings(self) -> list[tuple[int, Standing | DamagedError]]:
        """Every match's standing (what `matches` lists and `stats` adds up), most recently changed
        first, or the DamagedError that says why it cannot be replayed. Read with three queries for
        the whole file rather than a dozen a match (`matches` and `stats` over 5,000 matches): a
        match whose snapshots all check out at once (``chain_holds``) is read from its newest
        snapshot, with the deal in progress replayed; any other is read alone, by ``checked``
        (every snapshot checked deal by deal), which says what is wrong."""
        try:
            identity = "key, revision" if self.schema >= 3 else "NULL, -1"
            heads = self.db.execute(f"SELECT id, created, players, rules, dealer, touched, {identity} FROM matches"
                                    " ORDER BY touched DESC, id DESC").fetchall()
            held: dict[int, Any] = {}  # the matches whose snapshots all check out: their newest
            if self.schema >= 4 and not self.legacy:
                stored = {head[0]: (head[2], head[3], head[4]) for head in heads}
                books = {row[0]: row[1:] for row in self.db.execute(EVERY_BOOK)}
                for mid, *log in self.db.execute(EVERY_LOG):  # each match's log checked as it comes
                    book, head = books.pop(mid, None), stored.get(mid)
                    if book is not None and head is not None and chain_holds(head, book, log):
                        held[mid] = (*book[:-1], log[0] - book[1])  # the rows' text no longer needed
                del books
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
        rules_read: dict[object, Rules] = {}
        out: list[tuple[int, Standing | DamagedError]] = []
        for head in heads:
            mid = head[0]
            try:
                quick = self._standing(head, held.get(mid), rules_read)
            except Exception:  # anything that does not check out: read alone, the careful way
                quick = None
            read: Standing | DamagedError
            try:
                if quick is None:
                    record, match = self.checked(mid)
                    quick = standing_of(mid, record.created, match)
                read = quick
            except DamagedError as err:
                self.mismatched.pop(mid, None)  # damaged, said as such
                read = err
            except NoMatchError:
                continue  # deleted by another program since the list was read: not listed, as after it
            out.append((mid, read))
        return out

    def _standing(self, head: Any, book: Any, rules_read: dict[object, Rules]) -> Standing | None:
        """One match's standing from its row and its newest snapshot (``book``: the row of EVERY_BOOK
        whose chain held, with the number of actions after it in place of the rows' text), or None
        when anything does not check out (or there is no such snapshot)."""
        if book is None:
            return None
        mid, created, players, rules_text, dealer, _, key, revision = head
        if (not isinstance(created, str) or type(revision) is not int or revision < (0 if self.schema >= 3 else -1)
                or (key is not None and not isinstance(key, str))):
            return None
        if rules_text not in rules_read:
            rules_read[rules_text] = self.rules_of(rules_text)
        names, rules = players.split("\n"), rules_read[rules_text]
        if not 0 <= dealer < len(names):
            return None
        deals, _, _, _, _, totals_text, figures_text, after = book
        seats, sides = side_names(names, rules.teams), sides_of(names, rules.teams)
        stored = json_totals(self.db, totals_text)
        figures = figures_from(figures_text, sides)
        if stored is None or figures is None or sorted(stored) != sorted(sides):
            return None
        totals = {side: stored[side] for side in sides}
        if after:  # a deal going on: replayed, and it must not have finished one (else: read alone)
            _, match = self.match(mid)
            if len(match.results) != deals:
                return None
            totals = dict(match.totals)
        return Standing(mid, created, tuple(names), tuple(seats), rules.preset, deals, totals,
                        match_winner(totals, deals, rules), figures)

    def rules_text(self, rules: Rules) -> str:
        """The rules as this file stores them: the JSON of ``Rules.as_dict`` (NAME=VALUE lines in a
        file of a schema before 5, read without migrating it)."""
        return as_json(rules.as_dict()) if self.schema >= 5 else rules_lines(rules)

    def rules_of(self, text: str) -> Rules:
        """The rules ``rules_text`` stored: the one reader of stored rules (``stored_rules`` reads a
        file of a schema before 5). Raises ValueError (NotationError naming the option) or
        TypeError for a text that is not such rules."""
        if self.schema < 5:
            return stored_rules(text)
        data = read_object(self.db, text)
        if data is None:
            raise NotationError("the rules {rules!r} are not what pasur writes.", rules=shorten(text, 60))
        return Rules.from_dict(data)

    def match_ids(self) -> list[int]:
        """Every match id, most recently changed first."""
        try:
            return [r[0] for r in self.db.execute("SELECT id FROM matches ORDER BY touched DESC, id DESC")]
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    def summary(self, match_id: int) -> tuple[list[str], int]:
        """(players, log length) of a match read without replaying it (for a damaged one)."""
        try:
            row = self.db.execute("SELECT players FROM matches WHERE id = ?", (match_id,)).fetchone()
            count, = self.db.execute("SELECT count(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone()
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None
        if row is None:
            return [], 0
        return (row[0].split("\n") if isinstance(row[0], str) else ["?"]), int(count)

    def imported_as(self, fingerprint: str) -> int | None:
        """The match an identical record was imported as, or None."""
        if self.legacy:
            return None
        try:
            return self._imported_as(fingerprint)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    def _imported_as(self, fingerprint: str) -> int | None:
        row = self.db.execute("SELECT id FROM matches WHERE fingerprint = ? ORDER BY id LIMIT 1",
                              (fingerprint,)).fetchone()
        return None if row is None else int(row[0])

    def stored_as(self, players: list[str], rules: Rules, dealer: int, actions: Sequence[Action | dict[str, Any]],
                  texts: list[str] | None = None) -> int | None:
        """The first stored match with these players, rules, first dealer and log (a record
        exported from this file, say: the same match by its content), or None. ``texts``: the
        actions' lines, when known."""
        try:
            return _same_content(self.db, players, self.rules_text(rules), dealer, actions, texts)
        except (sqlite3.Error, UnicodeDecodeError) as err:
            raise failure(err, self.path, N_("{path} is damaged ({reason}); it was left untouched.")) from None

    # -- writing ---------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside is committed together or not at all."""
        if not self.write:
            raise StoreError("this store was opened read-only.")
        self.check_file()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise failure(err, self.path, N_("cannot write to {path}: {reason}; nothing was changed.")) from None
        try:
            yield self.db
            self.check_file()  # written into a file no longer at its path, it would be lost: roll back
            self.db.execute("COMMIT")
            self.commits += 1
        except BaseException as err:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if isinstance(err, (sqlite3.Error, UnicodeError)):
                raise failure(err, self.path, N_("cannot write to {path}: {reason}; nothing was changed.")) from None
            raise

    def _touch(self, db: sqlite3.Connection, match_id: int, steps: int = 0) -> None:
        """Mark the match the most recently changed, its revision ``steps`` further on."""
        db.execute("UPDATE matches SET touched = (SELECT coalesce(max(touched), 0) + 1 FROM matches),"
                   " revision = revision + ? WHERE id = ?", (steps, match_id))

    def create(self, players: list[str], rules: Rules, dealer: int, actions: Sequence[Action | dict[str, Any]] = (),
               times: list[str] | None = None, match: Match | None = None, fingerprint: str | None = None,
               created: str | None = None, once: bool = False, texts: list[str] | None = None) -> int:
        """Store a new match and return its id, one higher than any id this file ever gave (a
        deleted match's id is never given again). An import passes its (canonical) log, the
        times, the match it replays to (for the snapshots of its finished deals), its
        fingerprint and when it was created (else now); with ``once`` it raises AlreadyImported,
        storing nothing, when a match of that fingerprint is stored (checked in the transaction
        that would store it, so imports running at once store a record once). ``texts``: the
        actions' lines already checked to read back as the actions (a CheckedRecord's).

        Everything is checked before the transaction: the names (``check_players``), the rules,
        the dealer's seat, the times (one text an action) and the log, which must replay (without
        ``match``, the actions are replayed and stored in their canonical form; a ``match`` given
        must be of these players, rules and dealer, its log these actions). Raises NotationError
        or IllegalPlayError naming what is wrong, FullError for more actions than a match holds
        (ACTIONS_MOST), storing nothing."""
        if isinstance(actions, Sequence) and len(actions) > ACTIONS_MOST:
            raise FullError(Plural("a match holds at most {most} action, and this one has {count}; nothing was"
                                   " stored.",
                                   "a match holds at most {most} actions, and this one has {count}; nothing was"
                                   " stored.", "most"),
                            match=None, most=ACTIONS_MOST, count=len(actions))
        players, actions, match = _new_match(players, rules, dealer, actions, match)
        _check_times(times, len(actions))
        for name, value in (("fingerprint", fingerprint), ("created", created)):
            if value is not None:
                check_type(name, value, str)
        if texts is None or len(texts) != len(actions) or not all(isinstance(text, str) for text in texts):
            texts = [checked_text(a) for a in actions]
        with self.transaction() as db:
            if once and fingerprint is not None:
                earlier = self._imported_as(fingerprint)
                if earlier is not None:
                    raise AlreadyImported("this record was already imported as match {match}; nothing was changed"
                                          " (give --again to import it once more).", match=earlier)
                # a match of this file, by content
                same = _same_content(db, players, self.rules_text(rules), dealer, actions, texts)
                if same is not None:
                    raise AlreadyImported("this record is match {match} of this database already (the same players,"
                                          " rules and plays); nothing was changed (give --again to import it as a"
                                          " new match).", match=same)
            mid = self._next_id(db)
            db.execute("INSERT INTO matches (id, created, players, rules, dealer, touched, fingerprint, key, revision)"
                       " VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                       (mid, created or now(), "\n".join(players), self.rules_text(rules), dealer, fingerprint,
                        new_key(), len(texts)))
            moments = times if times else [now()] * len(texts)
            db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?)",  # each row made as SQLite takes it
                           ((mid, seq, at, text) for seq, (at, text) in enumerate(zip(moments, texts, strict=True), 1)))
            if match is not None:
                rebuild_snapshots(db, mid, match, texts)
            self._touch(db, mid)
        return mid

    @staticmethod
    def _next_id(db: sqlite3.Connection) -> int:
        """The id of a new match: one more than the highest ever given (kept in meta across
        deletes) or stored, and kept as the highest given."""
        row = db.execute("SELECT value FROM meta WHERE key = 'last_match'").fetchone()
        given = int(row[0]) if row and isinstance(row[0], str) and row[0].isascii() and row[0].isdigit() else 0
        stored = db.execute("SELECT coalesce(max(id), 0) FROM matches").fetchone()[0]
        mid = max(given, stored if isinstance(stored, int) else 0) + 1
        db.execute("INSERT OR REPLACE INTO meta VALUES ('last_match', ?)", (str(mid),))
        return mid

    def delete(self, match_id: int, expect: Expected | None = None) -> int:
        """Remove a match (damaged or not) with its log and snapshots; returns how many actions it had.
        Raises StaleError, deleting nothing, when it is not the match and revision ``expect`` names;
        NoMatchError when there is no such match."""
        _check_id(match_id)
        with self.transaction() as db:
            row = db.execute("SELECT key, revision FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise _no_match(match_id)
            count = int(db.execute("SELECT count(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone()[0])
            _check_expect(expect, match_id, row[0], row[1], count)
            db.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
            db.execute("DELETE FROM actions WHERE match_id = ?", (match_id,))
            db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        return count

    @contextmanager
    def changing(self, match_id: int, expect: Expected | None = None) -> Iterator[Change]:
        """Open a write transaction on one match and yield a ``Change`` holding it replayed.

        ``expect``: the match and revision the caller last showed; another match, or another
        revision, raises StaleError (see ``_check_expect``).
        Whatever the body records with ``Change.append`` / ``Change.drop`` is committed when it
        ends without an exception; an exception (a refused play, Ctrl-C) rolls everything back.
        Raises NoMatchError for a match id that names no match.
        """
        _check_id(match_id)
        after: tuple[MatchRecord, Match] | None = None
        with self.transaction() as db:
            row = db.execute("SELECT touched FROM matches WHERE id = ?", (match_id,)).fetchone()
            kept = self._replayed
            if kept and row and kept[0].id == match_id and kept[0].touched == row[0]:
                record, match = kept  # the log has not moved since this command read it
            else:
                record, match = self.match(match_id)
            self._replayed = None  # the change below mutates it
            _check_expect(expect, match_id, record.key, record.revision, record.length)
            change = Change(db, record, match)
            finished = len(match.results)
            yield change
            if change.changed:
                if not record.start and match.results and not change.dropped:
                    # replayed from the whole log (no snapshot, or one from another engine or
                    # not matching the log): make every deal's snapshot afresh
                    rebuild_snapshots(db, match_id, match)
                elif len(match.results) > finished:
                    write_snapshot(db, match_id, match, len(match.results) - 1, match.totals)
                    self._repair(db, match_id, match)
                self._touch(db, match_id, change.steps)
                # the match stays the log's, so the next read needs no replay; not once a deal is over: the
                # next read starts from its snapshot, so a long session holds one deal's actions, not all
                if (not change.dropped or change.undone) and len(match.results) == finished:
                    touched = db.execute("SELECT touched FROM matches WHERE id = ?", (match_id,)).fetchone()[0]
                    kept_texts, kept_times = len(record.texts) - change.undone, len(record.times) - change.undone
                    after = record.replace(touched=touched, revision=record.revision + change.steps,
                                           texts=(*record.texts[:kept_texts], *change.texts),
                                           times=(*record.times[:kept_times], *change.times)), match
        self._replayed = after  # set once committed

    def _repair(self, db: sqlite3.Connection, match_id: int, match: Match) -> None:
        """After a change finished a deal of a match resumed from its (trusted) snapshot: when a
        finished deal has no snapshot (rows deleted by hand: the one before still chained, and a deal
        finished in the actions after it), every snapshot is written again from the whole log."""
        count = db.execute("SELECT count(*) FROM snapshots WHERE match_id = ?", (match_id,)).fetchone()[0]
        if match.start and count != len(match.results):
            rebuild_snapshots(db, match_id, self._load(match_id, True).replay())


def _no_match(match_id: object) -> NoMatchError:
    """The refusal of a match id that names no match."""
    return NoMatchError("there is no match {match}; `pasur matches` lists them.",
                        match=match_id if match_id.__class__ is int else shown(match_id))


def _check_id(match_id: object) -> None:
    """Raise NoMatchError for a match id that is no whole number from 1 to SQLite's largest (no
    match has it)."""
    if match_id.__class__ is not int or not 0 < match_id < 2**63:
        raise _no_match(match_id)


def _check_expect(expect: Expected | None, match_id: int, key: object, revision: object, length: int) -> None:
    """Raise StaleError unless ``expect`` (None: anything) names this match (its key, when it
    gives one) at this revision. A bare number is the revision; it equals the log's length until
    the match's first undo, so a script that reads "length" is still right until then, and
    refused (never fooled) after it, when one length can stand for two different logs."""
    if expect is None:
        return
    check_type("expect", expect, Expected)
    if expect.key is not None and expect.key != key:
        raise StaleError("match {match} is not the match that was shown (the match key differs: another database"
                         " file, or the match was deleted and made again); nothing was recorded.", match=match_id,
                         revision=revision, length=length, expect=expect.revision)
    if expect.revision == revision:
        return
    facts = {"match": match_id, "revision": revision, "length": length, "expect": expect.revision,
             "shown": expect.length}
    if expect.key is None and expect.revision == length:
        raise StaleError("--expect {expect} is the log's length, but match {match} had an undo, so a length no"
                         " longer tells whether it changed: give its revision from `pasur show --json`"
                         " (now {revision}); nothing was recorded.", **facts)
    raise StaleError("the match changed since it was shown (its revision is {revision}, not {expect}; the"
                     " length of its log is {length}); nothing was recorded. Look again and re-enter.", **facts)


def _same_content(db: sqlite3.Connection, players: list[str], rules: str, dealer: int,
                  actions: Sequence[Action | dict[str, Any]], texts: list[str] | None = None) -> int | None:
    """See Store.stored_as: the matches of the same players, rules and dealer are found by the
    index of their columns, and only their logs are read and compared (``texts``: the actions'
    lines, when known)."""
    rows = db.execute("SELECT id FROM matches WHERE players = ? AND rules = ? AND dealer = ? ORDER BY id",
                      ("\n".join(players), rules, dealer)).fetchall()
    if rows and texts is None:
        texts = [read_action(a).line for a in actions]
    for (mid,) in rows:
        log = [r[0] for r in db.execute("SELECT action FROM actions WHERE match_id = ? ORDER BY seq", (mid,))]
        if log == texts:
            return int(mid)
    return None


def _new_match(players: object, rules: Rules, dealer: int, actions: object,
               match: object) -> tuple[list[str], Sequence[Action | dict[str, Any]], Match]:
    """What ``Store.create`` stores, checked: the players' names (NFC), the log and the match it
    replays to. A ``match`` given whose log is these actions is taken as it is (an import's,
    replayed as it was read); otherwise the actions are replayed, and must come to the results of
    the ``match`` given. Raises NotationError or IllegalPlayError."""
    if not isinstance(players, list | tuple):
        raise wrong_type("players", players, list, tuple)
    names = check_players(list(players))
    if not isinstance(actions, list | tuple):
        raise wrong_type("actions", actions, list, tuple)
    if match is not None and not isinstance(match, Match):
        raise wrong_type("match", match, Match)
    if (match is not None and match.players == names and match.rules == rules and match.first_dealer == dealer
            and not match.start and match.log == list(actions)):
        return names, actions, match
    replayed = Match.replay(names, rules, dealer, actions)
    if match is not None and (replayed.results != match.results or replayed.totals != match.totals):
        raise NotationError("the match given is not these players, rules, dealer and actions replayed.")
    return names, replayed.log, replayed


def _check_times(times: object, count: int) -> None:
    """Raise NotationError unless ``times`` is None or a list of one text for each of ``count``
    actions."""
    if times is None:
        return
    if not isinstance(times, list | tuple):
        raise wrong_type("times", times, list, tuple)
    if len(times) != count or not all(isinstance(at, str) for at in times):
        raise NotationError(Plural("times must be one text for each of the {count} action.",
                                   "times must be one text for each of the {count} actions.", "count"), count=count)


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
                raise _unreadable(self.record.id, seq, text) from None
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
