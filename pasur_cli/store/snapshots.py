"""The snapshot cache: so that a long match stays instant, each finished deal leaves a row (the
action count at which it finished, the engine version that computed it, its result, the match
totals after it, and a CRC-32 of that deal's action lines, the result and the totals). A load
reads the newest row, checks it against its deal's actions and the engine version, and replays
only what came after; anything that does not fit makes the whole log be replayed (and the next
change rewrites the snapshots). Results are parsed only when read (``Lazy``).
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from pasur_cli.engine.errors import Words
from pasur_cli.engine.match import DealResult, Match
from pasur_cli.engine.names import sides_of
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.scoring import SideScore
from pasur_cli.store.errors import DamagedError, check_rows


class Book(Protocol):
    """What the snapshot reader needs of the store (``pasur_cli.store.database.Store`` is one)."""

    db: sqlite3.Connection
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
    import json
    if known is None:
        return json.dumps(r.as_dict(), ensure_ascii=False, sort_keys=True)
    kept = known.get(id(r.scores))
    if kept is None or kept[0] is not r.scores:
        kept = known[id(r.scores)] = r.scores, json.dumps({side: score.as_dict() for side, score in r.scores.items()},
                                                          ensure_ascii=False, sort_keys=True)
    dealer = known.get(r.dealer)
    if dealer is None:
        dealer = known[r.dealer] = f'{{"dealer": {json.dumps(r.dealer, ensure_ascii=False)}, "number": '
    number = r.number if r.number.__class__ is int else int(r.number)  # as json writes an int
    return f'{dealer}{number}, "scores": {kept[1]}, "tallied": {"true" if r.tallied else "false"}}}'


def parse_result(text: str, sides: Sequence[str] | None = None, known: dict[Any, Any] | None = None) -> DealResult:
    """The DealResult a ``result_text`` stands for, its scores in the order of ``sides`` when given
    (they must be those sides); raises ValueError (or TypeError) when it does not. ``known``: the
    scores read so far from the same match's snapshots (same ``sides``), by their content: deals
    that scored alike share one scores object (a long match of tallied deals has a few hundred
    different scores among thousands of deals), made and checked once."""
    import json
    return result_from(json.loads(text), sides, known)


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

    def __init__(self, count: int, fill: Any, match_id: int, check: Any = None, fallback: Any = None) -> None:
        super().__init__()
        self._count, self._fill, self._loaded, self.match_id = count, fill, False, match_id
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
            # the deals appended since may have their snapshots written already (in this transaction)
            if len(items) not in (self._count, self._count + len(self._after)):
                raise DamagedError(self.match_id, Words("{found} deal snapshots, not {count}",
                                                        found=len(items), count=self._count))
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
            raise DamagedError(self.match_id, Words("{found} deal snapshots, not {count}",
                                                    found=list.__len__(self), count=len(items)))
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


# what crc32 of "\n".join((the deal's action lines, result, totals)) is, computed by SQLite with pasur_crc
_CHECKSUM = ("pasur_crc(CAST((SELECT group_concat(action, char(10)) FROM (SELECT action FROM actions AS a WHERE"
             " a.match_id = s.match_id AND a.seq > s.previous AND a.seq <= s.seq ORDER BY a.seq)) || char(10) ||"
             " s.result || char(10) || s.totals AS BLOB))")
# Every snapshot of a match with the checksum of its deal (all of a match's snapshots checked with one query)
VERIFIED = (f"SELECT s.seq, s.result, s.engine, s.crc, s.totals, {_CHECKSUM} FROM (SELECT *, coalesce(lag(seq)"
            " OVER (ORDER BY seq), 0) AS previous FROM snapshots WHERE match_id = ?) AS s ORDER BY s.seq")
# the same for every match of the file at once, and the actions after each match's newest snapshot
EVERY_VERIFIED = (f"SELECT s.match_id, s.seq, s.engine, s.crc, s.result, s.totals, {_CHECKSUM},"
                  " json_valid(s.result) AND json_valid(s.totals) AND substr(s.result, 1, 1) = '{' AND"
                  " substr(s.totals, 1, 1) = '{' FROM (SELECT *,"
                  " coalesce(lag(seq) OVER (PARTITION BY match_id ORDER BY seq), 0) AS previous FROM snapshots) AS s"
                  " ORDER BY s.match_id, s.seq")
EVERY_TAIL = ("SELECT a.match_id, a.seq, a.at, a.action FROM actions AS a JOIN (SELECT match_id, max(seq) AS newest"
              " FROM snapshots GROUP BY match_id) AS n ON n.match_id = a.match_id WHERE a.seq > n.newest"
              " ORDER BY a.match_id, a.seq")


def read_together(texts: list[Any], objects: list[Any]) -> list[Any] | None:
    """Each of ``texts`` read by the json module, with one call for them all (a call each costs
    more than reading them), when SQLite found each a JSON object (``objects``: so joined by commas
    they stay apart, one item each); None otherwise (each is then read alone)."""
    import json
    if not all(objects) or not all(t.__class__ is str for t in texts):
        return None
    try:
        items = json.loads("[" + ",".join(texts) + "]")
    except (ValueError, RecursionError):
        return None
    return items if len(items) == len(texts) else None


def json_totals(text: object, read: Any = None) -> dict[str, int] | None:
    """Running totals read with the json module (as ``parse_result`` reads a result), or None
    when they are not an object of whole numbers (``read``: the text read already)."""
    import json
    try:
        totals = json.loads(text) if read is None else read  # type: ignore[arg-type]
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
    snaps = store.db.execute("SELECT seq, engine, crc, result, totals FROM snapshots WHERE match_id = ?"
                            " ORDER BY seq DESC LIMIT 2", (mid,)).fetchall()
    if not snaps:
        return None
    newest, engine, crc_stored, result, totals_text = snaps[0]
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
    rows: list[Any] = []

    def fetch() -> list[Any]:  # one query for both lists, when either is first read
        if not rows:
            query = VERIFIED
            try:
                rows.extend(store.db.execute(query, (mid,)).fetchall())
            except sqlite3.ProgrammingError:  # read after the store was closed: open the file again
                again = store.reopen()
                try:
                    rows.extend(again.db.execute(query, (mid,)).fetchall())
                finally:
                    again.close()
        return rows

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
        """Deal ``index``'s result, when its snapshot matches the deal's actions (the CRC, as for
        the newest) and fits the match: its number, dealer and sides, and totals that add up."""
        if index + 1 < count:  # the newest was checked before anything was read
            _, _, engine, stored, older_totals, checksum = fetch()[index]
            if (engine != ENGINE_VERSION or not isinstance(older_totals, str) or not isinstance(text, str)
                    or checksum is None or checksum != stored):
                raise Untrusted
        if not isinstance(text, str):
            raise Untrusted
        try:
            found = parse_result(text, sides, known)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            raise Untrusted from None
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

    def totals_at(index: int) -> dict[str, int] | None:  # each deal's totals parsed once (it is two deals' check)
        if index not in parsed:
            parsed[index] = json_totals(fetch()[index][4])
        return parsed[index]

    def seq_at(index: int, seq: object) -> int:
        if type(seq) is not int or not 0 < seq <= newest:
            raise Untrusted
        return seq

    results = Lazy(count, lambda: [r[1] for r in fetch()], mid, result_at, lambda: whole().results)
    completed = Lazy(count, lambda: [r[0] for r in fetch()], mid, seq_at, lambda: whole().completed_at)
    return newest, results, totals, completed, [entry for entry in log if entry[0] > newest]

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


def write_snapshot(db: sqlite3.Connection, match_id: int, match: Match, number: int, totals: Mapping[str, int]) -> None:
    """Keep deal ``number`` (0-based) of the match as a snapshot row at the action that finished it,
    with the match ``totals`` after it."""
    seq = match.completed_at[number]
    # the deal before it finished where its snapshot is (read as VERIFIED reads them, without reading the others)
    previous = db.execute("SELECT coalesce(max(seq), 0) FROM snapshots WHERE match_id = ? AND seq < ?",
                          (match_id, seq)).fetchone()[0] if number else 0
    deal = [a for a, in db.execute("SELECT action FROM actions WHERE match_id = ? AND seq > ? AND seq <= ?"
                                   " ORDER BY seq", (match_id, previous, seq))]
    import json
    result = result_text(match.results[number])
    totals_text = json.dumps(totals, ensure_ascii=False)
    db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?, ?)",
               (match_id, seq, ENGINE_VERSION, crc([*deal, result, totals_text]), result, totals_text))


def rebuild_snapshots(db: sqlite3.Connection, match_id: int, match: Match, texts: list[str] | None = None) -> None:
    """Snapshots of every finished deal (as ``write_snapshot`` writes each), from a match just
    replayed from its whole log, with one read of the log (``texts``: its lines, when the caller
    has them) and one statement."""
    import json
    db.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
    if not match.results:
        return
    if texts is None:
        texts = [a for a, in db.execute("SELECT action FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))]
    # the running totals as json.dumps writes them (the sides in the order the match keeps them)
    pattern = "{" + ", ".join(json.dumps(side, ensure_ascii=False).replace("%", "%%") + ": %d"
                              for side in match.sides) + "}"
    known: dict[Any, Any] = {}
    rows, previous = [], 0
    for result, seq, running in zip(match.results, match.completed_at, match.running_totals(), strict=True):
        text = result_text(result, known)
        totals_text = pattern % tuple(running.values())  # running_totals keeps the sides' order
        deal = texts[previous] if seq == previous + 1 else "\n".join(texts[previous:seq])
        rows.append((match_id, seq, ENGINE_VERSION, zlib.crc32(f"{deal}\n{text}\n{totals_text}".encode()), text,
                     totals_text))  # crc([*deal's lines, text, totals_text])
        previous = seq
    db.executemany("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?, ?)", rows)
