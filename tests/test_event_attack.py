"""Hostile input against `pasur event` and its stored rows: a file whose event rows were edited by
hand is refused with a sentence, changing nothing; event names are told apart as player names are."""

from __future__ import annotations

import sqlite3

import pytest

DAMAGE = {
    "paper not JSON": "UPDATE pairings SET paper = 'zz' WHERE table_no = 1",
    "paper of three": "UPDATE pairings SET paper = '[1, 2, 3]' WHERE table_no = 1",
    "paper an object": "UPDATE pairings SET paper = '{\"a\": 1}' WHERE table_no = 1",
    "paper of words": "UPDATE pairings SET paper = '[\"x\", \"y\"]' WHERE table_no = 1",
    "paper too large": "UPDATE pairings SET paper = '[1e400, 2]' WHERE table_no = 1",
    "paper bytes": "UPDATE pairings SET paper = x'ff00' WHERE table_no = 1",
    "entrant of no one": "UPDATE pairings SET first = 99 WHERE table_no = 1",
    "second of no one": "UPDATE pairings SET second = 99 WHERE table_no = 1",
    "entrant a word": "UPDATE pairings SET first = 'x' WHERE table_no = 1",
    "round a word": "UPDATE pairings SET round = 'x'",
    "match a word": "UPDATE pairings SET match_id = 'x' WHERE table_no = 1",
    "players bytes": "UPDATE entrants SET players = x'ff'",
    "joined a word": "UPDATE entrants SET joined = 'x'",
    "dropped a word": "UPDATE entrants SET dropped = 'x'",
    "no entrants": "DELETE FROM entrants",
    "rules not JSON": "UPDATE events SET rules = 'junk'",
    "rounds a word": "UPDATE events SET rounds = 'x'",
    "rounds below one": "UPDATE events SET rounds = -5",
    "pairing unknown": "UPDATE events SET pairing = 'knockout'",
}
COMMANDS = [("standings",), ("standings", "--json"), ("standings", "--csv"), ("pair",), ("result", "1", "62-48"),
            ("add", "Zed"), ("drop", "Ali"), ("export",)]


@pytest.fixture
def paired(pasur, db):
    """A file with an event of three whose first round is paired."""
    assert pasur("event", "new", "Night", "Ali", "Sara", "Reza").exit_code == 0
    assert pasur("event", "pair").exit_code == 0
    return db


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_damaged_event_rows_are_refused_by_every_event_command_changing_nothing(pasur, paired, damage):
    con = sqlite3.connect(paired)
    con.execute(DAMAGE[damage])
    con.commit()
    con.close()
    for command in COMMANDS:
        before = paired.read_bytes()
        result = pasur("event", *command)
        assert result.exit_code == 1, (command, result.output)
        assert "damaged" in result.stderr and "Traceback" not in result.output, (command, result.output)
        assert paired.read_bytes() == before, command


def test_a_table_naming_another_players_finished_match_is_unfinished_not_a_crash(pasur, paired):
    assert pasur("new", "Omid", "Nima").exit_code == 0
    con = sqlite3.connect(paired)
    other = con.execute("SELECT max(id) FROM matches").fetchone()[0]
    con.close()
    assert pasur("tally", "--match", other, "--count", "Omid: clubs=13 aces=4 jacks=4 2c=yes 10d=yes",
                 "--count", "Nima: clubs=0 aces=0 jacks=0 2c=no 10d=no", "--surs", "Omid=9").exit_code == 0
    con = sqlite3.connect(paired)
    con.execute("UPDATE pairings SET match_id = ? WHERE table_no = 1", (other,))
    con.commit()
    con.close()
    refused = pasur("event", "pair")
    assert refused.exit_code == 1 and "has not finished" in refused.stderr
    assert pasur("event", "standings").exit_code == 0


@pytest.mark.parametrize("again", ["club night", "CLUB NIGHT", " Club  night ", "Clubnight", "\uff23\uff4c\uff55\uff42 night"])
def test_an_event_name_taken_in_another_spelling_is_refused_changing_nothing(pasur, db, again):
    assert pasur("event", "new", "Club night", "Ali", "Sara").exit_code == 0
    before = db.read_bytes()
    refused = pasur("event", "new", again, "Reza", "Mina")
    assert refused.exit_code == 1 and "'Club night' already" in refused.stderr, refused.output
    assert db.read_bytes() == before


def test_an_event_imported_under_a_name_taken_in_another_spelling_is_refused(pasur, db, tmp_path, monkeypatch):
    assert pasur("event", "new", "Club night", "Ali", "Sara").exit_code == 0
    out = tmp_path / "night.json"
    assert pasur("event", "export", "-o", out).exit_code == 0
    monkeypatch.setenv("PASUR_DB", str(tmp_path / "other.db"))
    assert pasur("event", "new", "CLUB NIGHT", "Reza", "Mina").exit_code == 0
    before = (tmp_path / "other.db").read_bytes()
    refused = pasur("import", out)
    assert refused.exit_code == 1 and "'CLUB NIGHT' already" in refused.stderr, refused.output
    assert (tmp_path / "other.db").read_bytes() == before


def _seated_first(d):
    return d["entrants"][d["tables"][0]["first"] - 1]


@pytest.mark.parametrize("spoil", [
    lambda d: _seated_first(d).update(joined=2),  # seated before it joined
    lambda d: _seated_first(d).update(dropped=1),  # seated after it left
    lambda d: [t.update(round=2) for t in d["tables"]],  # no round 1
    lambda d: d["tables"][1].update(first=d["tables"][0]["first"]),  # at a table and the bye at once
], ids=["before joining", "after leaving", "a round left out", "seated twice"])
def test_an_event_record_whose_rounds_pair_could_not_make_is_refused(pasur, db, tmp_path, monkeypatch, spoil):
    import json
    assert pasur("event", "new", "Night", "Ali", "Sara", "Reza").exit_code == 0
    assert pasur("event", "pair").exit_code == 0
    out = tmp_path / "night.json"
    assert pasur("event", "export", "-o", out).exit_code == 0
    doc = json.loads(out.read_text())
    assert [t["second"] is None for t in doc["tables"]] == [False, True]
    spoil(doc)
    out.write_text(json.dumps(doc))
    monkeypatch.setenv("PASUR_DB", str(tmp_path / "other.db"))
    refused = pasur("import", out)
    assert refused.exit_code == 2 and "malformed" in refused.stderr, refused.output
    assert not (tmp_path / "other.db").exists() or pasur("event", "standings").exit_code == 1
