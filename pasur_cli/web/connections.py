"""How many connections the scoreboard holds, and for how long (the ``serve`` extra: uvicorn's h11).

uvicorn times out only a keep-alive connection after an answer (``timeout_keep_alive``): a
connection that never sends a whole request is held for ever, and its ``limit_concurrency`` counts
such idle connections too (a flood of them would have it answer 503 to the real viewer) while
accepting every one (asyncio's accept then fails at the open-file limit, logging a traceback per
try). So each connection here (``Door``, uvicorn's h11 protocol) has ``HEADER_TIMEOUT`` seconds to
send a whole request, from connecting or from its last answer (a keep-alive connection that
stays quiet after its answer is closed then too, as uvicorn would, and not said); and the ``Gate`` keeps at most
``bound`` open, below the open-file limit: a connection over it closes the oldest one still
waiting for its request (as nginx reuses idle connections when it has none free), or, when every
one is busy (a viewer's event stream is never cut), is itself closed. What was closed is said on
stderr in at most one line of each kind every ``REPORT`` seconds.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from pasur_cli.text.i18n import ngettext

HEADER_TIMEOUT = 5.0  # seconds a connection has to send a whole request
KEEP_ALIVE = 5.0  # seconds an idle keep-alive connection is kept after an answer (uvicorn's timeout_keep_alive)
SPARE = 64  # open files kept for all but connections: the database, the page's files, the event loop's own
MOST_FILES = 65536  # the soft open-file limit is raised toward the hard one, up to this
REPORT = 10.0  # seconds between two lines of one kind on stderr

log = logging.getLogger("pasur.serve")


@dataclass(frozen=True)
class Plan:
    """What an open-file limit of ``files`` allows: the listening socket's ``backlog`` (also how
    many connections one turn of the event loop may accept before any is counted) and the
    ``bound`` on connections held open, so that both together leave ``SPARE`` files free."""

    files: int
    backlog: int
    bound: int

    @classmethod
    def of(cls, files: int) -> Plan:
        """The plan for a limit of ``files`` open files.

        >>> Plan.of(1024)
        Plan(files=1024, backlog=120, bound=840)
        """
        backlog = max(1, min(128, (files - SPARE) // 8))
        return cls(files, backlog, max(1, files - SPARE - backlog))


def raise_open_files() -> int:
    """Raise this process's soft open-file limit toward its hard limit (up to ``MOST_FILES``;
    unchanged where the system refuses); the soft limit now (``MOST_FILES`` where unlimited, and
    a modest guess where the system has no such limit)."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    infinite = resource.RLIM_INFINITY
    want = MOST_FILES if hard == infinite else min(hard, MOST_FILES)
    if soft != infinite and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return MOST_FILES if soft == infinite else int(soft)


class Gate:
    """The connections open now (at most ``bound``), those of them waiting for a whole request
    (oldest first), and what was closed since it was last said. Lives in the event loop's thread."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.open: set[Door] = set()
        self.waiting: dict[Door, None] = {}  # a dict keeps the order they began to wait in
        self.late = self.evicted = self.refused = 0  # closed since last said, by kind
        self.report: asyncio.TimerHandle | None = None

    def admit(self, door: Door) -> bool:
        """Count ``door`` in, closing the oldest waiting connection if the bound is reached;
        whether it may stay (not when every open connection is busy)."""
        if len(self.open) >= self.bound:
            oldest = next(iter(self.waiting), None)
            if oldest is None:
                self.refused += 1
                self.noted()
                return False
            oldest.shut()
            self.evicted += 1
            self.noted()
        self.open.add(door)
        return True

    def forget(self, door: Door) -> None:
        """``door`` is closed (or closing): it no longer counts."""
        self.open.discard(door)
        self.waiting.pop(door, None)

    def noted(self) -> None:
        """Something was closed: say it within ``REPORT`` seconds (with whatever follows)."""
        if self.report is None:
            self.report = asyncio.get_running_loop().call_later(REPORT, self.say)

    def say(self) -> None:
        """One line on stderr for each kind of closing since the last time, then none until more."""
        self.report = None
        lines = [
            (self.late, ngettext("Closed {count} connection that sent no whole request within {seconds}"
                                 " seconds.", "Closed {count} connections that sent no whole request within"
                                 " {seconds} seconds.", self.late)),
            (self.evicted, ngettext("Closed {count} waiting connection to make room (at most {bound} are"
                                    " kept open).", "Closed {count} waiting connections to make room (at most"
                                    " {bound} are kept open).", self.evicted)),
            (self.refused, ngettext("Refused {count} connection: {bound} were open, none of them waiting.",
                                    "Refused {count} connections: {bound} were open, none of them waiting.",
                                    self.refused)),
        ]
        for count, line in lines:
            if count:
                log.warning(line.format(count=count, seconds=f"{HEADER_TIMEOUT:g}", bound=self.bound))
        self.late = self.evicted = self.refused = 0


def door(gate: Gate) -> type[Door]:
    """The protocol class uvicorn makes each connection with, counted by ``gate``."""
    return type("GatedDoor", (Door,), {"gate": gate})


class Door(H11Protocol):
    """uvicorn's h11 protocol, counted by its class's ``gate``, closed when it has not sent a
    whole request ``HEADER_TIMEOUT`` seconds after connecting or after its last answer."""

    gate: Gate

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline: asyncio.TimerHandle | None = None
        self.answered = False  # a request of it was answered (it may wait for its next one, quietly)
        self.heard = False  # it sent something since it began to wait
        self.admitted = self.gate.admit(self)  # made when accepted: counted before the next accept

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.admitted:
            transport.close()
            return
        self.await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_waiting()
        self.gate.forget(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.heard = True
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is h11.DONE:  # a whole request: it is answered now, however long it takes
            self.stop_waiting()

    def on_response_complete(self) -> None:
        self.answered = True
        if not self.transport.is_closing():
            self.await_request()  # before uvicorn reads a request sent meanwhile (that one stops the wait)
        super().on_response_complete()

    def await_request(self) -> None:
        """Start the clock: a whole request within ``HEADER_TIMEOUT`` seconds, or closed."""
        self.stop_waiting()
        self.heard = False
        self.gate.waiting[self] = None
        self.deadline = self.loop.call_later(HEADER_TIMEOUT, self.too_late)

    def stop_waiting(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.gate.waiting.pop(self, None)

    def too_late(self) -> None:
        """Close it; say so unless it was a keep-alive connection that merely went quiet after its answer."""
        self.deadline = None
        if self.heard or not self.answered:
            self.gate.late += 1
            self.gate.noted()
        self.shut()

    def shut(self) -> None:
        """Close the connection now (it no longer counts, though its file closes a moment later)."""
        self.stop_waiting()
        self.gate.forget(self)
        self.transport.close()
