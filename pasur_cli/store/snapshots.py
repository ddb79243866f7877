"""The snapshot cache: so that a long match stays instant, each finished deal leaves a row (the
action count at which it finished, the engine version that computed it, its result, the match
totals and each side's record-book figures after it, and a CRC-32 of that deal's action lines,
the result and the totals). A load reads the newest row, checks it against its deal's actions and
the engine version, and replays only what came after; anything that does not fit makes the whole
log be replayed (and the next change rewrites the snapshots). Results are parsed only when read
(``Lazy``).

Each row also holds two running checksums, so that every snapshot of a match is checked at once
without cutting its log into deals: ``log_crc``, the CRC-32 of the match's action lines up to the
row's (joined by newlines), and ``book_crc``, the CRC-32 of the match's players, rules and first
dealer and of every snapshot row up to this one (``BOOK_LINE``). When the newest row's two hold
(``chain_holds``), every row is what pasur wrote for that log; when they do not, each deal is
checked alone (its own CRC, and the figures against the deals before it), which names the deal.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter
from typing import Any, Protocol

from pasur_cli.engine.errors import Plural, Words
from pasur_cli.engine.match import DealResult, Match
from pasur_cli.engine.names import sides_of
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.scoring import SideScore
from pasur_cli.engine.stats import SideFigures, figures_after_each
from pasur_cli.engine.values import FrozenDict
from pasur_cli.store.errors import BusyError, DamagedError, check_rows

SNAPSHOTS = Plural("{found} deal snapshot, not {count}", "{found} deal snapshots, not {count}", "found")


class Book(Protocol):
    """What the snapshot reader needs of the store (``pasur_cli.store.database.Store`` is one)."""

    db: sqlite3.Connection
    schema: int  # the file's schema version (the running checksums are there from 4 on)
    mismatched: dict[int, int]  # match id -> the first deal whose snapshot did not match its log

    def load(self, match_id: int, full: bool = False) -> Any: ...

    def reopen(self) -> Book: ...

    def close(self) -> None: ...

# The engine that computed a snapshot: raise it whenever a change of the rules code may change a
# finished deal's result, so that stored snapshots are recomputed from the log.
ENGINE_VERSION = 1


def result_text(r: DealResult, known: dict[Any, Any] | None = None) -> str:
    """A deal result as JSON, every field by name (``json.dumps(r.as_dict(), ensure_ascii=False,
    sort_keys=True)``). ``known``: the scores' JSON of the results written so far, by the scores
    object (kept with it), and the dealers' names as JSON: a long match of tallied deals shares
    one scores object among the deals that scored alike (see pasur_cli.engine.tally.scored_tally),
    written once."""
    if known is None:
        import json
        return json.dumps(r.as_dict(), ensure_ascii=False, sort_keys=True)
    kept = known.get(id(r.scores))
    if kept is None or kept[0] is not r.scores:
        kept = known[id(r.scores)] = r.scores, _scores_text(r.scores, known)
    dealer = known.get(r.dealer)
    if dealer is None:
        import json
        dealer = known[r.dealer] = f'{{"dealer": {json.dumps(r.dealer, ensure_ascii=False)}, "number": '
    number = r.number if r.number.__class__ is int else int(r.number)  # as json writes an int
    return f'{dealer}{number}, "scores": {kept[1]}, "tallied": {"true" if r.tallied else "false"}}}'


def _scores_text(scores: Mapping[str, SideScore], known: dict[Any, Any]) -> str:
    """``json.dumps({side: score.as_dict() ...}, ensure_ascii=False, sort_keys=True)``: written by a
    pattern made once for the sides (kept in ``known``) when every figure is an int, as json writes
    it (json.dumps takes 33 us for a result's scores, and an import writes 1,200 different ones)."""
    sides = tuple(sorted(scores))
    values = tuple([value for side in sides for value in _IN_STORED_ORDER(scores[side])])
    if not all(value.__class__ is int for value in values):  # a flag held as given: json writes it
        import json
        return json.dumps({side: score.as_dict() for side, score in scores.items()}, ensure_ascii=False,
                          sort_keys=True)
    pattern = known.get(sides)
    if pattern is None:
        pattern = known[sides] = sides_pattern(sides, _SCORE_PATTERN)
    return str(pattern % values)


def parse_result(text: str, sides: Sequence[str] | None = None, known: dict[Any, Any] | None = None) -> DealResult:
    """The DealResult a ``result_text`` stands for, its scores in the order of ``sides`` when given
    (they must be those sides); raises ValueError (or TypeError) when it does not. ``known``: the
    scores read so far from the same match's snapshots (same ``sides``), by their content: deals
    that scored alike share one scores object (a long match of tallied deals has a few hundred
    different scores among thousands of deals), made and checked once."""
    return result_from(read_json(text), sides, known)


def written_result(text: str, sides: Sequence[str], known: dict[str, Any]) -> DealResult:
    """``parse_result`` of a result known to be what ``result_text`` wrote (its snapshot's running
    checksums hold): its parts cut apart where result_text joined them, the dealer's name and the
    scores of a tallied deal read by the json module once for each different text (``known``: those
    read so far from the same match, by their text; `score` of 13,000 tallied deals reads a few
    hundred; deals played card by card seldom score alike, and a long session keeps no text of them).
    Anything else is read by ``parse_result``, which raises as it does."""
    head, cut, rest = text.partition(', "scores": ')
    scores_text, cut_too, tallied = rest.rpartition(', "tallied": ')
    dealer_text, _, number = head.rpartition(', "number": ')
    dealer, scores = known.get(dealer_text), known.get(scores_text)
    if dealer is None and dealer_text.startswith('{"dealer": '):
        dealer = read_json(dealer_text[11:])
        if isinstance(dealer, str) and len(known) < KNOWN_MOST:
            known[dealer_text] = dealer
    if scores is None and cut_too:
        data = read_json(scores_text)
        if data.__class__ is dict and sorted(data) == sorted(sides):
            scores = FrozenDict({side: SideScore.from_dict(data[side]) for side in sides})
            if tallied == "true}" and len(known) < KNOWN_MOST:
                known[scores_text] = scores
    if (not cut or not isinstance(dealer, str) or scores is None or tallied not in ("true}", "false}")
            or not (number.isascii() and number.isdigit())):
        return parse_result(text, sides)
    return DealResult(int(number), dealer, scores, tallied == "true}")


def read_json(text: Any) -> Any:
    """``json.loads(text)``, read by the json module's scanner alone when ``text`` is one JSON value
    with nothing around it (as pasur writes a result and totals: a call costs less than the
    scanner's own work, and `score` reads one a deal); anything else by ``json.loads`` itself,
    which raises as it does (ValueError, TypeError, RecursionError)."""
    global _scan
    if _scan is None:
        import json
        _scan = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
    if text.__class__ is str:
        try:
            value, end = _scan(text, 0)
        except (StopIteration, ValueError):
            value, end = None, -1
        if end == len(text):
            return value
    import json
    return json.loads(text)


_scan: Any = None  # the json module's scanner, loaded with the module when a text is first read


def result_from(data: Any, sides: Sequence[str] | None = None, known: dict[Any, Any] | None = None) -> DealResult:
    """``parse_result`` of the result's JSON already read (``known``: the scores read so far, in
    the order of ``sides``, by their content as stored and the sides)."""
    key = _scores_key(data, sides) if known is not None else None
    if key is not None:
        shared = known.get(key)  # type: ignore[union-attr]
        number, dealer, tallied = data.get("number"), data.get("dealer"), data.get("tallied")
        if (shared is not None and len(data) == 4 and number.__class__ is int and isinstance(dealer, str)
                and isinstance(tallied, bool)):
            return DealResult(number, dealer, shared, tallied)
    found = DealResult.from_dict(data)
    if sides is not None and list(found.scores) != list(sides):
        if sorted(found.scores) != sorted(sides):
            raise ValueError("a snapshot's sides are not the match's")
        found = found.replace(scores={side: found.scores[side] for side in sides})  # in seat order, as played
    if key is not None and len(known) < KNOWN_MOST:  # type: ignore[arg-type]
        known[key] = found.scores  # type: ignore[index]
    return found


def _scores_key(data: Any, sides: Sequence[str] | None) -> tuple[Any, ...] | None:
    """A result's scores as stored, with the sides, as a key: each side's score with the fields
    as ``result_text`` writes them (sorted) and every number a plain int (no bool that would equal
    1), so two results with one key have the same scores; its numbers only, to keep it small.
    None otherwise."""
    if sides is None or data.__class__ is not dict or data.get("scores").__class__ is not dict:
        return None
    parts: list[Any] = [tuple(sides)]
    for side, score in data["scores"].items():
        if score.__class__ is not dict or tuple(score) != _STORED_FIELDS or tuple(map(type, score.values())) != _INTS:
            return None
        parts += (side, *score.values())
    return tuple(parts)


_STORED_FIELDS = tuple(sorted(SideScore._fields))  # a score's fields as result_text writes them
_INTS = (int,) * len(_STORED_FIELDS)  # and the type of each: a plain int
_IN_STORED_ORDER = attrgetter(*_STORED_FIELDS)  # a score's fields in that order
_SCORE_PATTERN = "{" + ", ".join(f'"{name}": %d' for name in _STORED_FIELDS) + "}"  # one score's %-format
KNOWN_MOST = 2048  # scores kept by their content (see parse_result); a long match of played deals has
                   # few alike, so no more are kept past this


class Untrusted(Exception):
    """A snapshot item that does not fit its match (wrong type, sides, number or dealer)."""


class Lazy(list):  # type: ignore[type-arg]
    """A list read from the database only when an item is wanted: loading a long match costs the
    same as a short one, because ``show`` and ``play`` need only how many deals were played
    (``score`` reads them all). Items read from the snapshots are checked one by one when first
    wanted (``check`` returns the item to use, parsed, or raises Untrusted); the first that does
    not fit its match replaces the whole list by ``fallback()``, the same list replayed from the
    whole log (which raises DamagedError when the log does not replay). Items appended later are
    the engine's own, and are read without reading the others."""

    def __init__(self, count: int, fill: Any, match_id: int, check: Any = None, fallback: Any = None,
                 changed: Any = None) -> None:
        super().__init__()
        self._count, self._fill, self._loaded, self.match_id = count, fill, False, match_id
        self._changed = changed  # the error to raise when fewer items are found than were counted at the load
        self._check, self._fallback, self._checked = check, fallback, set[int]()
        self.replayed = False  # whether the snapshots were not trusted and the log was replayed instead
        self._after: list[Any] = []  # items appended before the others were read (a deal finished since)

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            try:
                items = self._fill()
            except sqlite3.Error as err:
                raise DamagedError(self.match_id, Words("its finished deals cannot be read ({reason})",
                                                        reason=str(err))) from None
            if len(items) < self._count and self._changed is not None:
                raise self._changed()  # the file changed since the load (an undo by another program)
            # the deals appended since may have their snapshots written already (in this transaction)
            if len(items) not in (self._count, self._count + len(self._after)):
                raise DamagedError(self.match_id, Words(SNAPSHOTS, found=len(items), count=self._count))
            list.extend(self, items[:self._count])
            list.extend(self, self._after)
            self._after = []

    def _at(self, index: int) -> Any:
        if not self._loaded:  # an item appended since is read without reading the others
            where = index + self._count + len(self._after) if index < 0 else index
            if self._count <= where < self._count + len(self._after):
                return self._after[where - self._count]
        self._load()
        item = list.__getitem__(self, index)
        if index < 0:
            index += list.__len__(self)
        if self._check is not None and index < self._count and index not in self._checked:
            try:
                item = self._check(index, item)
            except Untrusted:
                return self._replay()[index]
            list.__setitem__(self, index, item)
            self._checked.add(index)
        return item

    def _replay(self) -> list[Any]:
        """Every item replaced by the fallback's, the list replayed from the whole log."""
        assert self._fallback is not None, "a Lazy that checks its items needs a fallback"
        items = list(self._fallback())
        if len(items) < list.__len__(self):
            raise DamagedError(self.match_id, Words(SNAPSHOTS, found=list.__len__(self), count=len(items)))
        list.__setitem__(self, slice(None), items[:list.__len__(self)])
        self._check, self.replayed = None, True
        return self

    def __len__(self) -> int:
        return list.__len__(self) if self._loaded else self._count + len(self._after)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(len(self)))]
        return self._at(index)

    def __iter__(self) -> Iterator[Any]:
        if self._loaded and (self._check is None or len(self._checked) >= self._count):
            return list.__iter__(self)  # every item read and checked already (score reads them three times)
        return (self._at(i) for i in range(len(self)))

    def __reversed__(self) -> Iterator[Any]:
        return (self._at(i) for i in reversed(range(len(self))))

    def append(self, item: Any) -> None:
        if self._loaded:
            list.append(self, item)
        else:  # a deal finished: the session writes its snapshot and shows it without reading the others
            self._after.append(item)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, list) and list(self) == list(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment,unused-ignore]

    def __repr__(self) -> str:
        return repr(list(self))


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


def book_line(seq: int, engine: int, checksum: int, result: str, totals: str, figures: str) -> str:
    """A snapshot row as ``book_crc`` covers it (what BOOK_LINE makes of it in SQLite)."""
    return f"{seq} {engine} {checksum}\n{result}\n{totals}\n{figures}"


# BOOK_LINE: a row as SQLite writes it for book_crc; the rows of a match joined by newlines after book_seed's text
BOOK_LINE = ("s.seq || ' ' || s.engine || ' ' || s.crc || char(10) || s.result || char(10) || s.totals || char(10)"
             " || s.figures")
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
# ONE_BOOK (?2 and ?3: the newest snapshot's seq and log_crc, its log already found to hold by LOG_UP_TO in this
# read): ONE_CHAIN without computing the log's CRC again
ONE_BOOK = (f"SELECT n.engine, n.log_crc, n.book_crc, {_NUMBERED}, n.log_crc, {_BOOK_CRC} FROM snapshots AS n"
            " WHERE n.match_id = ?1 AND n.seq = ?2 AND n.log_crc = ?3 ORDER BY n.seq DESC LIMIT 1")


def chained(db: sqlite3.Connection, match_id: int, log_held: tuple[int, int] | None = None) -> bool:
    """``chain_holds`` for one match, its CRCs computed in SQLite (ONE_CHAIN). ``log_held``: the
    newest snapshot's seq and log_crc, when the log up to it was found to hold (LOG_UP_TO) in
    this read: only the book is computed, if the newest is still that row (else both)."""
    row = db.execute(ONE_BOOK, (match_id, *log_held)).fetchone() if log_held is not None else None
    if row is None:
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
_CHECKSUM = ("pasur_crc(CAST((SELECT group_concat(action, char(10)) FROM (SELECT action FROM actions AS a WHERE"
             " a.match_id = s.match_id AND a.seq > s.previous AND a.seq <= s.seq ORDER BY a.seq)) || char(10) ||"
             " s.result || char(10) || s.totals AS BLOB))")
# Every snapshot of a match up to the newest a load read (?2: its seq; a deal another program finished since is not
# this read's) with the checksum of its deal (all of a match's snapshots checked with one query)
VERIFIED = (f"SELECT s.seq, s.result, s.engine, s.crc, s.totals, {_CHECKSUM} FROM (SELECT *, coalesce(lag(seq)"
            " OVER (ORDER BY seq), 0) AS previous FROM snapshots WHERE match_id = ? AND seq <= ?) AS s ORDER BY s.seq")
# LOG_UP_TO (?1: the match id, ?2: a snapshot's seq): the CRC of the match's action lines up to it, as its log_crc
LOG_UP_TO = f"SELECT {_LOG_CRC.format(upto='?2')}"
# the same rows without the checksums, once chain_holds found every one of them right
TRUSTED = "SELECT seq, result, engine, crc, totals, NULL FROM snapshots WHERE match_id = ? AND seq <= ? ORDER BY seq"
def json_totals(text: object, read: Any = None) -> dict[str, int] | None:
    """Running totals read with the json module (as ``parse_result`` reads a result), or None
    when they are not an object of whole numbers (``read``: the text read already)."""
    try:
        totals = read_json(text) if read is None else read
    except (ValueError, TypeError, RecursionError):
        return None
    if not isinstance(totals, dict) or not all(type(v) is int for v in totals.values()):
        return None
    return totals if totals.__class__ is dict else {str(k): v for k, v in totals.items()}  # JSON's keys are text


def newest_snapshot(store: Book, mid: int, players: list[str], rules: Rules,
                    dealer: int) -> tuple[int, Lazy, dict[str, int], Lazy, list[Any]] | None:
    """(start, results, totals, completed_at, actions after start) from the snapshots, or None
    when there are none, or the newest was computed by another engine, does not match the log
    or does not fit the match (its totals name other sides than the players and rules make,
    its deal number is not the count of snapshots, a field has the wrong type)."""
    log_crc_column = "log_crc" if store.schema >= 4 else "NULL"  # a file of an older schema, read as it is
    snaps = store.db.execute(f"SELECT seq, engine, crc, result, totals, {log_crc_column} FROM snapshots"
                             " WHERE match_id = ? ORDER BY seq DESC LIMIT 2", (mid,)).fetchall()
    if not snaps:
        return None
    newest, engine, crc_stored, result, totals_text, log_crc = snaps[0]
    previous = snaps[1][0] if len(snaps) > 1 else 0
    if (engine != ENGINE_VERSION or type(newest) is not int or type(previous) is not int
            or not isinstance(result, str) or not isinstance(totals_text, str)):
        return None
    log = store.db.execute("SELECT seq, at, action FROM actions WHERE match_id = ? AND seq > ? ORDER BY seq",
                          (mid, previous)).fetchall()
    try:
        check_rows(mid, log)
    except DamagedError:
        return None  # replayed from the whole log, which says what is wrong
    if [seq for seq, _, _ in log] != list(range(previous + 1, previous + len(log) + 1)):
        return None  # a gap or a seq that is no number: replayed from the whole log, which says so
    if store.db.execute("SELECT count(*), min(seq) FROM actions WHERE match_id = ?",
                       (mid,)).fetchone() != (previous + len(log), 1 if log or previous else None):
        return None  # an earlier action is missing (or one too many): the whole log says which
    deal = [a for seq, _, a in log if seq <= newest]
    count = store.db.execute("SELECT count(*) FROM snapshots WHERE match_id = ?", (mid,)).fetchone()[0]
    if len(deal) != newest - previous or crc([*deal, result, totals_text]) != crc_stored:
        store.mismatched.setdefault(mid, count)
        return None  # the snapshot does not match the log: replay everything
    sides = sides_of(players, rules.teams)
    totals = snapshot_totals(store.db, totals_text)
    if totals is None or sorted(totals) != sorted(sides) or snapshot_number(store.db, result) != count:
        # totals of other sides (the players or rules were changed), a snapshot missing or one
        # too many (the deals' numbers would be wrong): replay everything
        store.mismatched.setdefault(mid, count)
        return None
    if not header_holds(store, mid, players, dealer, count, result):
        # the players' order, the rules or the first dealer changed by hand under the snapshots: the
        # log replayed whole says whether it still replays (show read a finished match as sound)
        store.mismatched.setdefault(mid, 1)
        return None
    held = (newest, log_crc) if type(log_crc) is int else None  # the log up to the newest, when it holds
    if ((store.schema >= 4 and held is None)
            or (held is not None and store.db.execute(LOG_UP_TO, (mid, newest)).fetchone()[0] != log_crc)):
        # an action of an older deal changed (or lost, or no text) by hand: the whole log replayed says
        # whether it still replays (show read a match whose log no longer replays as sound); the first
        # deal whose snapshot does not match its lines is named. A schema-4 file's snapshot without
        # running checksums is one of a match that did not check out when the file moved to schema 4
        # (damaged, or a figure forged), or written after such a one: not trusted either
        for index, (_, _, engine, stored, _, checksum) in enumerate(store.db.execute(VERIFIED, (mid, newest))):
            if engine != ENGINE_VERSION or checksum is None or checksum != stored:
                store.mismatched.setdefault(mid, index + 1)
                break
        return None
    rows: list[Any] = []
    trusted: list[bool] = []  # whether every row was found to be what pasur wrote for the log (chained)

    def fetch() -> list[Any]:  # one query for both lists, when either is first read
        if not rows:
            try:
                read(store)
            except sqlite3.ProgrammingError:  # read after the store was closed: open the file again
                again = store.reopen()
                try:
                    read(again)
                finally:
                    again.close()
        return rows

    def read(book: Book) -> None:
        """Every row: checked all at once by their running checksums, else each with its deal's."""
        holds = book.schema >= 4 and chained(book.db, mid, held if book is store else None)
        trusted.append(holds)
        rows.extend(book.db.execute(TRUSTED if holds else VERIFIED, (mid, newest)).fetchall())

    replayed: list[Match] = []

    def whole() -> Match:  # the match replayed from its whole log, when a snapshot is not trusted
        if not replayed:
            try:
                replayed.append(store.load(mid, True).replay())
            except sqlite3.ProgrammingError:  # read after the store was closed: open the file again
                again = store.reopen()
                try:
                    replayed.append(again.load(mid, True).replay())
                finally:
                    again.close()
            except (sqlite3.Error, UnicodeDecodeError) as err:
                store.mismatched.pop(mid, None)
                raise DamagedError(mid, Words("its finished deals cannot be read ({reason})",
                                              reason=str(err))) from None
            except DamagedError:
                store.mismatched.pop(mid, None)  # damaged, said as such: not merely figures recomputed
                raise
        return replayed[0]

    def result_at(index: int, text: object) -> DealResult:
        try:
            return fitting(index, text)
        except Untrusted:
            store.mismatched.setdefault(mid, index + 1)
            raise

    def fitting(index: int, text: object) -> DealResult:
        """Deal ``index``'s result: read as written when the match's running checksums hold, else
        when its snapshot matches the deal's actions (the CRC, as for the newest) and fits the
        match: its number, dealer and sides, and totals that add up."""
        held = bool(fetch()) and trusted[0]  # every row is what pasur wrote for this log: read as it is
        if not held and index + 1 < count:  # the newest was checked before anything was read
            _, _, engine, stored, older_totals, checksum = fetch()[index]
            if (engine != ENGINE_VERSION or not isinstance(older_totals, str) or not isinstance(text, str)
                    or checksum is None or checksum != stored):
                raise Untrusted
        if not isinstance(text, str):
            raise Untrusted
        try:
            found = written_result(text, sides, written) if held else parse_result(text, sides, known)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            raise Untrusted from None
        if not held:
            if found.number != index + 1 or found.dealer != players[(dealer + index) % len(players)]:
                raise Untrusted
            after = totals if index + 1 == count else totals_at(index)
            before = totals_at(index - 1) if index else dict.fromkeys(sides, 0)
            if (after is None or before is None or sorted(before) != sorted(sides)
                    or any(after.get(side) != before[side] + found.scores[side].total for side in sides)):
                raise Untrusted  # the totals do not add up: a figure was changed
        row = fetch()[index]  # what was read for this deal and is not needed again: a long session keeps no more
        fetch()[index] = (row[0], None, *row[2:])  # than a deal's worth of text at a time
        parsed.pop(index - 1, None)
        return found  # in seat order, as played

    parsed: dict[int, dict[str, int] | None] = {}
    known: dict[Any, Any] = {}  # the scores read so far (see parse_result)
    written: dict[str, Any] = {}  # the same, by their text, once the running checksums hold (see written_result)

    def totals_at(index: int) -> dict[str, int] | None:  # each deal's totals parsed once (it is two deals' check)
        if index not in parsed:
            parsed[index] = json_totals(fetch()[index][4])
        return parsed[index]

    def seq_at(index: int, seq: object) -> int:
        """Deal ``index``'s last action, when its result checks out (its CRC covers the deal's
        lines from the seq before to this one, so a seq moved by hand fails it): `log --deal N`
        reads a deal's actions by these numbers."""
        if type(seq) is not int or not 0 < seq <= newest:
            raise Untrusted
        results[index]
        if results.replayed:  # this deal, or one before it, did not check out: the whole log's numbers
            raise Untrusted
        return seq

    def changed() -> BusyError:
        """Snapshots up to the newest this load read are fewer than it counted: another program took
        back a deal's end since (they are read up to that newest, so none can be more): not damage."""
        return BusyError("{path} is busy: another program is using it. Nothing was changed; try again in a"
                         " moment.", path=str(getattr(store, "path", "")))

    results = Lazy(count, lambda: [r[1] for r in fetch()], mid, result_at, lambda: whole().results, changed)
    completed = Lazy(count, lambda: [r[0] for r in fetch()], mid, seq_at, lambda: whole().completed_at, changed)
    return newest, results, totals, completed, [entry for entry in log if entry[0] > newest]

def header_holds(store: Book, mid: int, players: list[str], dealer: int, count: int, newest: str) -> bool:
    """Whether the match's players, rules and first dealer as stored are those its snapshots were
    written for: the oldest snapshot's ``book_crc`` starts from them (``book_seed``), so that row
    alone says so (one row read, whatever the match's length). A row without running checksums
    (written before schema 4) has only the newest deal's dealer to say it: it must be the one the
    players and the first dealer make."""
    if store.schema >= 4:
        first = store.db.execute("SELECT seq, engine, crc, result, totals, figures, book_crc FROM snapshots"
                                 " WHERE match_id = ? ORDER BY seq LIMIT 1", (mid,)).fetchone()
        if first is not None and type(first[6]) is int:
            seed = _header(store.db, mid)
            return (seed is not None and all(isinstance(text, str) for text in first[3:6])
                    and zlib.crc32(("\n" + book_line(*first[:6])).encode(), seed) == first[6])
    try:
        found = store.db.execute("SELECT CASE WHEN json_valid(?1) THEN json_extract(?1, '$.dealer') END",
                                 (newest,)).fetchone()[0]
    except sqlite3.OperationalError:  # no JSON functions in this SQLite: the results' own checks say it
        return True
    return bool(found == players[(dealer + count - 1) % len(players)])


def snapshot_number(db: sqlite3.Connection, text: str) -> object:
    """A snapshot's deal number (``$.number`` of its result), read by SQLite's JSON functions
    as ``snapshot_totals`` reads, or None."""
    try:
        return db.execute("SELECT CASE WHEN json_valid(?) THEN CASE WHEN json_type(?, '$.number') = 'integer'"
                               " THEN json_extract(?, '$.number') END END", (text, text, text)).fetchone()[0]
    except sqlite3.OperationalError:
        import json
        try:
            data = json.loads(text)
        except ValueError:
            return None
        number = data.get("number") if isinstance(data, dict) else None
        return number if type(number) is int else None

def snapshot_totals(db: sqlite3.Connection, text: object) -> dict[str, int] | None:
    """A snapshot's running totals (``{"Ali": 12, "Sara": 30}``), or None when they are not an
    object of whole numbers. SQLite reads the JSON, so that ``show`` and ``play`` load no json
    module; the json module reads it only when this
    SQLite has no JSON functions (they are built in since 3.38) or the text is malformed."""
    try:
        if db.execute("SELECT json_type(?)", (text,)).fetchone()[0] != "object":
            return None
        rows = db.execute("SELECT key, value, type FROM json_each(?)", (text,)).fetchall()
        return {str(k): v for k, v, kind in rows} if all(kind == "integer" for _, _, kind in rows) else None
    except sqlite3.OperationalError:
        import json
        try:
            totals = json.loads(text)  # type: ignore[arg-type]
        except (ValueError, TypeError):
            return None
        if not isinstance(totals, dict) or not all(type(v) is int for v in totals.values()):
            return None
        return {str(k): v for k, v in totals.items()}


def sides_pattern(sides: Sequence[str], each: str) -> str:
    """The %-format of a JSON object of these sides, in their order, each side's value written as
    ``each`` (itself a %-format): ``{"Ali": <each>, "Sara": <each>}``, the names as json.dumps
    writes them."""
    import json
    return "{" + ", ".join(json.dumps(side, ensure_ascii=False).replace("%", "%%") + ": " + each
                           for side in sides) + "}"


def figures_pattern(sides: Sequence[str]) -> str:
    """The %-format of a snapshot's figures for these sides: ``{"Ali": [deals, points, ...], ...}``
    (each side's ``SideFigures`` in field order, as json.dumps writes them)."""
    return sides_pattern(sides, "[" + ", ".join(["%d"] * len(SideFigures._fields)) + "]")


def totals_pattern(sides: Sequence[str]) -> str:
    """The %-format of a snapshot's running totals for these sides (as json.dumps writes them)."""
    return sides_pattern(sides, "%d")


def _header(db: sqlite3.Connection, match_id: int) -> int | None:
    """book_seed of the match as stored (None when it has no row: a test's bare table)."""
    try:
        row = db.execute("SELECT players, rules, dealer FROM matches WHERE id = ?", (match_id,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else book_seed(*row)


def write_snapshot(db: sqlite3.Connection, match_id: int, match: Match, number: int, totals: Mapping[str, int]) -> None:
    """Keep deal ``number`` (0-based) of the match as a snapshot row at the action that finished it,
    with the match ``totals`` after it, its figures and checksums continued from the row before
    (none when that row has none: ``Store._repair`` then writes every row again)."""
    seq = match.completed_at[number]
    # the deal before it finished where its snapshot is (read as VERIFIED reads them, without reading the others)
    before = db.execute("SELECT seq, log_crc, book_crc, figures FROM snapshots WHERE match_id = ? AND seq < ?"
                        " ORDER BY seq DESC LIMIT 1", (match_id, seq)).fetchone() if number else None
    previous = before[0] if before else 0
    deal = [a for a, in db.execute("SELECT action FROM actions WHERE match_id = ? AND seq > ? AND seq <= ?"
                                   " ORDER BY seq", (match_id, previous, seq))]
    result = match.results[number]
    text = result_text(result)
    sides = list(match.sides)
    totals_text = totals_pattern(sides) % tuple(totals[side] for side in sides)
    figures = {side: SideFigures() for side in sides} if before is None else figures_from(before[3], sides)
    figures_text = None
    if figures is not None:
        figures = {side: figures[side].after(result.scores[side], result.number) for side in sides}
        figures_text = figures_pattern(sides) % tuple(n for side in sides for n in figures[side])
    log_crc, book_crc = (None, _header(db, match_id)) if before is None else before[1:3]
    if (before is not None and type(log_crc) is not int) or type(book_crc) is not int:
        log_crc = book_crc = None  # the row before has no running checksums: none from here
    checksum, log_crc, book_crc = _chained(seq, "\n".join(deal), text, totals_text, figures_text, log_crc, book_crc)
    log_crc = log_crc if book_crc is not None else None
    db.execute("INSERT OR REPLACE INTO snapshots (match_id, seq, engine, crc, result, totals, figures, log_crc,"
               " book_crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (match_id, seq, ENGINE_VERSION, checksum, text, totals_text, figures_text, log_crc, book_crc))


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


def figures_from(text: object, sides: list[str]) -> dict[str, SideFigures] | None:
    """A snapshot's figures read back (None when they are not each side's whole numbers)."""
    try:
        data = read_json(text)
    except (ValueError, TypeError, RecursionError):
        return None
    if data.__class__ is not dict or len(data) != len(sides):
        return None
    figures = {}
    for side in sides:
        numbers = data.get(side)
        if numbers.__class__ is not list or len(numbers) != _FIGURES or set(map(type, numbers)) != _INT:
            return None
        figures[side] = SideFigures._make(numbers)
    return figures


_FIGURES, _INT = len(SideFigures._fields), {int}


def rebuild_snapshots(db: sqlite3.Connection, match_id: int, match: Match, texts: list[str] | None = None) -> None:
    """Snapshots of every finished deal (as ``write_snapshot`` writes each), from a match just
    replayed from its whole log, with one read of the log (``texts``: its lines, when the caller
    has them) and one statement."""
    db.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
    if not match.results:
        return
    if texts is None:
        texts = [a for a, in db.execute("SELECT action FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))]
    db.executemany("INSERT OR REPLACE INTO snapshots (match_id, seq, engine, crc, result, totals, figures, log_crc,"
                   " book_crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   _rows(match_id, match, texts, _header(db, match_id)))


def _rows(match_id: int, match: Match, texts: list[str], book_crc: int | None) -> Iterator[tuple[Any, ...]]:
    """``rebuild_snapshots``' rows, each made as SQLite takes it (a long match never
    holds them all): each column's text made for all the deals at once (the figures added up
    by ``figures_after_each``, the totals being their points), then the checksums deal by deal."""
    results, sides = match.results, list(match.sides)
    figures = [column for side in sides for column in figures_after_each(results, side)]
    points = figures[1::len(SideFigures._fields)]  # each side's running total
    totals_format, figures_format = totals_pattern(sides), figures_pattern(sides)
    known: dict[Any, Any] = {}
    log_crc, previous = None, 0
    for seq, result, totals, figures_of in zip(match.completed_at, results,
                                                [totals_format % row for row in zip(*points, strict=True)],
                                                [figures_format % row for row in zip(*figures, strict=True)],
                                                strict=True):
        text = result_text(result, known)
        deal = texts[previous] if seq == previous + 1 else "\n".join(texts[previous:seq])
        checksum, log_crc, book_crc = _chained(seq, deal, text, totals, figures_of, log_crc, book_crc)
        yield (match_id, seq, ENGINE_VERSION, checksum, text, totals, figures_of,
               log_crc if book_crc is not None else None, book_crc)
        previous = seq
