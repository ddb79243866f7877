"""What a newcomer following the README met and found wrong or unclear, each fixed and kept so:
an event's result before its first round, a dropped entrant added again, the standings at 80
columns, practice saying it reviews what is kept already, and a player's spelling."""

from __future__ import annotations

import json


def test_a_result_before_the_first_round_says_to_pair_it(pasur, db):
    pasur("event", "new", "Night", "--players", "Ali", "Sara", "Reza")
    before = db.read_bytes()
    result = pasur("event", "result", "2", "62-48")
    assert result.exit_code == 1, result.output
    assert "no round of Night is paired yet" in result.stderr and "pasur event pair" in result.stderr
    assert "round 0" not in result.stderr
    assert db.read_bytes() == before


def test_a_dropped_entrant_added_again_comes_back_until_a_round_is_paired_without_them(pasur, db):
    pasur("event", "new", "Night", "--players", "Ali", "Sara", "Reza", "Mina")
    pasur("event", "pair")
    assert pasur("event", "drop", "Mina").exit_code == 0
    back = pasur("event", "add", "mina")
    assert back.exit_code == 0 and "Mina is back in Night: paired again from round 2." in back.output
    standings = json.loads(pasur("event", "standings", "--json").output)["standings"]
    assert [e["dropped"] for e in standings if e["name"] == "Mina"] == [None]
    for table in (1, 2):
        pasur("event", "result", table, "62-40")
    assert pasur("event", "drop", "Mina").exit_code == 0
    paired = pasur("event", "pair")
    assert paired.exit_code == 0 and "Mina" not in paired.output
    before = db.read_bytes()
    refused = pasur("event", "add", "Mina")
    assert refused.exit_code == 1 and "Mina left Night from round 2, and round 2 was paired without them" in refused.stderr
    assert "entered twice" not in refused.stderr and db.read_bytes() == before
