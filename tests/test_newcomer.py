"""What a newcomer following the README met and found wrong or unclear, each fixed and kept so:
an event's result before its first round, a dropped entrant added again, the standings at 80
columns, practice saying it reviews what is kept already, and a player's spelling."""

from __future__ import annotations

import json
import random
from pathlib import Path

from simulate import random_match

from pasur_cli.cli.practice import marked_decisions
from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import PRESETS
from pasur_cli.store.database import Store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


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


def one_deal_stored(db) -> None:
    """Match 1 of ``db``: one deal of random legal plays, finished, and a second one dealt."""
    match = Match(["Ali", "Sara"], PRESETS["standard"])
    for action in random_match(random.Random(7), match):
        match.apply(action)
        if match.results and match.deal is not None:
            break
    store = Store(str(db), write=True, create=True)
    store.create(match.players, match.rules, 0, match.log)
    store.close()


def test_practice_says_it_reviews_a_deal_only_when_the_review_is_made_not_when_it_is_kept(db):
    one_deal_stored(db)
    store = Store(str(db), write=True)
    try:
        told: list[int] = []
        first = marked_decisions(store, None, (1, 1), told.append)
        assert told == [1]
        again = marked_decisions(store, None, (1, 1), told.append)
        assert told == [1] and again == first
    finally:
        store.close()


def test_the_ratings_spell_a_player_as_the_record_book_does(pasur, db):
    """Season 5 writes "reza"; season 6, newer and unfinished, "Reza": both tables say "Reza"."""
    for season in (2, 5, 6):
        assert pasur("import", EXAMPLES / f"season-{season}.json").exit_code == 0
    book = {row["name"] for row in json.loads(pasur("stats", "--json").output)["players"]}
    rated = {row["name"] for row in json.loads(pasur("stats", "--ratings", "--json").output)["players"]}
    assert "Reza" in book and "reza" not in book
    assert rated == book


def test_a_read_names_every_other_table_in_play_in_one_plain_list(pasur, db):
    for players, table in ((["Ali", "Sara"], "3"), (["Reza", "Mina"], "Rose"), (["Omid", "Nima"], None)):
        assert pasur("new", *players, *(["--table", table] if table else [])).exit_code == 0
    for match in (1, 2, 3):
        assert pasur("--match", match, "deal", "5C", "9D", "3H", "KS").exit_code == 0
    said = pasur("show").stderr.strip()
    assert said == "Showing match 3. Also in play: match 2 (table Rose), match 1 (table 3); choose with --match N."
