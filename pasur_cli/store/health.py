"""The file's health: a store's path opened as one SQLite file of pasur's, or refused.

A path is always one file on disk (``:memory:``, ``file:`` URIs and an empty path are refused);
reads never create anything, and only a store opened with ``create`` makes a missing file (with its
folder). A file that is not SQLite, is SQLite of something else, is damaged or is newer than this
version is refused and left untouched. A file of an older schema is read as it is, or, opened for
writing, migrated (``MIGRATIONS``, one transaction). A wait for another program's lock is Python's,
in pauses a signal ends (``Patient``), so Ctrl-C ends it at once; a store notices when its path no
longer names the file it opened (GoneError).
"""

from __future__ import annotations

import os
import sqlite3
from typing import Any, Self

from pasur_cli.engine.errors import PasurError
from pasur_cli.engine.reading import N_
from pasur_cli.store.chains import Chains
from pasur_cli.store.connection import Patient, busy_timeout, failure, identity, moved, stored_text
from pasur_cli.store.errors import StoreError
from pasur_cli.store.paths import APP, check_path, default_path, sqlite_uri
from pasur_cli.store.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION
from pasur_cli.store.snapshots import Results, sql_crc


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


class StoreFile:
    """One database file, opened for reading, or for writing with ``write``; only ``create`` makes
    a missing file (with its folder). Raises StoreError (or its kinds) for a path or file that is
    not a pasur database this version can read."""

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
        self.nested = False  # inside ``transaction``: a transaction begun there joins it
        self.chains = Chains()  # the snapshot chains found holding through this connection
        self.results = Results()  # the snapshot rows' results read through it

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
        """Check that ``db`` is a pasur file this version reads (an empty one is made one when the
        store may create), migrating an older one opened for writing. Raises StoreError."""
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
                if 2 <= version < 5:  # the steps to schema 4 and 5 change what the checksums cover: chain again
                    meta["unchained"] = "1"  # (a later step that only adds tables keeps the chain that holds)
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

    def _create(self, db: sqlite3.Connection) -> None:
        """Write the tables and meta rows of a new file into the empty ``db``. Raises StoreError."""
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

    def reopen(self) -> Self:
        """The same file opened again, read-only, as a store of this kind (after this one was closed)."""
        return type(self)(self.path)

    def close(self) -> None:
        """Close the connection to the file."""
        self.db.close()

    def check_file(self) -> None:
        """Raise GoneError when the path no longer names the file this store opened (it was
        replaced by another, or deleted): what would be written now would be lost with it."""
        if identity(self.path) != self.identity:
            raise moved(self.path)

    def hold_little(self) -> None:
        """For a process that lives long (the session): SQLite keeps at most 256 KiB of the file in
        memory rather than its default 2 MiB, which a long match's snapshots, checked again at each
        deal's end, would fill (the file's pages stay in the system's cache all the same), and the
        results read are not kept. Raises StoreError when the file cannot be read."""
        self.results = Results(keep=False)
        try:
            self.db.execute("PRAGMA cache_size = -256")
        except sqlite3.Error as err:
            raise failure(err, self.path, N_("{path} cannot be read ({reason}); it was left untouched.")) from None

    def waiting(self, call: Any) -> None:
        """Call ``call()`` whenever a statement first finds the file busy (the session says it waits)."""
        self.db.waiting = call  # type: ignore[attr-defined]

