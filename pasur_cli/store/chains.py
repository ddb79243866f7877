"""The chains one connection has checked: a cache in front of ``snapshots.chained``, so that a
process that reads the same match again and again (the scoreboard after each change, the session)
checks each part of its log once, not the whole log at every read.

When a match's newest snapshot row holds, the row before it is kept (its seq and running
checksums: the anchor). At the next read, when the anchor is still stored as it was, only what
came after it is checked: the newest row's checksums must be the anchor's continued over the
action lines and snapshot rows after it, so the newest deal's lines and rows are read at every
read. Anything else is checked whole again. What it trusts: the rows up to the anchor are not
rewritten behind pasur's back while this connection is open (as ``Reads.match`` trusts a kept
replay while ``touched`` stays); an undo moves or rewrites them, and is checked again.
"""

from __future__ import annotations

import sqlite3
import zlib

from pasur_cli.engine.values import Value
from pasur_cli.store import snapshots
from pasur_cli.store.snapshots import BOOK_LINE, chained

NEWEST = "SELECT seq, engine, log_crc, book_crc FROM snapshots WHERE match_id = ? ORDER BY seq DESC LIMIT 2"
ROW = "SELECT log_crc, book_crc FROM snapshots WHERE match_id = ? AND seq = ?"
# the action lines after one snapshot row up to another, joined as the log's checksum joins them, with their count
# and first and last numbers
LINES_AFTER = ("SELECT count(*), min(seq), max(seq), CAST(group_concat(action, char(10)) AS BLOB) FROM (SELECT seq,"
               " action FROM actions WHERE match_id = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq)")
BOOK_AFTER = (f"SELECT CAST(group_concat(line, char(10)) AS BLOB) FROM (SELECT {BOOK_LINE} AS line FROM snapshots"
              " AS s WHERE match_id = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq)")


class Link(Value):
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
        checking only what came after the anchor this connection kept. Raises sqlite3.Error when
        the file cannot be read."""
        rows = db.execute(NEWEST, (match_id,)).fetchall()
        anchor = self.held.pop(match_id, None)
        links = [Link(row[0], row[2], row[3]) for row in rows if _whole(row)]
        if not rows or len(links) != len(rows) or rows[0][1] != snapshots.ENGINE_VERSION:
            return False
        if not ((anchor is not None and _continues(db, match_id, anchor, links[0])) or chained(db, match_id)):
            return False
        if len(links) > 1:
            self.held[match_id] = links[1]
        return True


def _whole(row: tuple[object, ...]) -> bool:
    """Whether a row of NEWEST has whole numbers for its seq and checksums."""
    return all(type(value) is int for value in (row[0], row[2], row[3]))


def _continues(db: sqlite3.Connection, match_id: int, kept: Link, newest: Link) -> bool:
    """Whether ``newest`` is ``kept`` (still stored as it was) continued over the actions and
    snapshot rows after it, numbered without a gap (the rows up to ``newest`` only: another
    program may have finished a deal since)."""
    if newest.seq <= kept.seq or db.execute(ROW, (match_id, kept.seq)).fetchone() != (kept.log_crc, kept.book_crc):
        return False
    count, first, last, lines = db.execute(LINES_AFTER, (match_id, kept.seq, newest.seq)).fetchone()
    rows = db.execute(BOOK_AFTER, (match_id, kept.seq, newest.seq)).fetchone()[0]
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
