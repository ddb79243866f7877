"""`pasur export` and `pasur import`: a round trip keeps everything; a bad record is refused."""

import json
import random
import re

import pytest
from simulate import enter, new_match, random_match
from tier import some


def play_random(pasur, seed, players, preset, stop):
    """A match of ``stop`` random actions (or a whole one) entered through `pasur new` and, as a
    table enters them, `pasur deal` and `pasur play`."""
    engine = new_match(pasur, players, preset, ["fixed_deals=2"])
    for number, action in enumerate(random_match(random.Random(seed), engine)):
        if number == stop:
            break
        enter(pasur, action)
        engine.apply(action)


@pytest.mark.parametrize("seed,players,preset,stop", some([
    (3, ("Ali", "Sara", "Reza", "Mina"), "pagat", 30), (1, ("Ali", "Sara"), "pagat", 70),
    (2, ("Ali", "Sara", "Reza"), "standard", 10_000),
], unpack=True))
def test_export_import_round_trip(pasur, tmp_path, seed, players, preset, stop):
    play_random(pasur, seed, players, preset, stop)
    out = tmp_path / "match.json"
    assert pasur("export", "-o", out).exit_code == 0
    doc = json.loads(out.read_text())
    assert doc["format"] == "pasur-match" and doc["version"] == 1 and doc["players"] == list(players)
    assert all(entry["at"] for entry in doc["actions"])
    assert json.loads(pasur("export").output) == doc  # stdout is the same record
    original = {cmd: json.loads(pasur(cmd, "--json", "--match", 1).output) for cmd in ("show", "score")}
    assert pasur("import", out).exit_code == 1  # this database holds that match: it needs --again
    result = pasur("import", out, "--again")
    assert result.exit_code == 0 and "Imported as match 2" in result.output
    copy = {cmd: json.loads(pasur(cmd, "--json", "--match", 2).output) for cmd in ("show", "score")}
    for cmd in ("show", "score"):
        assert copy[cmd].pop("match") == 2 and original[cmd].pop("match") == 1
    # an imported match is a match of its own: its own key, its revision the length of its log
    (key, revision), (their_key, _) = (shown.pop("revision").split(":") for shown in (copy["show"], original["show"]))
    assert key != their_key and int(revision) == copy["show"]["length"]
    assert copy == original
    assert json.loads(pasur("export", "--match", 2).output)["actions"] == doc["actions"]


@pytest.mark.parametrize("created,kept", [("2019-03-21T18:30:00+00:00", True), ("", False), (None, False)])
def test_an_imported_match_keeps_the_day_it_was_created(pasur, tmp_path, created, kept):
    """A record book moved to another computer keeps its dates; a record without one gets today's."""
    play_random(pasur, 6, ("Ali", "Sara"), "pagat", 20)
    doc = json.loads(pasur("export").output)
    if created is None:
        del doc["created"]
    else:
        doc["created"] = created
    (tmp_path / "old.json").write_text(json.dumps(doc))
    assert pasur("import", tmp_path / "old.json", "--again").exit_code == 0  # into the file it came from
    listed = {row["match"]: row["created"] for row in json.loads(pasur("matches", "--json").output)}
    assert (listed[2] == created) == kept
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", listed[2])
    assert json.loads(pasur("export", "--match", 2).output)["created"] == listed[2]
    if kept:
        assert "2019-03-21" in pasur("matches").output


def bad_records(doc):
    broken_play = json.loads(json.dumps(doc))
    broken_play["actions"][3]["action"]["card"] = broken_play["actions"][1]["action"]["card"]
    return [
        ("{not json", "not JSON"),
        (json.dumps({"format": "something"}), "not a pasur match record"),
        (json.dumps({**doc, "version": 9}), "record version 9"),
        (json.dumps({**doc, "players": ["Ali"]}), "2, 3 or 4 players"),
        (json.dumps({**doc, "rules": {**doc["rules"], "sur_points": "lots"}}), "whole number"),
        (json.dumps({**doc, "rules": {**doc["rules"], "house": 1}}), "has unknown fields: \"house\""),
        (json.dumps({**doc, "actions": [*doc["actions"][:2], {"at": "x"}]}), "action 3 of the record is malformed"),
        (json.dumps(broken_play), "action 4"),
    ]


def test_bad_records_are_refused_and_store_nothing(pasur, db, tmp_path):
    play_random(pasur, 5, ("Ali", "Sara"), "pagat", 12)
    doc = json.loads(pasur("export").output)
    before = db.read_bytes()
    for text, words in bad_records(doc):
        path = tmp_path / "bad.json"
        path.write_text(text)
        result = pasur("import", path)
        assert result.exit_code in (1, 2) and words in result.output, (words, result.output)
        assert db.read_bytes() == before
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = pasur("import", path)
    assert result.exit_code == 2 and "not a text file" in result.output
