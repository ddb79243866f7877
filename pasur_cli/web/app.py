"""The scoreboard's server: a Starlette app for uvicorn (the ``serve`` extra), read-only.

One watcher thread holds its own read connection to the database and asks SQLite's
``PRAGMA data_version`` (which moves whenever another connection commits) ten times a second; on a
change it reads the page's state once (``state.page_state``) and the ``Hub`` hands it to every
viewer's server-sent event stream. A request never reads the database itself.

Every route is GET (or HEAD): any other method is refused with 405 (``ReadOnly``, which also gives
every answer its security headers). With a ``token`` (``--lan``) every address begins with it
(``/TOKEN/``, so the page's relative addresses carry it), else 403; without one Starlette's
``TrustedHostMiddleware`` answers only requests addressed to this computer (127.0.0.1 or
localhost), so a web page elsewhere cannot reach it through a name of its own (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from pasur_cli.engine.errors import PasurError
from pasur_cli.engine.reading import N_
from pasur_cli.text import i18n
from pasur_cli.web.event import event_state
from pasur_cli.web.room import Room
from pasur_cli.web.state import unreadable

if TYPE_CHECKING:
    from pasur_cli.store.database import Store

log = logging.getLogger("pasur.serve")
STATIC = Path(__file__).resolve().parent / "static"
POLL = 0.1  # seconds between two looks at PRAGMA data_version (a read of one page of the file header)
LARGEST = 2**63 - 1  # a match id SQLite can hold: a larger one in an address asks for no match
FIRST = 5.0  # seconds a board's /state waits for its first reading
KEEP_ALIVE = 15.0  # seconds of quiet after which a stream sends a comment (a dead viewer is noticed)
READ = ["GET", "HEAD"]
LOCAL = ["127.0.0.1", "localhost", "[::1]"]
ROOM = "room"  # the page at the root: the room, or the match --match names
Key = str | int  # a page: ROOM, or a match id (its board at /match/ID/)
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
                               " frame-ancestors 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the token never leaves in a Referer
    "Cache-Control": "no-store",
}

# The page's words, translated through pasur's catalogs; the page fills each {field} with text
# (textContent), never markup.
WORDS = {
    "title": N_("Pasur scoreboard"),
    "match": N_("Match {id}"),
    "match_table": N_("Match {id}, table {table}"),
    "target": N_("target {target}"),
    "won": N_("{winner} won the match"),
    "deal_hand": N_("Deal {number}, hand {hand} of {hands}"),
    "awaiting": N_("Deal {number}: {dealer} deals; the table is awaited"),
    "to_play": N_("{player} to play"),
    "left": N_("cards left in hand"),
    "table": N_("Table"),
    "empty": N_("empty"),
    "race": N_("The deal's race"),
    "clubs": N_("Clubs"),
    "surs": N_("Surs"),
    "now": N_("If the deal ended now"),
    "pile": N_("Cards taken"),
    "on_table": N_("on the table"),
    "not_seen": N_("not seen yet"),
    "last": N_("Last play"),
    "played": N_("{player} played {card}"),
    "took": N_("{player} played {card} and took {cards}"),
    "sur": N_("Sur!"),
    "deals": N_("Deals so far"),
    "deal": N_("Deal"),
    "tallied": N_("tallied"),
    "playing": N_("being played"),
    "total": N_("Total"),
    "chart": N_("Running totals"),
    "offline": N_("Connection lost; reconnecting…"),
    "cards": N_("Cards unseen: {n}"),
    "room": N_("All tables"),
    "breakdown": N_("How deal {number} was scored"),
    "aces": N_("Aces"),
    "jacks": N_("Jacks"),
    "points": N_("Points"),
    "earlier": N_("Earlier deals (in the chart): {count}"),
    # the event's page (--event): the standings' headings are those of `pasur event standings`
    "event_round": N_("{event}, round {round} of {rounds}"),
    "event_unpaired": N_("{event}: no round paired yet"),
    "standings": N_("Standings"),
    "tables": N_("Tables of the round"),
    "rank": N_("Rank"),
    "entrant": N_("Entrant"),
    "played_count": N_("Played"),
    "wins": N_("Wins"),
    "byes": N_("Byes"),
    "buchholz": N_("Buchholz"),
    "difference": N_("Difference"),
    "scored": N_("Points"),
    "head_to_head": N_("Head to head"),
    "dropped": N_("{name} (dropped)"),
    "beat": N_("beat {name}"),
    "bye": N_("Bye: {name} (a win with no points difference)."),
    "event_table": N_("Table {table}: {first} against {second}"),
    "on_paper": N_("Given on paper: {first} {score} {second}"),
}


def catalogs() -> dict[str, dict[str, Any]]:
    """The page's words in every language, with each language's writing direction. Reads the
    compiled catalogs once (it sets the language in turn, then puts the chosen one back)."""
    chosen = i18n.language()
    out: dict[str, dict[str, Any]] = {}
    try:
        for code in i18n.LANGUAGES:
            used = i18n.set_language(code)
            out[code] = {"lang": used, "dir": "rtl" if used in i18n.RIGHT_TO_LEFT else "ltr",
                         "words": {key: i18n._(text) for key, text in WORDS.items()}}
    finally:
        i18n.set_language(chosen)
    return out


class Hub:
    """The latest state of each page and its version; every viewer's stream waits here for a
    newer one. The page at the root is ``ROOM``'s, a table's board at ``/match/ID/`` is ID's (kept
    while a viewer watches it: ``wanted``). Lives in the event loop's thread: the watcher hands it
    states with ``loop.call_soon_threadsafe``."""

    def __init__(self) -> None:
        self.count = 0  # states published so far: each state's version (a stream's event id)
        self.pages: dict[Key, tuple[int, str]] = {}  # page: (version, state)
        self.closed = False
        self._changed = asyncio.Event()
        self.viewers = 0  # streams open now
        self.watching: dict[int, int] = {}  # match id: how many viewers wait on its board
        self.wanted: frozenset[int] = frozenset()  # the boards the watcher reads (read from its thread)
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, once it runs

    def close_soon(self) -> None:
        """``close`` from any thread (a signal handler's)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.close)

    def publish(self, states: dict[Key, str | None]) -> None:
        """Each page's new state (None: the page is no longer read)."""
        for key, payload in states.items():
            if payload is None:
                self.pages.pop(key, None)
            else:
                self.count += 1
                self.pages[key] = (self.count, payload)
        self._wake()

    def latest(self, key: Key) -> tuple[int, str]:
        """The page's version and state; (0, "{}") before its first."""
        return self.pages.get(key, (0, "{}"))

    def watch(self, mid: int, step: int = 1) -> None:
        """One viewer more (``step`` -1: fewer) on match ``mid``'s board."""
        self.watching[mid] = self.watching.get(mid, 0) + step
        if self.watching[mid] <= 0:
            del self.watching[mid]
        self.wanted = frozenset(self.watching)

    def close(self) -> None:
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def first(self, mid: int) -> None:
        """Until match ``mid``'s board has a state (read while this waits; at most ``FIRST`` seconds)."""
        self.watch(mid)
        try:
            await asyncio.wait_for(self.after(mid, 0), FIRST)
        except TimeoutError:
            pass
        finally:
            self.watch(mid, -1)

    async def stream(self, key: Key) -> AsyncIterator[str]:
        """A viewer's server-sent events: the page's latest state at once, then each newer one;
        a comment after ``KEEP_ALIVE`` seconds of quiet; the end when the hub closes."""
        seen = 0  # a viewer that comes back (EventSource's Last-Event-ID) is sent the latest state
        self.viewers += 1
        if isinstance(key, int):
            self.watch(key)
        try:
            yield "retry: 1000\n\n"
            while not self.closed:
                try:
                    seen, payload = await asyncio.wait_for(self.after(key, seen), KEEP_ALIVE)
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                if self.closed:
                    break
                yield f"id: {seen}\nevent: state\ndata: {payload}\n\n"
        finally:
            self.viewers -= 1
            if isinstance(key, int):
                self.watch(key, -1)

    async def after(self, key: Key, seen: int) -> tuple[int, str]:
        """The page's first state newer than version ``seen`` (the latest one: a viewer that fell
        behind skips to it)."""
        while self.latest(key)[0] in (seen, 0) and not self.closed:
            await self._changed.wait()
        return self.latest(key)


class Watcher(threading.Thread):
    """Follows the database file: one read connection, PRAGMA data_version every ``POLL`` seconds,
    the file's identity (a file replaced by another is opened again), the minute (a table leaves
    the room after a while without a change) and the boards viewers watch (``wanted()``)."""

    def __init__(self, path: str, chosen: int | None, send: Callable[[dict[Key, str | None]], object],
                 wanted: Callable[[], frozenset[int]] = frozenset, event: str | None = None) -> None:
        super().__init__(name="pasur-serve-watcher", daemon=True)
        self.path, self.chosen, self.send, self.wanted, self.event = path, chosen, send, wanted, event
        self.room = Room()
        self.stop = threading.Event()
        self.ready = threading.Event()  # set once the first state is sent
        self.changes = 0  # how many times it has sent states
        self.seen: tuple[object, ...] | None = None  # the file's identity and data_version last read, ...
        self.sent: dict[Key, str] = {}  # the last state sent of each page

    def run(self) -> None:
        """Look at the file every ``POLL`` seconds until ``stop`` is set."""
        store: Store | None = None
        try:
            while True:
                store = self.look(store)
                self.ready.set()
                if self.stop.wait(POLL):
                    break
        finally:
            if store is not None:
                store.close()

    def look(self, store: Store | None) -> Store | None:
        """One look: on a change of the file (or of the file at the path) its pages' states are
        read and each sent when it differs from the last one sent; a file that cannot be read is
        said on every page instead (once), and ``store`` closed. The store to look through next time."""
        wanted = self.wanted()
        try:
            return self.follow(store, wanted)
        except Exception as err:  # the file gone or unreadable (or worse): say so on the page, keep watching
            if not isinstance(err, PasurError | OSError | sqlite3.Error):  # not the file's doing:
                log.error("reading the database failed", exc_info=err)  # one line on the server's terminal
            said = unreadable(err, self.path)
            if self.seen != ("gone", said, wanted):
                self.seen = ("gone", said, wanted)
                self.deliver(dict.fromkeys([ROOM, *wanted], dumps({"error": said})))
            if store is not None:
                store.close()
            return None

    def follow(self, store: Store | None, wanted: frozenset[int]) -> Store:
        """``look`` at a readable file: the store it is read through (opened again when the path
        names another file now). Raises what opening or reading it raises."""
        from pasur_cli.store.database import Store
        stat = os.stat(self.path)
        identity = (stat.st_dev, stat.st_ino)
        if store is None or self.seen is None or self.seen[0] != identity:
            if store is not None:
                store.close()
            store = Store(self.path)
            self.room.forget()
        version = (identity, store.db.execute("PRAGMA data_version").fetchone()[0], int(time.time() // 60), wanted)
        if version != self.seen:
            self.seen = version
            self.deliver(self.states(store, wanted))
        return store

    def states(self, store: Store, wanted: frozenset[int]) -> dict[Key, str]:
        """Each page's state: the root's (the ``event``'s page, the room, or the ``chosen``
        match's board) and the ``wanted`` boards'. Raises the store's errors."""
        if self.event is not None:
            root = event_state(self.room, store, self.event)
        elif self.chosen is None:
            root = self.room.room_state(store)
        else:
            self.room.changes(store)
            root = self.room.board(store, self.chosen)
        states: dict[Key, str] = {ROOM: dumps(root)}
        for mid in sorted(wanted):
            states[mid] = dumps(self.room.board(store, mid))
        return states

    def deliver(self, states: dict[Key, str]) -> None:
        """Send the pages whose state differs from the one last sent, and the end of those no
        longer read (another match changed: often nothing new for any page)."""
        news: dict[Key, str | None] = {key: None for key in self.sent if key not in states}
        news.update((key, payload) for key, payload in states.items() if self.sent.get(key) != payload)
        if news:
            self.sent = dict(states)
            self.send(news)
            self.changes += 1


def dumps(data: object) -> str:
    """One line of JSON (an event's data line cannot hold a newline; JSON escapes those in text)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class ReadOnly(BaseHTTPMiddleware):
    """Refuses what the scoreboard never does: a method other than GET or HEAD (405), and with a
    ``token`` a request whose path does not begin with it (403; compared in constant time). Every
    answer, a refusal too, gets the ``HEADERS`` it does not set itself."""

    def __init__(self, app: ASGIApp, token: str | None = None) -> None:
        super().__init__(app)
        self.token = token

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        """The refusal of ``request``, or the app's answer; with the headers."""
        response = self.refusal(request) or await call_next(request)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    def refusal(self, request: Request) -> Response | None:
        """The answer to a request the scoreboard refuses; None for any other."""
        if request.method not in READ:
            return PlainTextResponse("read-only: only GET and HEAD\n", 405, headers={"Allow": ", ".join(READ)})
        if self.token is None:
            return None
        given = request.scope["path"].removeprefix("/").partition("/")[0]
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return PlainTextResponse("forbidden: this address needs its token\n", 403)
        return None


def guards(token: str | None) -> list[Middleware]:
    """The scoreboard's checks, outermost first: ``ReadOnly``, and without a token Starlette's
    ``TrustedHostMiddleware`` for this computer's names (its refusal: 400, "Invalid host header")."""
    kept = [Middleware(ReadOnly, token=token)]
    if token is None:
        kept.append(Middleware(TrustedHostMiddleware, allowed_hosts=LOCAL, www_redirect=False))
    return kept


def under(token: str | None, routes: list[BaseRoute]) -> list[BaseRoute]:
    """``routes`` at the root, or with a token under ``/TOKEN/`` (``/TOKEN`` itself is sent there,
    so that the page's relative addresses carry the token)."""
    if token is None:
        return routes

    async def to_page(request: Request) -> Response:
        return RedirectResponse(f"/{token}/", 308)
    return [Route(f"/{token}", to_page, methods=READ), Mount(f"/{token}", routes=routes)]


def create_app(path: str, chosen: int | None, language: str, token: str | None = None,
               ready: Callable[[], object] = lambda: None, event: str | None = None) -> tuple[Starlette, Hub]:
    """The scoreboard for the database at ``path``: at its root the room (``Room.room_state``), or
    with ``chosen`` that match's board, or with ``event`` that event's page (``event_state``); at
    ``/match/ID/`` match ID's board (the same page, a TV per table). In ``language`` unless a viewer
    asks for another (``?lang=``); and its hub (closed to end every stream when the server stops).
    ``ready`` is called once the first state is read."""
    words = catalogs()
    hub = Hub()

    def page(request: Request) -> Key:
        """The page a request is for: ROOM, or the match id of a board's address."""
        mid = request.path_params.get("mid")
        return ROOM if mid is None else min(int(mid), LARGEST)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def words_route(request: Request) -> Response:
        code = i18n.code_of(request.query_params.get("lang")) or language
        return JSONResponse(words.get(code, words["en"]))

    async def state_route(request: Request) -> Response:
        key = page(request)
        if isinstance(key, int):
            await hub.first(key)
        version, payload = hub.latest(key)
        return Response(payload, media_type="application/json; charset=utf-8",
                        headers={"X-Pasur-Version": str(version)})

    async def events(request: Request) -> Response:
        return StreamingResponse(hub.stream(page(request)), media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = hub.loop = asyncio.get_running_loop()
        watcher = Watcher(path, chosen, lambda states: loop.call_soon_threadsafe(hub.publish, states),
                          lambda: hub.wanted, event)
        watcher.start()
        await asyncio.to_thread(watcher.ready.wait, 30)  # the first state, before the first request is answered
        ready()
        try:
            yield
        finally:
            hub.close()
            watcher.stop.set()
            await asyncio.to_thread(watcher.join)

    board: list[BaseRoute] = [
        Route("/", index, methods=READ),
        Route("/words", words_route, methods=READ),
        Route("/state", state_route, methods=READ),
        Route("/events", events, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    routes = [*board, Mount("/match/{mid:int}", routes=board)]
    return Starlette(routes=under(token, routes), middleware=guards(token), lifespan=lifespan), hub
