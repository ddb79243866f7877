"""`pasur serve`'s answers, without a browser: the page's data is the commands' JSON, pushed to
every viewer on a change; nothing is written; --lan needs its token; stored text stays text.
(The page itself, in Chromium: tests/test_serve_browser.py.)"""

import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from serving import Flood, enough_files, served  # tests/ is on the path, as for matchbook

from pasur_cli.web.connections import HEADER_TIMEOUT, REPORT, Plan

STATIC = Path(__file__).resolve().parent.parent / "pasur_cli" / "web" / "static"
PATHS = ["/", "/state", "/events", "/words", "/static/app.js", "/static/style.css", "/nothing"]


NAME = "<script>alert(1)</script>"


def cli(db, *args):
    """`pasur --db DB ARGS` in-process; its output."""
    from click.testing import CliRunner

    from pasur_cli.cli.app import main
    result = CliRunner().invoke(main, ["--db", str(db), *args], env={"PASUR_LANG": "en"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    """One server for the tests that only read: a match of NAME against Sara, a play made."""
    db = tmp_path_factory.mktemp("shown") / "pasur.db"
    cli(db, "new", NAME, "Sara")
    cli(db, "deal", "5C", "9D", "3H", "KS")
    cli(db, "play", "9S")
    with served(db) as server:
        yield server, db


@pytest.fixture
def playing(pasur, db):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    return db


def test_the_state_is_what_show_and_score_print(shown):
    server, db = shown
    state = server.state()
    assert state["show"] == json.loads(cli(db, "show", "--json"))
    assert state["score"] == json.loads(cli(db, "score", "--json"))
    assert state["last"] == json.loads(cli(db, "log", "--json"))[-1]
    assert state["last"]["play"]["card"] == "9S"


def test_show_json_has_the_race_the_page_shows(pasur, playing):
    pasur("play", "4C")  # a trail: 4 makes 11 with nothing on 5C 9D 3H KS
    pasur("play", "JD")  # the jack takes all but the king: a point for Ali if the deal ended now
    show = json.loads(pasur("show", "--json").output)
    assert show["cards_left"] == {"Sara": 3, "Ali": 3}
    race = pasur("show").output.split("If the deal ended now: ")[1]
    assert show["if_ended_now"]["Ali"] > 0
    for side, points in show["if_ended_now"].items():
        assert f"{side} {points}" in race


def test_a_play_and_its_undo_reach_every_viewer(pasur, playing):
    with served(playing) as server, server.events() as one, server.events() as two:
        first = [one.next(), two.next()]
        assert [state["show"]["length"] for _, state in first] == [1, 1]
        pasur("play", "9S")
        after = [one.next(), two.next()]
        assert [state["show"]["length"] for _, state in after] == [2, 2]
        assert after[0][0] > first[0][0]  # the event ids go up: what EventSource sends back on reconnecting
        assert after[0][1]["last"]["play"]["card"] == "9S"
        pasur("undo")
        back = [one.next(), two.next()]
        before = {k: v for k, v in first[0][1]["show"].items() if k != "revision"}
        assert [{k: v for k, v in state["show"].items() if k != "revision"} for _, state in back] == [before] * 2
        assert back[0][1]["show"]["revision"] != first[0][1]["show"]["revision"]  # an undo is a new revision


def test_match_shows_one_match_while_another_is_played(pasur, playing):
    pasur("new", "Reza", "Mina")
    with served(playing, "--match", "1") as server, server.events() as viewer:
        assert viewer.next()[1]["show"]["match"] == 1
        pasur("deal", "5C", "9D", "3H", "KS", "--match", "2")
        pasur("play", "9S", "--match", "1")
        _, state = viewer.next()
        assert (state["show"]["match"], state["show"]["length"]) == (1, 2)


def test_a_viewer_coming_back_gets_the_latest_state(pasur, playing):
    with served(playing) as server:
        with server.events() as viewer:
            viewer.next()
        pasur("play", "9S")
        with server.events() as again:
            _, state = again.next()
            while state["show"]["length"] != 2:  # the watcher may not have seen the play yet
                _, state = again.next()
        assert state["last"]["play"]["card"] == "9S"


def test_it_follows_a_new_match_and_a_new_file(pasur, playing):
    with served(playing) as server, server.events() as viewer:
        assert viewer.next()[1]["show"]["match"] == 1
        pasur("new", "Reza", "Mina")
        _, state = viewer.next()  # two tables in play: the room
        assert [t["sides"] for t in state["room"]] == [["Ali", "Sara"], ["Reza", "Mina"]]
        playing.unlink()
        _, state = viewer.next()
        assert state["error"] == "The database is not there any more; the page will show it again once it is back."
        pasur("new", "Omid", "Nasrin")  # a new file at the same path
        _, state = viewer.next()
        assert state["score"]["sides"] == ["Omid", "Nasrin"]


def test_every_write_method_is_refused(shown):
    server, db = shown
    before = cli(db, "show", "--json")
    for method, path in [(m, p) for m in ("POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE") for p in PATHS]:
        status, headers, _ = server.request(method, path)
        assert status == 405, (method, path)
        assert headers["allow"] == "GET, HEAD"
    assert server.request("GET", "/")[0] == 200
    assert server.request("HEAD", "/state")[0] == 200
    assert cli(db, "show", "--json") == before


def test_lan_needs_the_token(playing):
    with served(playing, "--lan") as server:
        token = re.fullmatch(r"/([A-Za-z0-9_-]{22,})", server.prefix)
        assert token, server.url
        assert "▀" in server.banner or "█" in server.banner  # the QR code, drawn with half blocks
        wrong = "/" + token.group(1)[:-1] + ("x" if token.group(1)[-1] != "x" else "y")
        for path in PATHS[:-1]:
            assert server.request("GET", path, prefix="")[0] == 403
            assert server.request("GET", path, prefix=wrong)[0] == 403
            assert server.request("GET", path, query="t=" + token.group(1), prefix="")[0] == 403
            assert server.request("POST", path)[0] == 405
        assert server.request("GET", "", prefix=server.prefix)[0] == 308  # /TOKEN to /TOKEN/
        assert server.request("GET", "/static/app.js")[0] == 200
        assert server.state()["show"]["match"] == 1


def test_without_lan_only_this_computers_names_are_answered(shown):
    server, _ = shown
    assert server.url.startswith("http://127.0.0.1:")
    for host in ("localhost", "LocalHost", "127.0.0.1", "[::1]"):
        assert server.request("GET", "/state", headers={"Host": f"{host}:{server.port}"})[0] == 200, host
    for host in ("attacker.example", "localhost.attacker.example", "127.0.0.1.nip.io"):  # DNS rebinding
        status, headers, body = server.request("GET", "/state", headers={"Host": f"{host}:{server.port}"})
        # refused by Starlette's TrustedHostMiddleware (its answer: 400), with the page's headers, no state
        assert (status, body) == (400, b"Invalid host header"), host
        assert headers["x-content-type-options"] == "nosniff"


def test_stored_text_is_sent_as_data(shown):
    server, _ = shown
    status, headers, body = server.request("GET", "/state")
    assert status == 200
    assert json.loads(body)["score"]["sides"] == [NAME, "Sara"]
    assert NAME.encode() in body  # as JSON text: the page puts it in with textContent
    assert headers["content-type"].startswith("application/json")
    assert headers["x-content-type-options"] == "nosniff"
    page = server.request("GET", "/")[1]
    assert "script-src" not in page["content-security-policy"]  # default-src 'self': no inline script runs
    assert "default-src 'self'" in page["content-security-policy"]
    script = (STATIC / "app.js").read_text()
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(", script)


def test_everything_the_page_loads_ships_in_the_package():
    html = (STATIC / "index.html").read_text()
    assert not re.search(r"(src|href)=\"(https?:)?//", html)
    for ref in re.findall(r"(?:src|href)=\"(static/[^\"]+)\"", html):
        assert (STATIC.parent / ref).is_file(), ref
    assert "@import" not in (STATIC / "style.css").read_text() and "url(" not in (STATIC / "style.css").read_text()


def test_the_words_come_in_every_language(shown):
    server, _ = shown
    words = {code: json.loads(server.request("GET", "/words", query=f"lang={code}")[2])
             for code in ("en", "fa", "de", "es")}
    assert [w["dir"] for w in words.values()] == ["ltr", "rtl", "ltr", "ltr"]
    assert len({w["words"]["title"] for w in words.values()}) == 4
    assert words["fa"]["words"]["table"] == "زمین"
    for w in words.values():  # each template keeps its fields
        for key, text in w["words"].items():
            assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", words["en"]["words"][key]))


def test_a_missing_database_or_match_is_refused(tmp_path, pasur):
    result = pasur("--db", tmp_path / "none.db", "serve", "--port", "0")
    assert result.exit_code == 1
    assert "no database" in result.output
    pasur("new", "Ali", "Sara")
    result = pasur("serve", "--port", "0", "--match", "7")
    assert result.exit_code == 1
    assert "there is no match 7" in result.output


def closed_after(sock, start, limit=30.0):
    """Seconds from ``start`` until the server closed ``sock`` (what it sent is read and dropped)."""
    sock.settimeout(limit)
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - start


@pytest.mark.soak  # waits out the 5-second header timeout
def test_a_connection_without_a_whole_request_is_closed_and_a_stream_is_not(pasur, playing):
    """An idle connection, a half-sent request and one sent a byte every half second are closed
    HEADER_TIMEOUT seconds after connecting, as is a keep-alive connection that went quiet after
    its answer; a viewer's event stream lives on; the terminal gets one quiet line for the three."""
    with served(playing) as server, server.events() as viewer:
        viewer.next()
        start = time.monotonic()
        idle, half, slow, kept = (socket.create_connection(("127.0.0.1", server.port)) for _ in range(4))
        half.sendall(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        kept.sendall(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        header = b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200

        def trickle() -> None:
            for byte in header:
                try:
                    slow.send(bytes([byte]))
                except OSError:
                    return
                time.sleep(0.5)
        threading.Thread(target=trickle, daemon=True).start()
        waits = [closed_after(sock, start) for sock in (idle, half, slow)]
        kept_for = closed_after(kept, start)
        for wait in [*waits, kept_for]:
            assert HEADER_TIMEOUT - 0.5 < wait < HEADER_TIMEOUT + 3, (waits, kept_for)
        pasur("play", "9S")
        _, state = viewer.next()  # the stream, older than every one of them, still delivers
        assert state["show"]["length"] == 2
    assert "Closed 3 connections that sent no whole request within 5 seconds." in server.said
    assert "Traceback" not in server.said


def test_connections_over_the_bound_close_the_oldest_waiting_ones_quietly(playing, tmp_path):
    """With an open-file limit of 256 the server keeps at most Plan.of(256).bound connections: 300
    idle ones close the oldest, a viewer is served at once; when every one is a viewer's stream, a
    new connection is refused. Each kind is one line on stderr, never a traceback."""
    bound = Plan.of(256).bound
    stderr = tmp_path / "stderr"
    with served(playing, files=256, stderr=stderr) as server:
        with Flood(server.port, 300, reopen=False) as flood:
            assert server.load_page() < 2
            flood.settle(2)
            assert server.open_files() < 256
            assert flood.held() <= bound
            assert flood.closed >= 300 - bound
        streams = []
        for _ in range(bound):  # each a viewer's stream at once (a connection that sent its request is busy)
            streams.append(socket.create_connection(("127.0.0.1", server.port), timeout=30))
            streams[-1].sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert streams[-1].recv(100).startswith(b"HTTP/1.1 200")
        extra = socket.create_connection(("127.0.0.1", server.port))
        assert closed_after(extra, time.monotonic()) < 2
        assert streams[0].recv(65536)  # the streams live on
        for sock in streams:
            sock.close()
    said = stderr.read_text().splitlines()
    making_room = rf"Closed (\d+) waiting connections? to make room \(at most {bound} are kept open\)\."
    late = r"Closed \d+ connections? that sent no whole request within 5 seconds\."  # on a very slow machine
    assert all(re.fullmatch(making_room, line) or re.fullmatch(late, line) for line in said[:-1]), said
    assert sum(int(m.group(1)) for line in said if (m := re.fullmatch(making_room, line))) >= 300 - bound, said
    assert said[-1] == f"Refused 1 connection: {bound} were open, none of them waiting.", said


@pytest.mark.soak
def test_a_viewer_is_served_within_two_seconds_through_a_flood_of_1100_idle_connections(pasur, playing, tmp_path):
    """1,100 idle connections (each the server closes opened again) to a server whose open-file
    limit is 1,024, for three header timeouts: a viewer loads the page and gets each play within 2
    s, the server never runs out of files, stderr says a few lines and no traceback, and `pasur
    play` takes about as long as without the flood."""
    if not enough_files(1100):
        pytest.skip("this process cannot open 1,100 connections")
    stderr = tmp_path / "stderr"
    cards = iter(["9S", "4C", "JD", "2H", "AS", "7C", "QH", "8D"])  # Ali's and Sara's hands alternately

    def play(card: str) -> float:
        start = time.monotonic()
        subprocess.run([sys.executable, "-m", "pasur_cli", "play", card], check=True, capture_output=True,
                       env={**os.environ, "PASUR_LANG": "en"}, timeout=60)
        return time.monotonic() - start
    with served(playing, files=1024, stderr=stderr) as server:
        calm = [play(next(cards)) for _ in range(3)]
        pages, updates, busy, files = [], [], [], []
        start = time.monotonic()
        with Flood(server.port, 1100) as flood:
            while time.monotonic() - start < 3 * HEADER_TIMEOUT:
                pages.append(server.load_page())
                with server.events() as viewer:
                    seen = viewer.next()[0]
                    card = next(cards, None)
                    if card is not None:
                        busy.append(play(card))
                        ended = time.monotonic()
                        while viewer.next()[0] <= seen:
                            pass
                        updates.append(time.monotonic() - ended)
                files.append(server.open_files())
                time.sleep(1)
            held = flood.most
    said = stderr.read_text().splitlines()
    assert held > 1000  # the flood was there
    assert max(pages) < 2 and max(updates) < 2, (pages, updates)
    assert max(files) < 1024, files
    assert not [line for line in said if "Traceback" in line or "Errno" in line], said
    assert len(said) <= 3 * (int(3 * HEADER_TIMEOUT / REPORT) + 2), said
    assert statistics.median(busy) < 2 * statistics.median(calm), (calm, busy)


def no_file_named(text, *paths):
    """Neither a path nor the system's error text (which names files) is in ``text``."""
    assert not re.search(r"Errno|No such file|/dev/shm|/tmp/|/home/", text), text
    for path in paths:
        assert str(path) not in text and Path(path).name not in text, text


def test_the_page_names_no_file_when_the_database_is_moved_replaced_or_not_pasur(pasur, playing, tmp_path):
    """The database moved away, a folder in its place, a file that is not pasur's: each a short
    sentence on the page (stream and /state alike), no path or system text; back when it is."""
    moved = tmp_path / "elsewhere.db"
    with served(playing) as server, server.events() as viewer:
        assert viewer.next()[1]["show"]["match"] == 1
        cases = [
            (lambda: playing.rename(moved), "The database is not there any more; the page will show it again once"
                                            " it is back."),
            (lambda: playing.mkdir(), "The database is a folder now, not a pasur file."),
            (lambda: (playing.rmdir(), playing.write_text("a shopping list\n")),
             "The database is not a pasur file, or cannot be read."),
        ]
        for change, sentence in cases:
            change()
            _, state = viewer.next()
            assert state == {"error": sentence}
            status, _, body = server.request("GET", "/state")
            assert status == 200 and json.loads(body) == state
            no_file_named(body.decode(), playing, moved, tmp_path)
        playing.unlink()
        moved.rename(playing)
        assert viewer.next()[1]["show"]["match"] == 1


def test_the_page_says_so_in_its_language(pasur, playing):
    with served(playing, env={"PASUR_LANG": "fa"}) as server, server.events() as viewer:
        viewer.next()
        playing.unlink()
        _, state = viewer.next()
    assert state["error"].startswith("پایگاه داده"), state  # Persian, not the English sentence
    no_file_named(state["error"], playing)


class Installed:
    """An installed distribution as importlib.metadata gives it: its direct_url.json, or none."""

    def __init__(self, origin):
        self.origin = origin

    def read_text(self, name):
        return self.origin if name == "direct_url.json" else None


@pytest.mark.parametrize(("origin", "command"), [
    ('{"url": "file:///home/ali/src/pasur", "dir_info": {"editable": true}}',
     "pip install -e '/home/ali/src/pasur[serve]'"),
    ('{"url": "file:///home/ali/my%20pasur", "dir_info": {}}', "pip install '/home/ali/my pasur[serve]'"),
    (None, "pip install 'pasur[serve]'"),
    ('{"url": "https://example.org/pasur-0.1.0.tar.gz", "archive_info": {}}', "pip install 'pasur[serve]'"),
], ids=["editable checkout", "checkout", "package index", "archive"])
def test_the_extra_is_asked_for_as_pasur_was_installed(pasur, playing, monkeypatch, origin, command):
    import importlib.metadata
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # the extra is not there: importing it fails
    monkeypatch.setitem(sys.modules, "caissify_pairings", None)
    monkeypatch.setattr(importlib.metadata, "distributions", lambda **_: iter([Installed(origin)]))
    result = pasur("serve", "--port", "0")
    assert result.exit_code == 1
    assert result.output == f"Error: pasur serve needs its extra packages: {command} (uvicorn is missing).\n"
    assert pasur("event", "new", "Night", "--players", "Ali", "Sara").exit_code == 0
    result = pasur("event", "pair")
    event = command.replace("[serve]", "[event]")
    assert result.exit_code == 1
    assert result.output == f"Error: pasur event pair needs its extra package: {event} (caissify_pairings is missing).\n"


def test_this_install_is_told_its_own_folder(pasur, playing, monkeypatch):
    """The pasur these tests run was installed from this checkout (editable or not)."""
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    output = pasur("serve", "--port", "0").output
    assert f"{Path(__file__).resolve().parent.parent}[serve]'" in output, output
