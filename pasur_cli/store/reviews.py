"""The kept reviews: each reviewed deal's review kept in the record book, so that it is not
computed again (a review is seeded: a kept one equals a fresh one).

A row (table ``reviews``) holds the deal's number, the action that finished it (``seq``), the
analysis engine's version that made it (``ANALYSIS_VERSION``), ``log_crc``: the CRC-32 of the
match's action lines up to ``seq`` (the log it reviewed; the snapshots' running ``log_crc`` is the
same figure), the review as the JSON of ``DealReview.as_dict`` (``review_text``, read back by
``read_review``: the one writer and the one reader, every field of the review whole), each
player's accuracy in it (``accuracy_text`` of ``engine.stats.deal_accuracy``, read back by
``read_accuracy``: what `stats` adds up without reading the reviews), and ``crc``, the CRC-32 of
all of these (``row_crc``).

A row is trusted when its checksum holds and its review reads; else it is *damaged*: refused,
made again, and said so. A trusted row whose engine is not this one's, or whose log is not the
match's log now (an undo, a deal played again), is *stale*: made again without a word, as a
snapshot of another engine is. Works through the Store's public methods alone.
"""

from __future__ import annotations

import functools
import json
import types
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin, get_type_hints

from pasur_cli.engine.values import Value
from pasur_cli.store.snapshots import as_json

if TYPE_CHECKING:
    from pasur_cli.engine.advice import DealReview
    from pasur_cli.engine.stats import Accuracy
    from pasur_cli.store.database import Store

FIRST_SCHEMA = 6  # the schema that has the table
COLUMNS = "match_id, deal, seq, engine, log_crc, crc, review, accuracy"  # a row, in this order


class Kept(Value):
    """What a match's kept reviews hold: the trusted ``reviews`` by deal number, and the numbers of
    the deals whose rows were ``damaged`` (refused)."""

    reviews: Mapping[int, Any]  # deal number -> DealReview
    damaged: tuple[int, ...] = ()


def review_text(review: DealReview) -> str:
    """A review as kept: the JSON of ``DealReview.as_dict`` (the one place a review becomes text)."""
    return as_json(review.as_dict())


def _refuse(word: str) -> None:
    raise ValueError(f"{word} is not a number pasur writes")


def read_review(text: object) -> DealReview:
    """The DealReview a ``review_text`` stands for, every field read by its declared type: the one
    reader of a kept review. Raises ValueError (or TypeError, KeyError, RecursionError) when it is
    not one."""
    from pasur_cli.engine.advice import DealReview
    if not isinstance(text, str):
        raise TypeError("a kept review is text")
    return _typed(DealReview, json.loads(text, parse_constant=_refuse))  # type: ignore[no-any-return]


_PLAIN = {int: (int,), float: (float, int), str: (str,), bool: (bool,), type(None): (type(None),)}


def _typed(hint: Any, data: Any) -> Any:
    """``data`` (read from JSON) as a value of type ``hint``: a Value from its ``as_dict``, a tuple
    from a list, a mapping, a union's first type that takes it, or a plain value of that type.
    Raises TypeError or ValueError when it is none."""
    if isinstance(hint, type) and issubclass(hint, Value):
        if hint.from_dict.__func__ is not Value.from_dict.__func__:  # type: ignore[attr-defined]
            return hint.from_dict(data)  # its own reader (Card)
        if not isinstance(data, dict) or not set(data) <= set(hint._fields):
            raise TypeError(f"a {hint.__name__} is a dict of its fields")
        hints = _hints(hint)
        return hint(**{name: _typed(hints[name], value) for name, value in data.items()})
    origin, args = get_origin(hint), get_args(hint)
    if origin is tuple:
        if not isinstance(data, list):
            raise TypeError("a tuple is kept as a list")
        kinds = [args[0]] * len(data) if len(args) == 2 and args[1] is Ellipsis else list(args)
        if len(kinds) != len(data):
            raise ValueError("a tuple of the wrong length")
        return tuple(_typed(kind, value) for kind, value in zip(kinds, data, strict=True))
    if origin in (Union, types.UnionType):
        return _union(args, data)
    if origin is not None and origin.__name__ in ("Mapping", "dict"):
        if not isinstance(data, dict):
            raise TypeError("a mapping is kept as an object")
        return {_typed(args[0], key): _typed(args[1], value) for key, value in data.items()}
    if hint in _PLAIN and type(data) in _PLAIN[hint]:
        return float(data) if hint is float else data
    raise TypeError(f"{data!r} is no {hint}")


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    """The declared types of a Value's fields (resolved once a process)."""
    return get_type_hints(kind)


def _union(kinds: Sequence[Any], data: Any) -> Any:
    """``data`` as the first of ``kinds`` that takes it. Raises TypeError when none does."""
    for kind in kinds:
        try:
            return _typed(kind, data)
        except (TypeError, ValueError):
            continue
    raise TypeError(f"{data!r} is none of {kinds}")


def row_crc(match_id: int, deal: int, seq: int, engine: int, log_crc: int, review: str, accuracy: str) -> int:
    """A kept review's checksum: the CRC-32 of its match, deal, seq, engine, log checksum, review and accuracy."""
    return zlib.crc32(f"{match_id} {deal} {seq} {engine} {log_crc}\n{review}\n{accuracy}".encode())


def accuracy_text(review: DealReview) -> str:
    """Each player's accuracy in ``review`` as kept: the JSON of {player: [decisions, lost]}."""
    from pasur_cli.engine.stats import deal_accuracy
    return as_json({a.player: [a.decisions, a.lost] for a in deal_accuracy(review)})


def read_accuracy(text: object) -> tuple[Accuracy, ...]:
    """The accuracies an ``accuracy_text`` stands for (one deal each). Raises ValueError (or
    TypeError, RecursionError) when it is not one."""
    from pasur_cli.engine.stats import Accuracy
    if not isinstance(text, str):
        raise TypeError("kept accuracy is text")
    data = json.loads(text, parse_constant=_refuse)
    if not isinstance(data, dict):
        raise TypeError("kept accuracy is an object")
    found = []
    for player, value in data.items():
        if (not isinstance(value, list) or len(value) != 2 or type(value[0]) is not int
                or type(value[1]) not in (int, float) or value[0] < 0 or value[1] < 0):
            raise ValueError("kept accuracy is [decisions, lost] a player")
        found.append(Accuracy(player, 1, value[0], float(value[1])))
    return tuple(found)


def log_crcs(texts: Sequence[str], ends: Iterable[int]) -> dict[int, int]:
    """The CRC-32 of the action lines ``texts[:seq]`` joined by newlines, for each ``seq`` in ``ends``
    (one pass over the lines)."""
    wanted, found = set(ends), {}
    running = 0
    for seq, line in enumerate(texts, 1):
        running = zlib.crc32((line if seq == 1 else "\n" + line).encode(), running)
        if seq in wanted:
            found[seq] = running
    return found


def _holds(row: Sequence[Any], match_id: int) -> bool:
    """Whether a row (deal, seq, engine, log_crc, crc, review, accuracy) is what pasur wrote: its
    columns of their types and its checksum right."""
    deal, seq, engine, log_crc, crc, text, accuracy = row
    return (all(type(n) is int for n in (deal, seq, engine, log_crc, crc)) and isinstance(text, str)
            and isinstance(accuracy, str) and row_crc(match_id, deal, seq, engine, log_crc, text, accuracy) == crc)


def _trusted(row: Sequence[Any], match_id: int) -> Any:
    """The DealReview of a row (deal, seq, engine, log_crc, crc, review, accuracy) whose checksum
    holds and whose review reads as its deal's, else None."""
    if not _holds(row, match_id):
        return None
    try:
        review = read_review(row[5])
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    return review if review.deal == row[0] else None


def kept(store: Store, match_id: int, texts: Sequence[str], ends: Sequence[int]) -> Kept:
    """The match's kept reviews, checked: ``texts``, its action lines (a full load); ``ends``, the
    action that finished each finished deal (``Match.completed_at``). A row for a deal that is
    not finished now, of another engine, or of another log is stale and left out."""
    from pasur_cli.engine.advice import ANALYSIS_VERSION
    if store.schema < FIRST_SCHEMA:  # a file of an older schema read as it is: nothing kept yet
        return Kept({})
    rows = store.db.execute("SELECT deal, seq, engine, log_crc, crc, review, accuracy FROM reviews"
                            " WHERE match_id = ? ORDER BY deal", (match_id,)).fetchall()
    logs = log_crcs(texts, ends)
    good, damaged = {}, []
    for row in rows:
        review = _trusted(row, match_id)
        if review is None:
            damaged.append(row[0])
            continue
        deal, seq, engine, log_crc = row[:4]
        if engine == ANALYSIS_VERSION and 0 < deal <= len(ends) and ends[deal - 1] == seq and logs[seq] == log_crc:
            good[deal] = review
    return Kept(good, tuple(damaged))


def review_row(match_id: int, review: DealReview, texts: Sequence[str], ends: Sequence[int]) -> tuple[Any, ...]:
    """The row that keeps ``review`` of the match (``texts``, ``ends``: as ``kept`` takes them), in
    ``COLUMNS`` order."""
    from pasur_cli.engine.advice import ANALYSIS_VERSION
    seq = ends[review.deal - 1]
    log_crc = log_crcs(texts, [seq])[seq]
    text, accuracy = review_text(review), accuracy_text(review)
    return (match_id, review.deal, seq, ANALYSIS_VERSION, log_crc,
            row_crc(match_id, review.deal, seq, ANALYSIS_VERSION, log_crc, text, accuracy), text, accuracy)


def keep(store: Store, row: Sequence[Any]) -> None:
    """Keep a ``review_row`` in a transaction of its own, in place of any row of that deal. Raises
    StoreError when the file cannot be written."""
    with store.transaction() as db:
        db.execute(f"INSERT OR REPLACE INTO reviews ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)


def is_kept(store: Store, row: Sequence[Any]) -> bool:
    """Whether ``row`` (a ``review_row``) is the one kept for its deal (committed)."""
    found = store.db.execute("SELECT crc FROM reviews WHERE match_id = ? AND deal = ?", (row[0], row[1])).fetchone()
    return found is not None and found[0] == row[5]


def every_accuracy(store: Store) -> dict[int, tuple[Accuracy, ...]]:
    """Each match's accuracy per player over its trusted kept reviews (a damaged or stale row is
    left out): read without replaying any match or reading any review, each row's log checksum
    compared with its match's log, which is read in one pass. Loads the analysis engine only when
    a review is kept (for its version)."""
    from pasur_cli.engine.stats import combined
    if store.schema < FIRST_SCHEMA or store.db.execute("SELECT count(*) FROM reviews").fetchone()[0] == 0:
        return {}
    from pasur_cli.engine.advice import ANALYSIS_VERSION
    rows = store.db.execute("SELECT match_id, deal, seq, engine, log_crc, crc, review, accuracy FROM reviews"
                            " WHERE engine = ? ORDER BY match_id, deal", (ANALYSIS_VERSION,)).fetchall()
    wanted: dict[int, set[int]] = {}
    for row in rows:
        wanted.setdefault(row[0], set()).add(row[2])
    logs = _match_logs(store, wanted)
    found: dict[int, list[Accuracy]] = {}
    for match_id, *row in rows:
        if not _holds(row, match_id) or logs.get((match_id, row[1])) != row[3]:
            continue
        try:
            found.setdefault(match_id, []).extend(read_accuracy(row[6]))
        except (ValueError, TypeError, RecursionError):
            continue
    return {match_id: combined(parts) for match_id, parts in found.items()}


def _match_logs(store: Store, wanted: Mapping[int, set[int]]) -> dict[tuple[int, int], int]:
    """(match, seq) -> the CRC-32 of the match's action lines up to seq, for every seq ``wanted``,
    the lines numbered from 1 without a gap (else that seq has none)."""
    found: dict[tuple[int, int], int] = {}
    for match_id, seqs in wanted.items():
        lines = store.db.execute("SELECT seq, action FROM actions WHERE match_id = ? AND seq <= ? ORDER BY seq",
                                 (match_id, max(seqs))).fetchall()
        if [seq for seq, _ in lines] != list(range(1, len(lines) + 1)):
            continue
        for seq, crc in log_crcs([text for _, text in lines], seqs).items():
            found[(match_id, seq)] = crc
    return found
