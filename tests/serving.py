"""`pasur serve` in a process of its own, for the scoreboard's tests and bench/serve_load.py: started
on a free port, its address read from what it prints (pexpect), stopped with Ctrl-C."""

from __future__ import annotations

import http.client
import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pexpect


@contextmanager
def served(db: os.PathLike[str] | str, *args: str, env: dict[str, str] | None = None) -> Iterator[Server]:
    """`pasur serve --port 0 ARGS` on database ``db``; yields its Server; Ctrl-C when done (and
    checks that it ended)."""
    child = pexpect.spawn(sys.executable, ["-m", "pasur_cli", "--db", str(db), "serve", "--port", "0", *args],
                          env={**os.environ, "PASUR_LANG": "en", **(env or {})}, encoding="utf-8", timeout=60,
                          dimensions=(60, 200))
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
        child.close()
    assert child.exitstatus == 0, (child.exitstatus, child.signalstatus)  # Ctrl-C is how it stops


class Server:
    """A running scoreboard: its printed address (with its token, if any) and banner."""

    def __init__(self, url: str, banner: str) -> None:
        self.url, self.banner = url, banner
        self.pid = 0  # the server process's id
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

    def state(self) -> dict[str, object]:
        status, _, body = self.request("GET", "/state")
        assert status == 200
        return json.loads(body)  # type: ignore[no-any-return]

    @contextmanager
    def events(self) -> Iterator[Events]:
        """The event stream, as a viewer's browser reads it."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", self.path("/events"))
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
