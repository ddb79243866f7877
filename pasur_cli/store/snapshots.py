"""The snapshot rows, written and checked: so that a long match stays instant, each finished deal
leaves a row (the action count at which it finished, the engine version that computed it, its
result, the match totals and each side's record-book figures after it, all JSON, and a CRC-32 of
that deal's action lines, the result and the totals).

Each row also holds two running checksums, so that every snapshot of a match is checked at once
without cutting its log into deals: ``log_crc``, the CRC-32 of the match's action lines up to the
row's (joined by newlines), and ``book_crc``, the CRC-32 of the match's players, rules and first
dealer and of every snapshot row up to this one (``BOOK_LINE``). When the newest row's two hold
(``chain_holds``, ``chained``), every row is what pasur wrote for that log. ``snapshot_rows`` is
the one place a row's columns are made, from the match replayed: the writers store them, and a
match whose chain does not hold compares its stored rows with them (``first_mismatch``).
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pasur_cli.engine.match import DealResult, Match

if TYPE_CHECKING:
    from pasur_cli.engine.stats import SideFigures  # imported where used: show and play load no stats

# The engine that computed a snapshot: raise it whenever a change of the rules code may change a
# finished deal's result, so that stored snapshots are recomputed from the log.
ENGINE_VERSION = 1
COLUMNS = "match_id, seq, engine, crc, result, totals, figures, log_crc, book_crc"  # a row, in this order


def as_json(value: object) -> str:
    """The JSON text pasur stores for a value (results, totals, figures, rules): ``json.dumps``
    with names as written and keys sorted."""
    import json  # here: show and play write and read no JSON
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def result_text(result: DealResult) -> str:
    """A deal result as stored: the JSON of ``DealResult.as_dict`` (the one place a result becomes text)."""
    return as_json(result.as_dict())


def read_result(text: object, sides: Sequence[str]) -> DealResult:
    """The DealResult a ``result_text`` stands for, its scores in the order of ``sides`` (they must be
    those sides): the one reader of a stored result (``Results`` is a cache in front of it). Raises
    ValueError (or TypeError, KeyError, RecursionError) when it is not one."""
    if not isinstance(text, str):
        raise TypeError("a stored result is text")
    import json
    found = DealResult.from_dict(json.loads(text))
    if sorted(found.scores) != sorted(sides):
        raise ValueError("a snapshot's sides are not the match's")
    if list(found.scores) != list(sides):
        found = found.replace(scores={side: found.scores[side] for side in sides})  # in seat order, as played
    return found


class Results:
    """The results one store has read, by match and snapshot row: a cache in front of
    ``read_result``, so that a process that reads a match after each change (the scoreboard)
    parses each finished deal once. A row is read again when its text is not the one kept (an undo
    and another ending). ``keep`` False: nothing is kept (a session holds little memory)."""

    def __init__(self, keep: bool = True) -> None:
        self.keep = keep
        self.kept: dict[tuple[int, int], tuple[str, tuple[str, ...], DealResult]] = {}

    def read(self, match_id: int, seq: int, text: object, sides: Sequence[str]) -> DealResult:
        """``read_result`` of a match's row at ``seq``. Raises what ``read_result`` raises."""
        kept = self.kept.get((match_id, seq))
        if kept is not None and kept[0] == text and kept[1] == tuple(sides):
            return kept[2]
        result = read_result(text, sides)
        if self.keep:
            self.kept[match_id, seq] = (str(text), tuple(sides), result)
        return result


_KINDS = {"integer": int, "text": str, "real": float}  # json_each's types of a scalar, besides true, false, null


def read_object(db: sqlite3.Connection, text: object) -> dict[str, object] | None:
    """A stored JSON object of plain values (numbers, text, true, false, null) read back: the
    running totals, the rules. None when the text is no such object. SQLite reads it, so that
    ``show`` and ``play`` load no json module; the json module reads it only where SQLite has no
    JSON functions (built in since 3.38)."""
    try:
        if db.execute("SELECT json_type(?)", (text,)).fetchone()[0] != "object":
            return None
        rows = db.execute("SELECT key, value, type FROM json_each(?)", (text,)).fetchall()
    except sqlite3.OperationalError:
        return _json_object(text)
    if not all(kind in _KINDS or kind in ("true", "false", "null") for _, _, kind in rows):
        return None
    return {str(key): (kind == "true") if kind in ("true", "false") else value for key, value, kind in rows}


def _json_object(text: object) -> dict[str, object] | None:
    """``read_object`` by the json module."""
    import json
    try:
        data = json.loads(text)  # type: ignore[arg-type]
    except (ValueError, TypeError, RecursionError):
        return None
    if not isinstance(data, dict) or any(isinstance(v, dict | list) for v in data.values()):
        return None
    return data


def json_totals(db: sqlite3.Connection, text: object) -> dict[str, int] | None:
    """Stored running totals read back (``{"Ali": 12, "Sara": 30}``), or None when they are not an
    object of whole numbers."""
    totals = read_object(db, text)
    if totals is None or not all(type(v) is int for v in totals.values()):
        return None
    return totals  # type: ignore[return-value]


def figures_from(text: object, sides: list[str]) -> dict[str, SideFigures] | None:
    """A snapshot's figures read back (None when they are not each side's whole numbers)."""
    import json

    from pasur_cli.engine.stats import SideFigures
    try:
        data = json.loads(text)  # type: ignore[arg-type]
    except (ValueError, TypeError, RecursionError):
        return None
    if not isinstance(data, dict) or len(data) != len(sides):
        return None
    figures = {}
    for side in sides:
        numbers = data.get(side)
        if (not isinstance(numbers, list) or len(numbers) != len(SideFigures._fields)
                or not all(type(n) is int for n in numbers)):
            return None
        figures[side] = SideFigures._make(numbers)
    return figures


def crc(texts: list[str]) -> int:
    """The CRC-32 of the texts joined by newlines: a snapshot's checksum."""
    return zlib.crc32("\n".join(texts).encode())


def crc32(text: str) -> int:
    """``crc([text])``: the checksum of a deal's lines already joined (as SQLite joins them)."""
    return zlib.crc32(text.encode())


def sql_crc(data: object) -> int | None:
    """``crc32`` of a text SQLite passes as its bytes (the SQL function ``pasur_crc``, registered on
    every connection): None when it is no UTF-8 text (as a row ``_text`` cannot read is not
    trusted). SQLite joins a deal's lines, its result and totals and hands over only the number,
    so checking every snapshot reads no action line into Python."""
    if not isinstance(data, bytes):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return zlib.crc32(data)


def book_seed(players: object, rules: object, dealer: object) -> int:
    """The start of a match's ``book_crc``: the CRC-32 of its players, rules and first dealer as
    stored (a change to any of them by hand makes every snapshot be checked deal by deal)."""
    return zlib.crc32(f"{players}\n{rules}\n{dealer}".encode())


# A snapshot row as ``book_crc`` covers it: these columns, each followed by its separator. The one
# definition of the row's format: ``book_line`` writes it in Python, BOOK_LINE in SQLite.
BOOK_PARTS = (("seq", " "), ("engine", " "), ("crc", "\n"), ("result", "\n"), ("totals", "\n"), ("figures", ""))


def book_line(seq: int, engine: int, checksum: int, result: str, totals: str, figures: str) -> str:
    """A snapshot row as ``book_crc`` covers it (``BOOK_PARTS``)."""
    values = (seq, engine, checksum, result, totals, figures)
    return "".join(f"{value}{after}" for value, (_, after) in zip(values, BOOK_PARTS, strict=True))


BOOK_LINE = " || ".join(f"s.{name}" + (" || " + ("' '" if after == " " else "char(10)") if after else "")
                        for name, after in BOOK_PARTS)
# each match's snapshots: how many, the newest's seq, engine, checksums, totals and figures (SQLite takes a bare
# column from the row max() picked), and every row as BOOK_LINE writes it, joined
EVERY_BOOK = ("SELECT match_id, count(*), max(seq), engine, log_crc, book_crc, totals, figures, CAST(group_concat("
              f"{BOOK_LINE}, char(10)) AS BLOB) FROM snapshots AS s GROUP BY match_id")
# EVERY_LOG: each match's log: how many lines, the first and last number, and the lines joined by newlines (as
# bytes: a line that is no UTF-8 is checked as it is), one row a match; one scan of the actions in order
EVERY_LOG = ("SELECT match_id, count(*), min(seq), max(seq), CAST(group_concat(action, char(10)) AS BLOB)"
             " FROM actions GROUP BY match_id")
# The CRCs SQLite computes for one match (?1), each of a text it joins (one Python call, pasur_crc): the match's
# action lines up to a seq (a log_crc), and its header and every snapshot row as BOOK_LINE writes them (a book_crc)
_LOG_CRC = ("(SELECT pasur_crc(CAST(group_concat(action, char(10)) AS BLOB)) FROM (SELECT action FROM actions"
            " WHERE match_id = ?1 AND seq <= {upto} ORDER BY seq))")
_BOOK_CRC = ("(SELECT pasur_crc(CAST((SELECT players || char(10) || rules || char(10) || dealer FROM matches WHERE"
             f" id = ?1) || char(10) || group_concat(line, char(10)) AS BLOB)) FROM (SELECT {BOOK_LINE} AS line"
             " FROM snapshots AS s WHERE match_id = ?1 ORDER BY seq))")
_NUMBERED = "(SELECT count(*) = n.seq AND min(seq) = 1 FROM actions WHERE match_id = ?1 AND seq <= n.seq)"
# ONE_CHAIN: what chain_holds compares, for one match: the newest snapshot's engine and running checksums, whether
# the lines up to it are numbered 1 to its seq, and the two CRCs
ONE_CHAIN = (f"SELECT n.engine, n.log_crc, n.book_crc, {_NUMBERED}, {_LOG_CRC.format(upto='n.seq')}, {_BOOK_CRC}"
             " FROM snapshots AS n WHERE n.match_id = ?1 ORDER BY n.seq DESC LIMIT 1")
def chained(db: sqlite3.Connection, match_id: int) -> bool:
    """``chain_holds`` for one match, its CRCs computed in SQLite (ONE_CHAIN)."""
    row = db.execute(ONE_CHAIN, (match_id,)).fetchone()
    if row is None:
        return False
    engine, log_crc, book_crc, numbered, log_found, book_found = row
    return (engine == ENGINE_VERSION and numbered == 1 and type(log_crc) is int and type(book_crc) is int
            and log_found == log_crc and book_found == book_crc)


def chain_holds(head: Sequence[object], book: Sequence[object] | None, log: Sequence[object] | None) -> bool:
    """Whether every snapshot of a match is what pasur wrote for its log: ``head`` (players, rules,
    first dealer as stored), ``book`` (the match's row of EVERY_BOOK, without the match id) and
    ``log`` (its row of EVERY_LOG without the match id: count, first and last seq, the lines joined). The
    newest row's ``log_crc`` must be the CRC of the log's lines up to it and its ``book_crc`` that
    of the header and every row; the log numbered 1 to its length."""
    if book is None or log is None or not book[0]:
        return False
    _, newest, engine, log_crc, book_crc, _, _, rows = book
    count, first, last, joined = log
    if (engine != ENGINE_VERSION or type(newest) is not int or type(log_crc) is not int or type(book_crc) is not int
            or not isinstance(rows, bytes) or not isinstance(joined, bytes) or type(count) is not int
            or first != 1 or last != count or not 0 < newest <= count):
        return False
    players, rules, dealer = head
    if not isinstance(players, str) or not isinstance(rules, str) or type(dealer) is not int:
        return False
    cut = len(joined)
    for _ in range(count - newest):  # the lines after the newest snapshot are not covered
        cut = joined.rfind(b"\n", 0, cut)
        if cut < 0:
            return False
    return (zlib.crc32(joined[:cut]) == log_crc
            and zlib.crc32(rows, zlib.crc32(b"\n", book_seed(players, rules, dealer))) == book_crc)


# what crc32 of "\n".join((the deal's action lines, result, totals)) is, computed by SQLite with pasur_crc
# The rows a trusted chain holds (the result as text: the checksums cover its bytes, whatever its type), up to the
# newest a load read (?2): a deal another program finished since is not
# this read's
TRUSTED = "SELECT seq, CAST(result AS TEXT) FROM snapshots WHERE match_id = ? AND seq <= ? ORDER BY seq"


def totals_text(totals: Mapping[str, int], sides: Sequence[str]) -> str:
    """A snapshot's running totals as stored: the JSON of each side's total, in seat order."""
    import json
    return json.dumps({side: totals[side] for side in sides}, ensure_ascii=False)


def figures_text(figures: Mapping[str, Sequence[int]], sides: Sequence[str]) -> str:
    """A snapshot's figures as stored: the JSON of each side's ``SideFigures`` (a list in field
    order), in seat order."""
    import json
    return json.dumps({side: list(figures[side]) for side in sides}, ensure_ascii=False)


def _header(db: sqlite3.Connection, match_id: int) -> int | None:
    """book_seed of the match as stored (None when it has no row)."""
    row = db.execute("SELECT players, rules, dealer FROM matches WHERE id = ?", (match_id,)).fetchone()
    return None if row is None else book_seed(*row)


def snapshot_rows(match_id: int, match: Match, texts: Sequence[str], book_crc: int | None,
                  first: int = 0) -> Iterator[tuple[Any, ...]]:
    """The snapshot row of each finished deal of a match replayed from its whole log (``texts``: its
    action lines; ``book_crc``: its ``book_seed``, None for rows without running checksums), from
    deal ``first`` (0-based) on, in ``COLUMNS`` order: the one place a row is made."""
    from pasur_cli.engine.stats import figures_after_each
    results, sides = match.results, list(match.sides)
    columns = [figures_after_each(results, side) for side in sides]
    log_crc, previous = None, 0
    for number, seq in enumerate(match.completed_at):
        figures = {side: [column[number] for column in columns[k]] for k, side in enumerate(sides)}
        totals = {side: figures[side][1] for side in sides}  # the figures' points: the match total
        text, totals_json, figures_json = result_text(results[number]), totals_text(totals, sides), \
            figures_text(figures, sides)
        checksum, log_crc, book_crc = _chained(seq, "\n".join(texts[previous:seq]), text, totals_json,
                                               figures_json, log_crc, book_crc)
        previous = seq
        if number >= first:
            yield (match_id, seq, ENGINE_VERSION, checksum, text, totals_json, figures_json,
                   log_crc if book_crc is not None else None, book_crc)


def _chained(seq: int, deal: str, text: str, totals: str, figures: str | None, log_crc: int | None,
             book_crc: int | None) -> tuple[int, int, int | None]:
    """A snapshot row's checksum (``crc`` of its deal's lines, joined in ``deal``, its result and its
    totals) and the match's running checksums after it, continued from the row before's
    (``log_crc`` None: this is the first deal; ``book_crc`` or ``figures`` None: there is no chain
    to continue, and the book's checksum is None)."""
    checksum = zlib.crc32(f"{deal}\n{text}\n{totals}".encode())  # crc([*deal's lines, text, totals])
    log_crc = zlib.crc32(deal.encode()) if log_crc is None else zlib.crc32(f"\n{deal}".encode(), log_crc)
    if book_crc is not None and figures is not None:
        book_crc = zlib.crc32(f"\n{book_line(seq, ENGINE_VERSION, checksum, text, totals, figures)}".encode(), book_crc)
    else:
        book_crc = None
    return checksum, log_crc, book_crc


def rebuild_snapshots(db: sqlite3.Connection, match_id: int, match: Match, texts: list[str] | None = None) -> None:
    """Snapshots of every finished deal, from a match just replayed from its whole log, with one read
    of the log (``texts``: its lines, when the caller has them) and one statement."""
    db.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
    if not match.results:
        return
    if texts is None:
        texts = log_lines(db, match_id)
    db.executemany(f"INSERT OR REPLACE INTO snapshots ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   snapshot_rows(match_id, match, texts, _header(db, match_id)))


def write_snapshot(db: sqlite3.Connection, match_id: int, match: Match, number: int,
                   totals: Mapping[str, int] | None = None) -> None:
    """Keep deal ``number`` (0-based) of the match as a snapshot row at the action that finished it,
    its figures and checksums continued from the row before (none when that row has none: the
    next replay of the whole log writes every row again). ``totals``: unused, the match's own."""
    seq = match.completed_at[number]
    before = db.execute("SELECT seq, log_crc, book_crc, figures FROM snapshots WHERE match_id = ? AND seq < ?"
                        " ORDER BY seq DESC LIMIT 1", (match_id, seq)).fetchone() if number else None
    previous = before[0] if before else 0
    deal = "\n".join(a for a, in db.execute("SELECT action FROM actions WHERE match_id = ? AND seq > ? AND seq <= ?"
                                            " ORDER BY seq", (match_id, previous, seq)))
    result, sides = match.results[number], list(match.sides)
    text, totals_json = result_text(result), totals_text(match.running_totals()[number] if totals is None
                                                         else totals, sides)
    from pasur_cli.engine.stats import SideFigures
    figures = {side: SideFigures() for side in sides} if before is None else figures_from(before[3], sides)
    figures_json = None
    if figures is not None:
        figures_json = figures_text({side: figures[side].after(result.scores[side], result.number)
                                     for side in sides}, sides)
    log_crc, book_crc = (None, _header(db, match_id)) if before is None else before[1:3]
    if (before is not None and type(log_crc) is not int) or type(book_crc) is not int:
        log_crc = book_crc = None  # the row before has no running checksums: none from here
    checksum, log_crc, book_crc = _chained(seq, deal, text, totals_json, figures_json, log_crc, book_crc)
    db.execute(f"INSERT OR REPLACE INTO snapshots ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (match_id, seq, ENGINE_VERSION, checksum, text, totals_json, figures_json,
                log_crc if book_crc is not None else None, book_crc))


def log_lines(db: sqlite3.Connection, match_id: int) -> list[str]:
    """Every action line of a match, in order."""
    return [a for a, in db.execute("SELECT action FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))]


def first_mismatch(db: sqlite3.Connection, match_id: int, match: Match, figures: bool = True) -> int | None:
    """The first finished deal (1-based) whose stored snapshot is not the row ``snapshot_rows``
    makes of the match replayed from its whole log (its action, result, totals or, where stored,
    figures), or None when every stored row is; rows missing after the last stored are no
    mismatch. ``figures``: whether the file's rows have them (schema 4)."""
    stored = db.execute(f"SELECT seq, result, totals, {'figures' if figures else 'NULL'} FROM snapshots"
                        " WHERE match_id = ? ORDER BY seq", (match_id,)).fetchall()
    if not stored:
        return None
    made = snapshot_rows(match_id, match, log_lines(db, match_id), None)
    for number, (found, row) in enumerate(zip(stored, made, strict=False), 1):
        if found[:3] != (row[1], row[4], row[5]) or found[3] not in (None, row[6]):
            return number
    return len(match.results) + 1 if len(stored) > len(match.results) else None
