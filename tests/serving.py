"""`pasur serve` in a process of its own, for the scoreboard's tests and bench/serve_load.py: started
on a free port, its address read from what it prints (pexpect), stopped with Ctrl-C. And a flood of
idle connections to it (``Flood``), loopback only."""

from __future__ import annotations

import errno
import http.client
import json
import os
import re
import resource
import selectors
import shlex
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from urllib.parse import urlsplit

import pexpect


@contextmanager
def served(db: os.PathLike[str] | str, *args: str, env: dict[str, str] | None = None,
           files: int | None = None, stderr: os.PathLike[str] | str | None = None) -> Iterator[Server]:
    """`pasur serve --port 0 ARGS` on database ``db``; yields its Server; Ctrl-C when done (and
    checks that it ended). ``files``: the server's open-file limit, soft and hard (as `ulimit -n`
    sets both; the server may raise only its soft one, up to the hard one); ``stderr``: a file its
    standard error goes to (else the terminal's, with its output)."""
    command = [sys.executable, "-m", "pasur_cli", "--db", str(db), "serve", "--port", "0", *args]
    if stderr is not None:  # through a shell that redirects and then becomes the server (exec: the same pid)
        command = ["/bin/sh", "-c", f"exec {shlex.join(command)} 2>{shlex.quote(str(stderr))}"]

    def limit() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
    child = pexpect.spawn(command[0], command[1:], env={**os.environ, "PASUR_LANG": "en", **(env or {})},
                          encoding="utf-8", timeout=60, dimensions=(60, 200), preexec_fn=limit)
    server: Server | None = None
    try:
        child.expect("Ctrl-C")  # the banner's last line: it is served
        banner = child.before
        url = re.search(r"http://\S+", banner).group(0)  # type: ignore[union-attr]
        server = Server(url, banner)
        server.pid = child.pid
        yield server
    finally:
        child.sendintr()
        child.expect(pexpect.EOF, timeout=30)
        if server is not None:
            server.said = child.before.split("\n", 1)[-1]  # what it wrote after the banner's last line
        child.close()
    assert child.exitstatus == 0, (child.exitstatus, child.signalstatus)  # Ctrl-C is how it stops


class Server:
    """A running scoreboard: its printed address (with its token, if any) and banner."""

    def __init__(self, url: str, banner: str) -> None:
        self.url, self.banner = url, banner
        self.pid = 0  # the server process's id
        self.said = ""  # what it wrote to the terminal after its banner (known once it stopped)
        parts = urlsplit(url)
        self.port = parts.port or 80
        self.prefix = parts.path.rstrip("/")  # "/TOKEN" under --lan, else ""

    def path(self, path: str, query: str = "", prefix: str | None = None) -> str:
        return (self.prefix if prefix is None else prefix) + path + (f"?{query}" if query else "")

    def request(self, method: str, path: str, query: str = "", headers: dict[str, str] | None = None,
                prefix: str | None = None) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body) of one request over loopback (under the token's prefix unless
        ``prefix`` says another)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, self.path(path, query, prefix), headers=headers or {})
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def open_files(self) -> int:
        """How many files (sockets included) the server process holds open now."""
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def load_page(self) -> float:
        """Seconds a browser's first visit takes: the page, its script and style, its words and
        the state, each on a connection of its own, and the first state on the event stream."""
        start = time.monotonic()
        for path in ("/", "/static/app.js", "/static/style.css", "/words", "/state"):
            status, _, _ = self.request("GET", path)
            assert status == 200, (path, status)
        with self.events() as stream:
            stream.next()
        return time.monotonic() - start

    def state(self) -> dict[str, object]:
        status, _, body = self.request("GET", "/state")
        assert status == 200
        return json.loads(body)  # type: ignore[no-any-return]

    @contextmanager
    def events(self, page: str = "") -> Iterator[Events]:
        """The event stream of the page at ``page`` (the root's, or a board's: /match/ID), as a
        viewer's browser reads it."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", self.path(page + "/events"))
            response = conn.getresponse()
            assert response.status == 200, response.status
            assert response.getheader("content-type", "").startswith("text/event-stream")
            yield Events(response)
        finally:
            conn.close()


class Events:
    """One viewer's stream of states."""

    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.response = response

    def next(self) -> tuple[int, dict[str, object]]:
        """(id, state) of the next state event (waits for it; the socket's timeout bounds the wait)."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline().decode("utf-8")
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\r\n")
            if not line:
                if fields.get("event") == "state":
                    return int(fields["id"]), json.loads(fields["data"])
                fields = {}
                continue
            match = re.match(r"([a-z]+): ?(.*)", line)
            if match:
                fields[match.group(1)] = match.group(2)


def enough_files(count: int) -> bool:
    """Raise this process's soft open-file limit to hold ``count`` more sockets, where the hard
    limit allows; whether it now does."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = count + 256
    if soft != resource.RLIM_INFINITY and soft < want and (hard == resource.RLIM_INFINITY or hard >= want):
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        soft = want
    return soft == resource.RLIM_INFINITY or soft >= want


BATCH = 16  # connections a flood opens at once


class Flood:
    """``count`` TCP connections to 127.0.0.1:``port`` that send ``send`` (nothing: idle; half a
    request: half-sent) and then nothing more. Opened at once (non-blocking connects), held; with
    ``reopen``, a thread looks every ``every`` seconds for those the server closed and opens each
    again, so that ``count`` are always trying to be open (for as long as the flood lasts)."""

    def __init__(self, port: int, count: int, send: bytes = b"", reopen: bool = True, every: float = 0.5) -> None:
        self.port, self.count, self.send, self.reopen, self.every = port, count, send, reopen, every
        self.selector = selectors.DefaultSelector()
        self.opened = 0  # connections opened (the first ones and every reopening)
        self.closed = 0  # connections the server closed (or refused)
        self.most = 0  # the most connections held open at one moment, as far as this side knows
        self.stop = threading.Event()
        self.lock = threading.Lock()  # the selector, between the watching thread and ``held``
        self.thread = threading.Thread(target=self._watch, name="flood", daemon=True)

    def __enter__(self) -> Flood:
        self._open(self.count)
        self.settle(10)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(10)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()

    def _open(self, count: int) -> None:
        """Open ``count`` connections, ``BATCH`` at a time: a burst faster than the server accepts
        would overflow its listening queue, and the kernel's SYN cookies then make connections
        that only this side sees (until they send something)."""
        for n in range(count):
            if n and n % BATCH == 0:
                time.sleep(0.01)
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            code = sock.connect_ex(("127.0.0.1", self.port))
            if code not in (0, errno.EINPROGRESS):
                sock.close()
                self.closed += 1
                continue
            self.selector.register(sock, selectors.EVENT_WRITE, "connecting")
            self.opened += 1

    def held(self) -> int:
        """How many are connected and not known to be closed."""
        with self.lock:
            return sum(key.data == "open" for key in self.selector.get_map().values())

    def settle(self, seconds: float) -> None:
        """Wait (at most ``seconds``) until no connection is still being made (and, without
        ``reopen``, none has news for 0.2 s); note those the server closed (reopening them with
        ``reopen``: then the server may close others meanwhile, and they are looked at later)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                busy = self._sweep(min(0.2, max(0.0, deadline - time.monotonic())))
            if not busy:
                break

    def _sweep(self, wait: float) -> bool:
        """One look at every socket: connected ones get ``send``, closed ones are dropped (and
        reopened). Whether any is still connecting, or (without ``reopen``) any had news."""
        lost = 0
        events = self.selector.select(wait)
        for key, _ in events:
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            if key.data == "connecting":
                if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                    with suppress(OSError):
                        sock.send(self.send)
                    self.selector.modify(sock, selectors.EVENT_READ, "open")
                    continue
            else:
                try:
                    if sock.recv(4096):
                        continue  # an answer (a refusal's 503): the close follows
                except BlockingIOError:
                    continue
                except OSError:
                    pass
            self.selector.unregister(sock)
            sock.close()
            self.closed += 1
            lost += 1
        if self.reopen and not self.stop.is_set():
            self._open(lost)
        keys = self.selector.get_map().values()
        self.most = max(self.most, sum(key.data == "open" for key in keys))
        return (bool(events) and not self.reopen) or any(key.data == "connecting" for key in keys)

    def _watch(self) -> None:
        while not self.stop.wait(self.every):
            with self.lock:
                self._sweep(0)
