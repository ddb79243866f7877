"""The store's seams of issue 30: the current match is the store's decision, a match resumes from
its snapshot through the engine's own constructor, a result is JSON in one place, the rules are
stored as their own JSON and a file of the schema before opens and migrates."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner
from matchbook import stored_match

from pasur_cli.cli.app import main
from pasur_cli.engine.errors import IllegalPlayError
from pasur_cli.engine.rules import Rules, parse_rules
from pasur_cli.store.database import SCHEMA_VERSION, Store
from pasur_cli.store.errors import NoMatchError, StoreError
from pasur_cli.store.snapshots import chained, sql_crc


def test_the_current_match_is_the_newest_unfinished_else_the_newest(db):
    finished = stored_match(db, ["Ali", "Sara"], parse_rules("pagat", ["fixed_deals=1"]), 3, 1)
    assert finished.finished
    store = Store(db)
    assert store.current()[0] == 1  # only a finished match: still the one shown
    store.close()
    going = stored_match(db, ["Mina", "Reza"], parse_rules("pagat", ["fixed_deals=3"]), 4, 1)
    assert not going.finished
    store = Store(db)
    mid, match = store.current()
    assert (mid, match.players, len(match.results)) == (2, ["Mina", "Reza"], 1)
    assert store.current(1)[1].players == ["Ali", "Sara"]  # named: that one, finished or not
    with pytest.raises(NoMatchError):
        store.current(9)
    store.close()


def test_a_file_without_matches_has_no_current_match(db, pasur):
    Store(db, create=True).close()
    store = Store(db)
    with pytest.raises(StoreError, match="there is no match yet"):
        store.current()
    store.close()
    assert "there is no match yet" in pasur("show").output


DATA = Path(__file__).parent / "data"


def test_a_file_of_schema_4_reads_as_it_did_and_migrates_on_the_first_write(tmp_path, monkeypatch):
    """tests/data/schema4.db was written by pasur before this change (schema 4, the rules as
    NAME=VALUE lines; schema4.json: what that pasur's `score --json`, `show --json` and `stats
    --json` said of it). It reads the same without being changed; the first write moves it to
    schema 5 (the rules stored as the JSON of ``Rules.as_dict``, every snapshot chained again) and
    every view still says the same."""
    path = tmp_path / "old.db"
    shutil.copy(DATA / "schema4.db", path)
    monkeypatch.setenv("PASUR_DB", str(path))
    expected = json.loads((DATA / "schema4.json").read_text())

    def views() -> dict:
        out = {}
        for name in expected:
            command, _, number = name.partition(" ")
            args = [command, "--json", *(["--match", number] if number else [])]
            result = CliRunner().invoke(main, args, catch_exceptions=False)
            assert result.exit_code == 0 and not result.stderr, (args, result.output)
            out[name] = json.loads(result.stdout)
        for record in [*out["stats"]["players"], *out["stats"]["partnerships"]]:  # accuracy came with schema 6
            for key in ("reviewed_deals", "decisions", "points_lost", "lost_per_decision"):
                assert record.pop(key) in (0, None)
        for name in out:
            if name.startswith("show"):  # table names came with schema 6
                assert out[name].pop("table_name") is None
        return out

    before = path.read_bytes()
    assert views() == expected
    assert path.read_bytes() == before  # read as it is: nothing migrated by a read
    assert CliRunner().invoke(main, ["new", "Ali", "Sara"]).exit_code == 0  # the first write migrates
    assert CliRunner().invoke(main, ["delete", "--match", "4", "--yes"]).exit_code == 0
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    assert con.execute("SELECT count(*) FROM meta WHERE key = 'unchained'").fetchone()[0] == 0
    con.create_function("pasur_crc", 1, sql_crc)
    for mid, text in con.execute("SELECT id, rules FROM matches").fetchall():
        assert Rules.from_dict(json.loads(text)) in {parse_rules("pagat", ["fixed_deals=3"]),
                                                     parse_rules("standard", ["target=30", "sur_points=10"]),
                                                     parse_rules("standard", ["fixed_deals=4", "capture_mode=rank"])}
        assert chained(con, mid)  # every match trusted from its snapshot again
    con.close()
    assert views() == expected
    store = Store(path)
    assert all(store.load(mid).start > 0 for mid in (1, 2, 3))
    store.close()


def test_a_resumed_match_reads_no_finished_deal_to_play_on_or_take_back():
    """``Match.resume`` takes the finished deals as a sequence it reads only when one is wanted:
    a deal's table, its plays and an undo of them never read one; the totals come with it."""
    from pasur_cli.engine.match import Match

    class Unread(Sequence):
        def __len__(self):
            return 40

        def __getitem__(self, index):
            raise AssertionError("a finished deal was read")

    rules = parse_rules("pagat", [])
    match = Match.resume(["Ali", "Sara"], rules, 0, start=900, results=Unread(), completed_at=Unread(),
                         totals={"Ali": 50, "Sara": 40})
    assert (match.deal_number, match.totals, match.length, match.dealer) == (41, {"Ali": 50, "Sara": 40}, 900, "Ali")
    match.replay_more([{"type": "deal", "table": ["5C", "9D", "3H", "KS"]}, {"type": "play", "card": "2S"}])
    assert match.length == 902 and match.deal is not None
    match.undo()
    assert match.length == 901 and match.deal.turn == "Sara"
    with pytest.raises(IllegalPlayError):
        Match.resume(["Ali", "Sara"], rules, 0, start=9, results=Unread(), completed_at=[], totals={"Ali": 1, "Sara": 0})
    with pytest.raises(IllegalPlayError):
        Match.resume(["Ali", "Sara"], rules, 0, start=9, results=[], completed_at=[], totals={"Ali": 1, "Reza": 0})
