"""The chains one connection has checked: a cache in front of ``snapshots.chained``, so that a
process that reads the same match again and again (the scoreboard after each change, the session)
checks each part of its log once, not the whole log at every read.

When a match's newest snapshot row held (``chained``), its seq and running checksums are kept.
At the next read, the same newest row holds at once; a newer row holds when the kept row is still
stored as it was and the newer row's checksums are the kept ones continued over the rows after it
(the actions and snapshot rows after the kept row, read alone). Anything else is checked whole
again. What it trusts: the rows up to a kept row are not rewritten behind pasur's back while this
connection is open (as ``Reads.match`` trusts a kept replay while ``touched`` stays); an undo
or another program's change through pasur moves or rewrites the rows, and is checked again.
"""

from __future__ import annotations

import sqlite3
import zlib
from typing import NamedTuple

from pasur_cli.store import snapshots
from pasur_cli.store.snapshots import BOOK_LINE, chained

NEWEST = ("SELECT seq, engine, log_crc, book_crc FROM snapshots WHERE match_id = ? ORDER BY seq DESC LIMIT 1")
ROW = "SELECT log_crc, book_crc FROM snapshots WHERE match_id = ? AND seq = ?"
# the action lines after one snapshot row up to another, joined as the log's checksum joins them, with their count
# and first and last numbers
LINES_AFTER = ("SELECT count(*), min(seq), max(seq), CAST(group_concat(action, char(10)) AS BLOB) FROM (SELECT seq,"
               " action FROM actions WHERE match_id = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq)")
BOOK_AFTER = (f"SELECT CAST(group_concat(line, char(10)) AS BLOB) FROM (SELECT {BOOK_LINE} AS line FROM snapshots"
              " AS s WHERE match_id = ?1 AND seq > ?2 ORDER BY seq)")


class Link(NamedTuple):
    """A snapshot row whose chain held: its seq and its two running checksums."""

    seq: int
    log_crc: int
    book_crc: int


class Chains:
    """The chains held on one connection, by match id."""

    def __init__(self) -> None:
        self.held: dict[int, Link] = {}

    def holds(self, db: sqlite3.Connection, match_id: int) -> bool:
        """Whether the match's newest snapshot row is what pasur wrote for its log (``chained``),
        checking only what came after the row this connection last found holding. Raises
        sqlite3.Error when the file cannot be read."""
        row = db.execute(NEWEST, (match_id,)).fetchone()
        kept = self.held.pop(match_id, None)
        if (row is None or row[1] != snapshots.ENGINE_VERSION
                or not all(type(value) is int for value in (row[0], row[2], row[3]))):
            return False
        newest = Link(row[0], row[2], row[3])
        if not (newest == kept or (kept is not None and _continues(db, match_id, kept, newest))
                or chained(db, match_id)):
            return False
        self.held[match_id] = newest
        return True


def _continues(db: sqlite3.Connection, match_id: int, kept: Link, newest: Link) -> bool:
    """Whether ``newest`` is ``kept`` (still stored as it was) continued over the actions and
    snapshot rows after it, numbered without a gap."""
    if newest.seq <= kept.seq or db.execute(ROW, (match_id, kept.seq)).fetchone() != (kept.log_crc, kept.book_crc):
        return False
    count, first, last, lines = db.execute(LINES_AFTER, (match_id, kept.seq, newest.seq)).fetchone()
    rows = db.execute(BOOK_AFTER, (match_id, kept.seq)).fetchone()[0]
    if (count, first, last) != (newest.seq - kept.seq, kept.seq + 1, newest.seq) or not _utf8(lines, rows):
        return False
    return (zlib.crc32(b"\n" + lines, kept.log_crc) == newest.log_crc
            and zlib.crc32(b"\n" + rows, kept.book_crc) == newest.book_crc)


def _utf8(*texts: object) -> bool:
    """Whether every one is bytes of UTF-8 text (as ``sql_crc`` trusts only those)."""
    for text in texts:
        if not isinstance(text, bytes):
            return False
        try:
            text.decode("utf-8")
        except UnicodeDecodeError:
            return False
    return True
