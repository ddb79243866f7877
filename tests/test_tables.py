"""A club night's several tables (issue 29): a change that names no match is refused while two or
more matches are in play, listing them, and writes nothing; PASUR_MATCH chooses the match for a
whole shell; a read says which match it shows; a match carries the name of its table."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_i18n import OTHERS, assert_no_english, plain

from pasur_cli.cli.app import main
from pasur_cli.store.database import SCHEMA_VERSION, Store
from pasur_cli.store.tables import RECENT_HOURS, in_play
from pasur_cli.web.state import page_state

DATA = Path(__file__).parent / "data"
TABLE = ["5C", "9D", "3H", "KS"]
WIN = ["--count", "Ali: clubs=13 aces=4 jacks=4 2c=yes 10d=yes", "--count", "Sara: clubs=0 aces=0 jacks=0 2c=no 10d=no"]
CHANGES = [["deal", *TABLE], ["play", "7C"], ["undo"], ["tally", *WIN]]


@pytest.fixture
def two_tables(pasur, db):
    """Two matches in play: match 1 at table 3 (Sara to play), match 2 at table "Rose" (Reza deals)."""
    assert pasur("new", "Ali", "Sara", "--table", "3").exit_code == 0
    assert pasur("deal", *TABLE).exit_code == 0  # one table in play: no --match needed
    assert pasur("new", "Reza", "Mina", "--table", " Rose ").exit_code == 0
    return db


@pytest.mark.parametrize("args", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_change_without_match_is_refused_while_two_tables_are_in_play(pasur, two_tables, args):
    before = two_tables.read_bytes()
    result = pasur(*args)
    assert result.exit_code == 1
    assert two_tables.read_bytes() == before  # nothing written
    lines = result.stderr.splitlines()
    assert "2 matches are in play" in lines[0] and "--match N" in lines[0] and "PASUR_MATCH=N" in lines[0]
    assert "nothing was recorded" in lines[0]
    assert lines[1:] == ["  --match 2  match 2 (table Rose): Reza against Mina; Reza to deal.",
                         "  --match 1  match 1 (table 3): Ali against Sara; Sara to play."]


def test_the_refusal_lists_the_tables_in_every_language(pasur, two_tables):
    for code in OTHERS:
        result = pasur("--lang", code, "play", "7C")
        assert result.exit_code == 1
        text = plain(result.stderr)
        assert "--match 1" in text and "--match 2" in text and "PASUR_MATCH" in text and "Rose" in text
        assert_no_english(text.replace("PASUR_MATCH", ""), code)


def test_match_and_pasur_match_choose_the_table(pasur, two_tables, monkeypatch):
    assert pasur("--match", "2", "deal", *TABLE).exit_code == 0
    monkeypatch.setenv("PASUR_MATCH", "1")
    result = pasur("play", "4H", "--take", "")  # Sara trails at match 1
    assert result.exit_code == 0, result.output
    assert pasur("show", "--json").exit_code == 0
    shown = json.loads(pasur("show", "--json").stdout)
    assert shown["match"] == 1 and shown["length"] == 2
    assert json.loads(pasur("--match", "2", "show", "--json").stdout)["length"] == 1  # --match wins over it
    monkeypatch.delenv("PASUR_MATCH")
    assert json.loads(pasur("show", "--match", "2", "--json").stdout)["length"] == 1


@pytest.mark.parametrize("value", ["x", "0", "-1", "99999999999999999999999999"])
def test_a_bad_pasur_match_is_refused_naming_it(pasur, two_tables, monkeypatch, value):
    before = two_tables.read_bytes()
    monkeypatch.setenv("PASUR_MATCH", value)
    result = pasur("play", "7C")
    assert result.exit_code == 2
    assert "PASUR_MATCH" in result.stderr and repr(value) in result.stderr
    assert two_tables.read_bytes() == before


def test_pasur_match_naming_no_match_is_refused(pasur, two_tables, monkeypatch):
    before = two_tables.read_bytes()
    monkeypatch.setenv("PASUR_MATCH", "7")
    result = pasur("play", "7C")
    assert result.exit_code == 1 and "there is no match 7" in result.stderr
    assert two_tables.read_bytes() == before


def test_a_read_says_which_match_it_shows_when_others_are_in_play(pasur, two_tables):
    result = pasur("show")
    assert result.exit_code == 0
    assert "Match 2, table Rose: Reza against Mina" in result.stdout
    assert result.stderr.strip() == "Showing match 2 (table Rose). Also in play: match 1 (table 3); choose with --match N."
    assert pasur("score").stderr == result.stderr
    assert pasur("--match", "2", "show").stderr == ""  # named: nothing to say
    assert pasur("show", "--json").stderr == ""  # the JSON names its match itself
    assert pasur("score", "--csv").stderr == ""


def test_one_table_in_play_needs_no_match(pasur, db):
    """A finished match and one changed long ago do not count: one table is in play."""
    assert pasur("new", "Ali", "Sara", "--rule", "fixed_deals=1").exit_code == 0
    assert pasur("tally", *WIN).exit_code == 0  # finished
    assert pasur("new", "Old", "Timer").exit_code == 0
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE matches SET created = '2020-01-01T00:00:00+00:00' WHERE id = 2")
    con.close()
    assert pasur("new", "Reza", "Mina").exit_code == 0
    store = Store(str(db))
    assert [t.id for t in in_play(store)] == [3]
    assert [t.id for t in in_play(store, hours=24 * 365 * 100)] == [3, 2]
    store.close()
    result = pasur("deal", *TABLE)
    assert result.exit_code == 0 and result.stderr == ""
    assert json.loads(pasur("show", "--json").stdout)["match"] == 3
    assert pasur("show").stderr == ""
    assert RECENT_HOURS == 6


def test_the_table_name_is_shown_wherever_the_match_is_named(pasur, two_tables):
    assert "Match 3, table 7: Ali against Reza." in pasur("new", "Ali", "Reza", "--table", "7").stdout
    listed = pasur("matches").stdout
    assert "1 (table 3)" in listed and "2 (table Rose)" in listed and "3 (table 7)" in listed
    assert [row["table"] for row in json.loads(pasur("matches", "--json").stdout)] == ["7", "Rose", "3"]
    assert pasur("--match", "1", "show").stdout.startswith("Match 1, table 3: Ali against Sara")
    assert json.loads(pasur("--match", "2", "show", "--json").stdout)["table_name"] == "Rose"
    store = Store(str(two_tables))
    state = page_state(store, lambda s: s.current(1))
    assert state["table"] == "3" and state["show"]["match"] == 1
    assert pasur("new", "Ali", "Mina").exit_code == 0
    assert page_state(store, lambda s: s.current(4))["table"] is None  # no table given: null
    assert json.loads(pasur("show", "--json").stdout)["table_name"] is None
    store.close()


def test_the_session_header_names_the_table(pasur, two_tables):
    result = pasur("--match", "2", "session", input="quit\n")
    assert result.exit_code == 0
    assert "Match 2, table Rose: Reza against Mina" in result.stdout


def test_the_session_without_match_is_refused_while_two_tables_are_in_play(pasur, two_tables):
    before = two_tables.read_bytes()
    result = pasur("session", input="quit\n")
    assert result.exit_code == 1 and "2 matches are in play" in result.stderr
    assert two_tables.read_bytes() == before


@pytest.mark.parametrize("name,says", [
    ("", "shows nothing"), ("   ", "shows nothing"), ("x" * 21, "has 21 characters; at most 20"),
    ("3\n4", "U+000A (a line break)"), ("a\u202eb", "U+202E (a text direction mark)"),
])
def test_a_bad_table_name_is_refused_storing_nothing(pasur, two_tables, name, says):
    before = two_tables.read_bytes()
    result = pasur("new", "Ali", "Sara", "--table", name)
    assert result.exit_code == 2 and says in result.stderr
    assert two_tables.read_bytes() == before


def test_a_table_name_in_any_script_is_kept_as_typed(pasur, db):
    name = "میز ۲۰ — " + "x" * 11  # 20 characters: the most
    assert len(name) == 20
    assert pasur("new", "Ali", "Sara", "--table", name).exit_code == 0
    assert json.loads(pasur("matches", "--json").stdout)[0]["table"] == name


def test_a_schema_4_file_migrates_to_the_table_column(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    shutil.copy(DATA / "schema4.db", path)
    monkeypatch.setenv("PASUR_DB", str(path))
    monkeypatch.delenv("PASUR_MATCH", raising=False)
    before = path.read_bytes()
    assert all(row["table"] is None for row in json.loads(CliRunner().invoke(main, ["matches", "--json"]).stdout))
    assert path.read_bytes() == before  # read as it is
    result = CliRunner().invoke(main, ["new", "Ali", "Sara", "--table", "5"])
    assert result.exit_code == 0, result.output
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    tables = dict(con.execute("SELECT id, table_name FROM matches").fetchall())
    con.close()
    assert SCHEMA_VERSION >= 6 and list(tables.values()).count("5") == 1
    assert [t for t in tables.values() if t != "5"] == [None] * (len(tables) - 1)


def test_a_fresh_file_has_the_table_column(pasur, db):
    assert pasur("new", "Ali", "Sara").exit_code == 0
    con = sqlite3.connect(db)
    assert "table_name" in {row[1] for row in con.execute("PRAGMA table_info(matches)")}
    con.close()
