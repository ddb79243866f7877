"""The scoreboard's server: a Starlette app for uvicorn (the ``serve`` extra), read-only.

One watcher thread holds its own read connection to the database and asks SQLite's
``PRAGMA data_version`` (which moves whenever another connection commits) ten times a second; on a
change it reads the page's state once (``state.page_state``) and the ``Hub`` hands it to every
viewer's server-sent event stream. A request never reads the database itself.

Every route is GET (or HEAD): any other method is refused with 405. With a ``token`` (``--lan``)
every address begins with it (``/TOKEN/``, so the page's relative addresses carry it), else 403;
without one the server answers only requests addressed to this computer (127.0.0.1 or localhost),
so a web page elsewhere cannot reach it through a name of its own (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pasur_cli.engine.errors import PasurError
from pasur_cli.engine.reading import N_
from pasur_cli.text import i18n
from pasur_cli.web.state import Chooser, page_state, unreadable

log = logging.getLogger("pasur.serve")
STATIC = Path(__file__).resolve().parent / "static"
POLL = 0.1  # seconds between two looks at PRAGMA data_version (a read of one page of the file header)
KEEP_ALIVE = 15.0  # seconds of quiet after which a stream sends a comment (a dead viewer is noticed)
READ = frozenset({"GET", "HEAD"})
LOCAL = frozenset({"127.0.0.1", "localhost", "[::1]"})
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
    """The latest state and its version; every viewer's stream waits here for a newer one. Lives in
    the event loop's thread: the watcher hands it a state with ``loop.call_soon_threadsafe``."""

    def __init__(self) -> None:
        self.version = 0
        self.payload = "{}"
        self.closed = False
        self._changed = asyncio.Event()
        self.viewers = 0  # streams open now
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, once it runs

    def close_soon(self) -> None:
        """``close`` from any thread (a signal handler's)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.close)

    def publish(self, payload: str) -> None:
        self.version += 1
        self.payload = payload
        self._wake()

    def close(self) -> None:
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def after(self, seen: int) -> tuple[int, str]:
        """The first state newer than version ``seen`` (the latest one: a viewer that fell behind
        skips to it)."""
        while self.version == seen and not self.closed:
            await self._changed.wait()
        return self.version, self.payload


class Watcher(threading.Thread):
    """Follows the database file: one read connection, PRAGMA data_version every ``POLL`` seconds,
    and the file's identity (a file replaced by another is opened again)."""

    def __init__(self, path: str, choose: Chooser, send: Callable[[str], object]) -> None:
        super().__init__(name="pasur-serve-watcher", daemon=True)
        self.path, self.choose, self.send = path, choose, send
        self.stop = threading.Event()
        self.ready = threading.Event()  # set once the first state is sent
        self.changes = 0  # how many states it has sent

    def run(self) -> None:
        from pasur_cli.store.database import Store
        store: Store | None = None
        seen: tuple[object, ...] | None = None
        sent = ""  # the last state sent
        while True:
            try:
                stat = os.stat(self.path)
                identity = (stat.st_dev, stat.st_ino)
                if store is None or seen is None or seen[0] != identity:
                    if store is not None:
                        store.close()
                    store = Store(self.path)
                version = (identity, store.db.execute("PRAGMA data_version").fetchone()[0])
                if version != seen:
                    seen = version
                    payload = dumps(page_state(store, self.choose))
                    if payload != sent:  # another match changed: nothing new for this page
                        sent = payload
                        self.send(payload)
                        self.changes += 1
            except Exception as err:  # the file gone or unreadable (or worse): say so on the page, keep watching
                if not isinstance(err, PasurError | OSError | sqlite3.Error):  # not the file's doing:
                    log.error("reading the database failed", exc_info=err)  # one line on the server's terminal
                said = unreadable(err, self.path)
                if seen != ("gone", said):
                    seen = ("gone", said)
                    sent = dumps({"error": said})
                    self.send(sent)
                if store is not None:
                    store.close()
                    store = None
            self.ready.set()
            if self.stop.wait(POLL):
                break
        if store is not None:
            store.close()


def dumps(data: object) -> str:
    """One line of JSON (an event's data line cannot hold a newline; JSON escapes those in text)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]


def guard(app: ASGI, token: str | None) -> ASGI:
    """Refuse what the scoreboard never does: a method other than GET or HEAD (405), a request
    whose path does not begin with the token (403; the app sees the path after it), or without a
    token a request addressed to another host name (403)."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        refusal: Response | None = None
        if scope["method"] not in READ:
            refusal = PlainTextResponse("read-only: only GET and HEAD\n", 405, headers={"Allow": "GET, HEAD"})
        elif token is not None:
            given, _, rest = scope["path"].removeprefix("/").partition("/")
            if not hmac.compare_digest(given.encode(), token.encode()):
                refusal = PlainTextResponse("forbidden: this address needs its token\n", 403)
            elif not _:  # /TOKEN: the page is /TOKEN/, so that its relative addresses carry the token
                refusal = RedirectResponse(f"/{token}/", 308)
            else:
                scope = {**scope, "path": "/" + rest, "raw_path": ("/" + rest).encode()}
        else:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.lower() not in LOCAL:
                refusal = PlainTextResponse("forbidden: this server answers 127.0.0.1 only\n", 403)
        if refusal is not None:
            refusal.headers.update(HEADERS)
            await refusal(scope, receive, send)
            return

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k.lower().encode(), v.encode()) for k, v in HEADERS.items()
                                        if k.lower().encode() not in have)]
            await send(message)
        await app(scope, receive, with_headers)
    return guarded


def create_app(path: str, choose: Chooser, language: str, token: str | None = None,
               ready: Callable[[], object] = lambda: None) -> tuple[ASGI, Hub]:
    """The scoreboard for the database at ``path``, following the match ``choose`` picks, its
    page in ``language`` unless a viewer asks for another (``?lang=``); and its hub (closed to end
    every stream when the server stops). ``ready`` is called once the first state is read."""
    words = catalogs()
    hub = Hub()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def words_route(request: Request) -> Response:
        code = i18n.code_of(request.query_params.get("lang")) or language
        return JSONResponse(words.get(code, words["en"]))

    async def state_route(request: Request) -> Response:
        return Response(hub.payload, media_type="application/json; charset=utf-8",
                        headers={"X-Pasur-Version": str(hub.version)})

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            seen = -1  # a viewer that comes back (EventSource's Last-Event-ID) is sent the latest state
            hub.viewers += 1
            try:
                yield "retry: 1000\n\n"
                while not hub.closed:
                    try:
                        seen, payload = await asyncio.wait_for(hub.after(seen), KEEP_ALIVE)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    if hub.closed:
                        break
                    yield f"id: {seen}\nevent: state\ndata: {payload}\n\n"
            finally:
                hub.viewers -= 1
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"X-Accel-Buffering": "no"})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = hub.loop = asyncio.get_running_loop()
        watcher = Watcher(path, choose, lambda payload: loop.call_soon_threadsafe(hub.publish, payload))
        watcher.start()
        await asyncio.to_thread(watcher.ready.wait, 30)  # the first state, before the first request is answered
        ready()
        try:
            yield
        finally:
            hub.close()
            watcher.stop.set()
            await asyncio.to_thread(watcher.join)

    app = Starlette(routes=[
        Route("/", index, methods=["GET", "HEAD"]),
        Route("/words", words_route, methods=["GET", "HEAD"]),
        Route("/state", state_route, methods=["GET", "HEAD"]),
        Route("/events", events, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
    return guard(app, token), hub
