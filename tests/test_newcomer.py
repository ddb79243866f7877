"""What a newcomer following the README met and found wrong or unclear, each fixed and kept so:
an event's result before its first round, a dropped entrant added again, the standings at 80
columns, practice saying it reviews what is kept already, and a player's spelling."""

from __future__ import annotations


def test_a_result_before_the_first_round_says_to_pair_it(pasur, db):
    pasur("event", "new", "Night", "--players", "Ali", "Sara", "Reza")
    before = db.read_bytes()
    result = pasur("event", "result", "2", "62-48")
    assert result.exit_code == 1, result.output
    assert "no round of Night is paired yet" in result.stderr and "pasur event pair" in result.stderr
    assert "round 0" not in result.stderr
    assert db.read_bytes() == before
