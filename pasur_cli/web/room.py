"""The room: which tables are in play, and what the scoreboard shows of them. With two or more in
play the page is a grid of tiles (``room_state``), each one a table's players, totals, turn, deal
and hand, by match id so that a tile never moves; each table's full board is ``Room.board``. No web
machinery here: the watcher (web.app) asks, a later ``--event`` can hand ``tiles`` its own ids."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from pasur_cli.engine.errors import PasurError
from pasur_cli.store.recent import Changed, last_changes
from pasur_cli.store.tables import RECENT_HOURS
from pasur_cli.web.state import page_state, unreadable

if TYPE_CHECKING:
    from pasur_cli.store.database import Store

IN_PLAY = timedelta(hours=RECENT_HOURS)  # an unfinished match changed within this is in play (as for commands)
LINGER = timedelta(minutes=30)  # a finished match stays on the room's screen this long after its last change
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def in_play(changes: Iterable[Changed], finished: Callable[[int], bool], now: datetime) -> list[int]:
    """The ids of the tables in play at ``now``, by id: unfinished and changed within ``IN_PLAY``,
    or finished within ``LINGER``. ``finished`` is asked only of a match changed within ``IN_PLAY``."""
    return [c.id for c in changes if now - c.at <= LINGER or (now - c.at <= IN_PLAY and not finished(c.id))]


def tile(mid: int, board: dict[str, Any]) -> dict[str, Any]:
    """What a table's tile shows, from its board's state (``page_state``): its sides, totals,
    target, deal, hand, dealer, turn and winner; a board that cannot be read, its sentence."""
    if "error" in board:
        return {"match": mid, "error": board["error"]}
    show, score = board["show"], board["score"]
    return {"match": mid, "sides": score["sides"], "totals": score["totals"], "target": score["target"],
            "deal": show["deal"], "hand": show["hand"], "hands": show["hands"], "dealer": show["dealer"],
            "turn": show["turn"], "winner": show["winner"], "length": show["length"], "table": board.get("table")}


class Room:
    """Each table's board state, kept until its match changes (its ``touched`` counter moves), so
    that a play at one table reads that table alone. One Room follows one file: ``forget`` when
    the path names another."""

    def __init__(self, clock: Clock = utc_now) -> None:
        self.clock = clock
        self.kept: dict[int, tuple[int, dict[str, Any]]] = {}  # match id: (touched, its board's state)
        self.touched: dict[int, int] = {}  # as last read by ``changes``

    def forget(self) -> None:
        self.kept.clear()
        self.touched.clear()

    def changes(self, store: Store) -> list[Changed]:
        """The last change of every match changed within ``IN_PLAY`` (``last_changes``), noted for
        ``board``. Raises the store's errors."""
        read = last_changes(store, self.clock() - IN_PLAY)
        self.touched = {c.id: c.touched for c in read}
        return read

    def board(self, store: Store, mid: int) -> dict[str, Any]:
        """Match ``mid``'s full board (``page_state``), read again only when it changed since."""
        touched = self.touched.get(mid, -1)
        kept = self.kept.get(mid)
        if kept is None or kept[0] != touched or touched < 0:
            kept = (touched, page_state(store, lambda s: s.current(mid)))
            self.kept[mid] = kept
        return kept[1]

    def finished(self, store: Store, mid: int) -> bool:
        board = self.board(store, mid)
        return bool(board.get("show", {}).get("finished"))

    def tables(self, store: Store) -> list[int]:
        """The ids of the tables in play now (``in_play``). Raises the store's errors."""
        changes = self.changes(store)
        alive = {c.id for c in changes}
        for gone in set(self.kept) - alive:  # deleted, or out of the room: not kept
            del self.kept[gone]
        return in_play(changes, lambda mid: self.finished(store, mid), self.clock())

    def tiles(self, store: Store, ids: Iterable[int]) -> dict[str, Any]:
        """The room's state for the tables ``ids``: ``{"room": [tile, ...]}`` in that order."""
        return {"room": [tile(mid, self.board(store, mid)) for mid in ids]}

    def room_state(self, store: Store) -> dict[str, Any]:
        """What the page without ``--match`` shows: with two or more tables in play their tiles;
        with one its board; with none the board of the match the commands would pick (as
        ``page_state``). A file that cannot be read is ``page_state``'s ``{"error": ...}``."""
        try:
            ids = self.tables(store)
        except PasurError as err:
            return {"error": unreadable(err, store.path)}
        if len(ids) >= 2:
            return self.tiles(store, ids)
        if len(ids) == 1:
            return self.board(store, ids[0])
        return page_state(store, lambda s: s.current(None))
