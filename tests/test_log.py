"""`pasur log`: the engine's records of every action, in the order played, and `pasur matches`
with its filters and dates."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from matchbook import random_match, stored
from tier import sized

from pasur_cli.cli.app import main


def run(db: Path, *args: str):
    return CliRunner().invoke(main, [*args, "--db", str(db)], catch_exceptions=False)


# each example builds, stores and reads back a whole match: a fraction of the profile's examples
@sized(5)
@given(seed=st.integers(0, 2**32 - 1), finished=st.booleans())
def test_the_log_is_every_action_and_every_result(seed, finished):
    players, rules, dealer, actions, match = random_match(random.Random(seed), finished=finished)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pasur.db"
        stored(db, [(players, rules, dealer, actions, match)])
        events = json.loads(run(db, "log", "--json").output)
        score = json.loads(run(db, "score", "--json").output)
        text = run(db, "log", "--ascii").output
        if match.results:
            deal = random.Random(seed).randrange(len(match.results)) + 1
            one = json.loads(run(db, "log", "--json", "--deal", str(deal)).output)
            assert one == [e for e in events if e["deal"] == deal]

    # the deals' tables and the plays, in order, are the log's actions; a tally has no event of its own
    said = [{"type": "deal", "table": e["table"]} if e["event"] == "deal" else
            {"type": "play", "card": e["play"]["card"], "take": e["play"]["taken"], "by": e["play"]["player"]}
            for e in events if e["event"] in ("deal", "play")]
    recorded = [a if a["type"] == "deal" else {**a, "take": sorted(a["take"], key=_order)}
                for a in actions if a["type"] != "tally"]
    assert said == recorded
    # one result per finished deal, as `score` has it, with the running totals
    results = [e for e in events if e["event"] == "result"]
    complete = [d for d in score["deals"] if d["complete"]]
    assert [(r["result"]["number"], r["result"]["dealer"], r["result"]["tallied"], r["result"]["scores"])
            for r in results] == [(d["number"], d["dealer"], d["tallied"], d["scores"]) for d in complete]
    if results:
        assert results[-1]["totals"] == score["totals"]
    # after each played deal, the leftover goes to the player who made the last capture
    for number, leftover in ((e["deal"], e) for e in events if e["event"] == "leftover"):
        captures = [e["play"] for e in events if e["event"] == "play" and e["deal"] == number and e["play"]["taken"]]
        if captures:
            assert leftover["player"] == captures[-1]["player"]
    # the text: a line per play, a line per tallied deal and per scored deal
    lines = text.splitlines()
    plays = [e for e in events if e["event"] == "play"]
    assert sum(", hand " in line for line in lines) == len(plays)
    assert sum("tallied):" in line for line in lines) == sum(d["tallied"] for d in complete)
    assert sum(" scored: " in line for line in lines) == sum(not d["tallied"] for d in complete)
    if plays:
        first = plays[0]
        after = next(i for i, line in enumerate(lines) if line.startswith(f"Deal {first['deal']} (")) + 1
        assert lines[after].startswith(f"Deal {first['deal']}, hand 1: {first['play']['player']} plays"
                                       f" {first['play']['card']}")


def _order(code: str) -> tuple[int, str]:
    from pasur_cli.engine.cards import parse_card
    card = parse_card(code)
    return card.rank, card.suit


def test_the_log_in_words(pasur):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    pasur("deal", "5C", "9D", "3H", "KS")
    for card in ("2S", "6H", "5S", "3C", "KH", "4D"):
        pasur("play", card)
    pasur("undo")  # an undone play leaves no trace
    assert pasur("log").output == (
        "Deal 1 (Ali dealt, tallied): Ali 12, Sara 8. Match: Ali 12, Sara 8.\n"
        "\n"
        "Deal 2 (Sara deals). Table: 5♣ 9♦ 3♥ K♠\n"
        "Deal 2, hand 1: Ali plays 2♠ and takes 9♦.\n"
        "Deal 2, hand 1: Sara plays 6♥ and takes 5♣.\n"
        "Deal 2, hand 1: Ali plays 5♠: trailed.\n"
        "Deal 2, hand 1: Sara plays 3♣ and takes 3♥ 5♠.\n"
        "Deal 2, hand 1: Ali plays K♥ and takes K♠ (sur).\n")
    assert pasur("log", "--deal", "1", "--ascii").output == (
        "Deal 1 (Ali dealt, tallied): Ali 12, Sara 8. Match: Ali 12, Sara 8.\n")
    refused = pasur("log", "--deal", "3")
    assert refused.exit_code == 2 and "there is no deal 3: this match has deals 1 to 2." in refused.output


def test_matches_finds_by_player_and_unfinished_with_dates(pasur):
    pasur("new", "Ali", "Sara")
    pasur("new", "sara", "Reza", "--rule", "target=11")
    pasur("tally", "--count", "sara: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Reza: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--match", "2")  # two in play: named
    pasur("new", "Mina", "Reza")
    every = json.loads(pasur("matches", "--json").output)
    assert [m["match"] for m in every] == [3, 2, 1]
    assert all(m["created"][:4].isdigit() and m["created"][10] == "T" for m in every)
    assert [m["match"] for m in json.loads(pasur("matches", "--json", "--player", "SARA").output)] == [2, 1]
    assert [m["match"] for m in json.loads(pasur("matches", "--json", "--unfinished").output)] == [3, 1]
    assert [m["match"] for m in json.loads(pasur("matches", "--json", "--unfinished", "--player", "reza").output)] \
        == [3]
    text = pasur("matches", "--player", "Reza").output
    assert text.splitlines()[0].split()[:2] == ["match", "date"]
    assert every[0]["created"][:10] in text
    assert pasur("matches", "--player", "Zed").output == "No match fits.\n"
