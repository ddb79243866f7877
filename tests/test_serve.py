"""`pasur serve`'s answers, without a browser: the page's data is the commands' JSON, pushed to
every viewer on a change; nothing is written; --lan needs its token; stored text stays text.
(The page itself, in Chromium: tests/test_serve_browser.py.)"""

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from serving import served  # tests/ is on the path, as for matchbook

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
        _, state = viewer.next()
        assert state["show"]["match"] == 2
        assert state["score"]["sides"] == ["Reza", "Mina"]
        playing.unlink()
        _, state = viewer.next()
        assert "No such file" in state["error"]
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
    assert server.request("GET", "/state", headers={"Host": f"localhost:{server.port}"})[0] == 200
    assert server.request("GET", "/state", headers={"Host": f"attacker.example:{server.port}"})[0] == 403


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
