"""Kept reviews and accuracy (issue 28): a deal's review is kept in the record book with the
analysis engine's version and a checksum, read back equal to a fresh one, refused and made again
when damaged, made again when the engine or the log changes; `review --all` fills in every
finished deal, each in its own transaction (Ctrl-C keeps the deals done); accuracy is the
expected points lost per decision with a choice, in `review --match` and in `stats`."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from matchbook import stored_match
from tier import some

import pasur_cli.engine.advice as advice
from pasur_cli.cli.app import main
from pasur_cli.engine.rules import parse_rules
from pasur_cli.store.database import SCHEMA_VERSION, Store
from pasur_cli.store.reviews import read_review, review_text, row_crc

DATA = Path(__file__).parent / "data"


def two_deals(db, deals: int = 2):
    """A stored two-player match with ``deals`` finished deals and the next one's table."""
    return stored_match(db, ["Ali", "Sara"], parse_rules("pagat", [f"fixed_deals={deals + 1}"]), 5, deals)


def rows(db) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT match_id, deal, seq, engine, log_crc, crc, review, accuracy FROM reviews"
                           " ORDER BY match_id, deal").fetchall()
    finally:
        con.close()


def counting(monkeypatch) -> list[int]:
    """Count the deals the analysis engine reviews from now on (its public ``review``)."""
    made: list[int] = []
    real = advice.review

    def review(match, deal, **kwargs):
        made.append(deal)
        return real(match, deal, **kwargs)
    monkeypatch.setattr(advice, "review", review)
    return made


def test_a_kept_review_reads_back_equal_to_a_fresh_one_and_is_not_made_again(db, pasur, monkeypatch):
    match = two_deals(db, 1)
    made = counting(monkeypatch)
    first = pasur("review", "--match", 1, "--json")
    assert first.exit_code == 0 and made == [1]
    assert [(r[0], r[1], r[3]) for r in rows(db)] == [(1, 1, advice.ANALYSIS_VERSION)]
    again = pasur("review", "--match", 1, "--json")
    assert again.exit_code == 0 and not again.stderr and made == [1]  # read, not made again
    assert json.loads(again.stdout) == json.loads(first.stdout)
    fresh = advice.review(match, 1)  # the engine's twin of the stored match
    assert read_review(review_text(fresh)) == fresh == read_review(rows(db)[0][6])


DAMAGES = {  # the first two in the quick suite, the others under soak (each makes the review again)
    "a byte flipped": "UPDATE reviews SET review = substr(review, 1, 40) || char(unicode(substr(review, 41, 1)) + 1)"
                      " || substr(review, 42) WHERE deal = 1",
    "no review, with its checksum made to match": "UPDATE reviews SET review = '{\"deal\": 1, \"plays\": [7]}',"
                                                  " crc = pasur_row_crc(match_id, deal, seq, engine, log_crc,"
                                                  " '{\"deal\": 1, \"plays\": [7]}', accuracy) WHERE deal = 1",
    "a figure changed": "UPDATE reviews SET review = replace(review, '\"loss\": ', '\"loss\": 1') WHERE deal = 1",
    "its checksum changed": "UPDATE reviews SET crc = crc + 4096 WHERE deal = 1",
    "an accuracy figure changed": "UPDATE reviews SET accuracy = replace(accuracy, '[', '[1') WHERE deal = 1",
}


@pytest.mark.parametrize("damage", some([pytest.param(d, id=d) for d in DAMAGES], 2))
def test_a_damaged_kept_review_is_refused_made_again_and_said(db, pasur, monkeypatch, damage):
    two_deals(db, 1)
    first = pasur("review", "--match", 1, "--json")
    con = sqlite3.connect(db)
    con.create_function("pasur_row_crc", 7, row_crc)
    con.execute(DAMAGES[damage])
    con.commit()
    con.close()
    made = counting(monkeypatch)
    # stats reads the kept accuracy, never the review: a row whose checksum holds is counted there
    counted = 1 if damage.startswith("no review") else 0
    assert [p["reviewed_deals"] for p in json.loads(pasur("stats", "--json").stdout)["players"]] == [counted] * 2
    again = pasur("review", "--match", 1, "--json")
    assert again.exit_code == 0 and made == [1]
    assert "Match 1, deal 1: the kept review is damaged" in again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)  # what is shown is the fresh review
    third = pasur("review", "--match", 1, "--json")  # kept again, whole: trusted
    assert third.exit_code == 0 and not third.stderr and made == [1]
    assert [p["reviewed_deals"] for p in json.loads(pasur("stats", "--json").stdout)["players"]] == [1, 1]


def test_a_change_of_the_analysis_engine_makes_every_kept_review_again(db, pasur, monkeypatch):
    two_deals(db, 1)
    assert pasur("review", "--all").exit_code == 0
    made = counting(monkeypatch)
    monkeypatch.setattr(advice, "ANALYSIS_VERSION", advice.ANALYSIS_VERSION + 1)
    stats = json.loads(pasur("stats", "--json").stdout)
    assert [p["reviewed_deals"] for p in stats["players"]] == [0, 0]  # another engine's reviews are not counted
    result = pasur("review", "--all", "--json")
    assert result.exit_code == 0 and not result.stderr  # stale, not damaged: made again without a word
    assert json.loads(result.stdout)["reviewed"] == 1 and made == [1]
    assert {r[3] for r in rows(db)} == {advice.ANALYSIS_VERSION}


def test_review_all_fills_in_every_finished_deal_once(db, pasur, monkeypatch):
    two_deals(db, 1)
    stored_match(db, ["Mina", "Reza"], parse_rules("standard", ["fixed_deals=2"]), 8, 1)
    made = counting(monkeypatch)
    first = pasur("review", "--all")
    assert first.exit_code == 0 and "2 deals reviewed and kept; 0 kept already." in first.stdout
    assert [(r[0], r[1]) for r in rows(db)] == [(1, 1), (2, 1)]
    again = pasur("review", "--all", "--json")
    assert again.exit_code == 0
    assert json.loads(again.stdout) == {"reviewed": 0, "kept_already": 2, "damaged": [], "left_out": []}
    assert len(made) == 2
    assert pasur("review", "--all", "--deal", "1").exit_code == 2


def test_an_undo_into_a_reviewed_deal_leaves_its_kept_review_out_until_the_same_log_is_back(db, pasur):
    two_deals(db, 1)
    assert pasur("review", "--all").exit_code == 0

    def reviewed() -> list[int]:
        return [p["reviewed_deals"] for p in json.loads(pasur("stats", "--json").stdout)["players"]]
    assert reviewed() == [1, 1]
    store = Store(db)
    last = store.load(1, full=True).actions[-2]  # deal 1's last play (the table of deal 2 follows)
    store.close()
    assert pasur("undo", "--match", 1, 2).exit_code == 0  # the table of deal 2 and that play
    assert reviewed() == [0, 0]
    take = " ".join(c.code for c in last.take or ())
    assert pasur("play", "--match", 1, last.card.code, "--take", take).exit_code == 0
    assert reviewed() == [1, 1]  # the same log again: the kept review is its review


def test_deleting_a_match_deletes_its_kept_reviews(db, pasur):
    two_deals(db, 1)
    assert pasur("review", "--all").exit_code == 0 and len(rows(db)) == 1
    assert pasur("delete", "--match", 1, "--yes").exit_code == 0
    assert rows(db) == []


def test_ctrl_c_during_review_all_keeps_the_finished_deals_and_says_how_many(db, pasur):
    two_deals(db, 3)
    environ = {**os.environ, "PASUR_DB": str(db)}
    child = subprocess.Popen([sys.executable, "-m", "pasur_cli", "review", "--all"], env=environ,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None:  # until the first deal is committed
        if os.path.exists(db):
            try:
                con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
                try:
                    if con.execute("SELECT count(*) FROM reviews").fetchone()[0] >= 1:
                        break
                finally:
                    con.close()
            except sqlite3.OperationalError:  # not migrated yet, or busy
                pass
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    kept = len(rows(db))
    assert child.returncode == 130, (out, err)
    assert 1 <= kept < 3
    assert f"Stopped: {kept} deal{'s' if kept > 1 else ''} reviewed and kept" in err
    rest = pasur("review", "--all", "--json")
    assert json.loads(rest.stdout)["reviewed"] == 3 - kept and len(rows(db)) == 3


def by_hand(document: dict) -> dict[str, tuple[int, int, float]]:
    """Each player's (deals, decisions, points lost) from `review --json`'s plays."""
    found: dict[str, list] = {}
    for deal in document["deals"]:
        for play in deal["plays"]:
            mine = found.setdefault(play["player"], [set(), 0, 0.0])
            mine[0].add(deal["deal"])
            if play["choices"] > 1:
                mine[1] += 1
                mine[2] += play["loss"]
    return {name: (len(d), n, lost) for name, (d, n, lost) in found.items()}


def test_accuracy_is_the_points_lost_per_decision_with_a_choice_in_review_and_stats(db, pasur):
    two_deals(db)
    document = json.loads(pasur("review", "--match", 1, "--json").stdout)
    hand = by_hand(document)
    assert all(0 < n < 2 * 24 for _, n, _ in hand.values())  # of 24 plays a deal, some with one option only
    for a in document["accuracy"]:
        deals, decisions, lost = hand[a["player"]]
        assert (a["deals"], a["decisions"]) == (deals, decisions)
        assert a["lost"] == pytest.approx(lost, abs=0.005)
        assert a["lost_per_decision"] == pytest.approx(lost / decisions, abs=5e-5)
    text = pasur("review", "--match", 1).stdout
    assert "Accuracy, expected points lost per decision with a choice" in text
    for name, (deals, decisions, lost) in hand.items():
        assert f"{name}: {lost / decisions:.2f} over {decisions} decisions in {deals} deals" in text
    players = {p["name"]: p for p in json.loads(pasur("stats", "--json").stdout)["players"]}
    table = {row["name"]: row for row in csv.DictReader(io.StringIO(pasur("stats", "--csv").stdout))
             if row["kind"] == "player"}
    for name, (deals, decisions, lost) in hand.items():
        assert (players[name]["reviewed_deals"], players[name]["decisions"]) == (deals, decisions)
        assert players[name]["lost_per_decision"] == pytest.approx(lost / decisions, abs=5e-5)
        assert (int(table[name]["reviewed_deals"]), int(table[name]["decisions"])) == (deals, decisions)
        assert float(table[name]["lost_per_decision"]) == players[name]["lost_per_decision"]
    shown = pasur("stats").stdout
    assert "lost" in shown and "reviewed" in shown


def test_stats_draws_a_players_accuracy_per_reviewed_match(db, pasur):
    two_deals(db, 1)
    stored_match(db, ["Sara", "Reza"], parse_rules("pagat", ["fixed_deals=2"]), 9, 1)
    assert "Sara has no reviewed deal yet" in pasur("stats", "--player", "sara", "--chart").stdout
    assert pasur("review", "--all").exit_code == 0
    drawn = pasur("--ascii", "stats", "--player", "sara", "--chart")
    assert drawn.exit_code == 0
    assert drawn.stdout.startswith("Sara: expected points lost per decision")
    assert drawn.stdout.count("o") >= 2  # a marker per reviewed match
    assert pasur("stats", "--chart").exit_code == 2  # one player's: --player needed
    assert pasur("stats", "--player", "sara", "--chart", "--json").exit_code == 2


def test_a_file_of_schema_4_migrates_with_the_table_and_a_fresh_file_has_it(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    shutil.copy(DATA / "schema4.db", path)
    monkeypatch.setenv("PASUR_DB", str(path))
    runner = CliRunner()
    assert runner.invoke(main, ["stats", "--json"]).exit_code == 0  # read as it is: no table yet, none counted
    result = runner.invoke(main, ["review", "--all", "--match", "1", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    finished = json.loads(result.stdout)["reviewed"]
    assert finished >= 1 and con.execute("SELECT count(*) FROM reviews WHERE match_id = 1").fetchone()[0] == finished
    con.close()
    fresh = tmp_path / "fresh.db"
    Store(fresh, create=True).close()
    con = sqlite3.connect(fresh)
    assert con.execute("SELECT count(*) FROM reviews").fetchone()[0] == 0
    con.close()


@pytest.mark.parametrize("lang", ["de", "es", "fa"])
def test_kept_reviews_and_accuracy_speak_every_language(lang):
    from pasur_cli.engine.stats import Accuracy
    from pasur_cli.text import i18n
    from pasur_cli.text.render import Look
    from pasur_cli.text.review import accuracy_text, damaged_line
    look = Look(ascii=True)
    english = (damaged_line(look, 3, 2), accuracy_text(look, (Accuracy("Sara", 2, 30, 12.0),)))
    i18n.set_language(lang)
    said = (damaged_line(look, 3, 2), accuracy_text(look, (Accuracy("Sara", 2, 30, 12.0),)))
    for theirs, ours in zip(said, english, strict=True):
        assert theirs != ours
    assert "3" in said[0] and "2" in said[0]
    assert "Sara" in said[1] and "0.40" in said[1] and "30" in said[1]


def test_a_file_of_schema_5_moves_to_6_keeping_its_trusted_snapshots(db, pasur):
    """The step to schema 6 only adds a table: the snapshots' chain, which holds, is not written
    again (it was, and reading a match from its snapshots inside that transaction found the file busy)."""
    from pasur_cli.store.snapshots import chained, sql_crc
    two_deals(db, 1)
    con = sqlite3.connect(db)
    con.execute("DROP TABLE reviews")
    con.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    con.commit()
    before = con.execute("SELECT * FROM snapshots ORDER BY seq").fetchall()
    con.close()
    result = pasur("review", "--all")
    assert result.exit_code == 0, result.output
    con = sqlite3.connect(db)
    con.create_function("pasur_crc", 1, sql_crc)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    assert con.execute("SELECT * FROM snapshots ORDER BY seq").fetchall() == before and chained(con, 1)
    assert con.execute("SELECT count(*) FROM reviews").fetchone()[0] == 1
    con.close()
