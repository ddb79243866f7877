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
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from pasur_cli.engine.errors import Words
from pasur_cli.engine.match import DealResult, Match
from pasur_cli.engine.names import sides_of
from pasur_cli.engine.rules import Rules
from pasur_cli.store.errors import DamagedError, check_rows


class Book(Protocol):
    """What the snapshot reader needs of the store (``pasur_cli.store.database.Store`` is one)."""

    db: sqlite3.Connection

    def load(self, match_id: int, full: bool = False) -> Any: ...

    def reopen(self) -> Book: ...

    def close(self) -> None: ...

# The engine that computed a snapshot: raise it whenever a change of the rules code may change a
# finished deal's result, so that stored snapshots are recomputed from the log.
ENGINE_VERSION = 1


def result_text(r: DealResult) -> str:
    """A deal result as JSON, every field by name."""
    import json
    return json.dumps(r.as_dict(), ensure_ascii=False, sort_keys=True)


def parse_result(text: str) -> DealResult:
    """The DealResult a ``result_text`` stands for; raises ValueError (or TypeError) when it does not."""
    import json
    return DealResult.from_dict(json.loads(text))


class Untrusted(Exception):
    """A snapshot item that does not fit its match (wrong type, sides, number or dealer)."""


class Lazy(list):  # type: ignore[type-arg]
    """A list read from the database only when an item is wanted: loading a long match costs the
    same as a short one, because ``show`` and ``play`` need only how many deals were played
    (``score`` reads them all). Items read from the snapshots are checked one by one when first
    wanted (``check`` returns the item to use, parsed, or raises Untrusted); the first that does
    not fit its match replaces the whole list by ``fallback()``, the same list replayed from the
    whole log (which raises DamagedError when the log does not replay). Items appended later are
    the engine's own."""

    def __init__(self, count: int, fill: Any, match_id: int, check: Any = None, fallback: Any = None) -> None:
        super().__init__()
        self._count, self._fill, self._loaded, self.match_id = count, fill, False, match_id
        self._check, self._fallback, self._checked = check, fallback, set[int]()
        self.replayed = False  # whether the snapshots were not trusted and the log was replayed instead

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            try:
                items = self._fill()
            except sqlite3.Error as err:
                raise DamagedError(self.match_id, Words("its finished deals cannot be read ({reason})",
                                                        reason=str(err))) from None
            if len(items) != self._count:
                raise DamagedError(self.match_id, Words("{found} deal snapshots, not {count}",
                                                        found=len(items), count=self._count))
            list.extend(self, items)

    def _at(self, index: int) -> Any:
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
        return list.__len__(self) if self._loaded else self._count

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(len(self)))]
        return self._at(index)

    def __iter__(self) -> Iterator[Any]:
        return (self._at(i) for i in range(len(self)))

    def __reversed__(self) -> Iterator[Any]:
        return (self._at(i) for i in reversed(range(len(self))))

    def append(self, item: Any) -> None:
        self._load()
        list.append(self, item)

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
    if len(deal) != newest - previous or crc([*deal, result, totals_text]) != crc_stored:
        return None  # the snapshot does not match the log: replay everything
    sides = sides_of(players, rules.teams)
    totals = snapshot_totals(store.db, totals_text)
    if totals is None or sorted(totals) != sorted(sides):
        return None  # totals of other sides (the players or rules were changed): replay everything
    count = store.db.execute("SELECT count(*) FROM snapshots WHERE match_id = ?", (mid,)).fetchone()[0]
    if snapshot_number(store.db, result) != count:
        return None  # a snapshot is missing or one too many: the deals' numbers would be wrong
    rows: list[Any] = []

    def fetch() -> list[Any]:  # one query for both lists, when either is first read
        if not rows:
            query = "SELECT seq, result FROM snapshots WHERE match_id = ? ORDER BY seq"
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
                raise DamagedError(mid, Words("its finished deals cannot be read ({reason})",
                                              reason=str(err))) from None
        return replayed[0]

    def result_at(index: int, text: object) -> DealResult:
        if not isinstance(text, str):
            raise Untrusted
        try:
            found = parse_result(text)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            raise Untrusted from None
        if (found.number != index + 1 or found.dealer != players[(dealer + index) % len(players)]
                or sorted(found.scores) != sorted(sides)):
            raise Untrusted
        return found.replace(scores={side: found.scores[side] for side in sides})  # seat order, as played

    def seq_at(index: int, seq: object) -> int:
        if type(seq) is not int or not 0 < seq <= newest:
            raise Untrusted
        return seq

    results = Lazy(count, lambda: [r for _, r in fetch()], mid, result_at, lambda: whole().results)
    completed = Lazy(count, lambda: [s for s, _ in fetch()], mid, seq_at, lambda: whole().completed_at)
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
    previous = match.completed_at[number - 1] if number else 0
    deal = [a for a, in db.execute("SELECT action FROM actions WHERE match_id = ? AND seq > ? AND seq <= ?"
                                   " ORDER BY seq", (match_id, previous, seq))]
    import json
    result = result_text(match.results[number])
    totals_text = json.dumps(totals, ensure_ascii=False)
    db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?, ?)",
               (match_id, seq, ENGINE_VERSION, crc([*deal, result, totals_text]), result, totals_text))


def rebuild_snapshots(db: sqlite3.Connection, match_id: int, match: Match) -> None:
    """Snapshots of every finished deal, from a match just replayed from its whole log."""
    db.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
    for number, totals in enumerate(match.running_totals()):
        write_snapshot(db, match_id, match, number, totals)
