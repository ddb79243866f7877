"""`pasur tally`: piles and counts give the same score as refereeing the deal; mismatches are refused."""

import json
import random

import pytest
from simulate import random_plays, random_table

from pasur_cli.deal import Deal
from pasur_cli.rules import PRESETS
from pasur_cli.scoring import PileCount


def refereed_deal(seed, players=("Ali", "Sara")):
    rng = random.Random(seed)
    rules = PRESETS["pagat"]
    table, stock = random_table(rng, rules)
    deal = Deal(list(players), list(players), 0, rules, table)
    for player, card, take in random_plays(rng, deal, stock):
        deal.play(card, take, by=player)
    return deal


def counts_text(side, pile):
    p = PileCount.of(pile)
    yn = lambda b: "yes" if b else "no"  # noqa: E731
    return (f"{side}: clubs={p.clubs} aces={p.aces} jacks={p.jacks} two_clubs={yn(p.two_clubs)}"
            f" ten_diamonds={yn(p.ten_diamonds)}")


@pytest.mark.parametrize("seed", range(12))
def test_tally_equals_the_refereed_score(pasur, seed):
    deal = refereed_deal(seed)
    expected = {s: v.as_dict() for s, v in deal.score().items()}
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    surs = [f"--surs={s}={n}" for s, n in deal.surs.items()]
    mixed = seed % 2  # odd seeds give Sara's side as counts, even ones as cards
    args = ["tally", "--pile", "Ali=" + " ".join(c.code for c in deal.piles["Ali"])]
    args += ["--count", counts_text("Sara", deal.piles["Sara"])] if mixed else \
            ["--pile", "Sara=" + " ".join(c.code for c in deal.piles["Sara"])]
    result = pasur(*args, *surs, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["deal"]["scores"] == expected and data["deal"]["tallied"] is True
    score = json.loads(pasur("score", "--json").output)
    assert score["deals"][0]["tallied"] and score["totals"] == {s: v["total"] for s, v in expected.items()}
    assert "(tallied)" in pasur("score").output
    assert pasur("undo").exit_code == 0
    assert json.loads(pasur("score", "--json").output)["deals"] == []


GOOD_A = "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes ten_diamonds=no"
GOOD_S = "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes"


@pytest.mark.parametrize("args,code,words", [
    (["--count", GOOD_A, "--count", "Sara: clubs=4 aces=2 jacks=3 ten_diamonds=yes"], 1,
     "clubs add up to 12 (Ali 8 + Sara 4), not 13"),
    (["--count", GOOD_A, "--count", "Sara: clubs=5 aces=3 jacks=3 ten_diamonds=yes"], 1, "aces add up to 5"),
    (["--count", GOOD_A, "--count", "Sara: clubs=5 aces=2 jacks=3 two_clubs=yes ten_diamonds=yes"], 1,
     "exactly one side holds the 2♣; here: Ali, Sara"),
    (["--count", GOOD_A, "--count", "Sara: clubs=5 aces=2 jacks=3"], 1, "10♦; here: nobody"),
    (["--count", "Ali: clubs=0 two_clubs=yes", "--count", GOOD_S], 1, "the 2♣ counts as a club"),
    (["--count", GOOD_A], 1, "no pile or counts for Sara"),
    (["--count", GOOD_A, "--count", GOOD_S, "--surs", "Reza=1"], 1, "'Reza' is not playing"),
    (["--count", GOOD_A, "--count", GOOD_S, "--surs", "Ali=1", "--surs", "Sara=1"], 1, "only one side can hold surs"),
    (["--count", GOOD_A, "--count", GOOD_S, "--surs", "Ali=x"], 2, "whole number"),
    (["--count", "Ali: clubs=many", "--count", GOOD_S], 2, "whole number"),
    (["--count", "Ali: hearts=3", "--count", GOOD_S], 2, "is not a count"),
    (["--pile", "Ali=AS 2C", "--pile", "Sara=2C 3D"], 1, "2♣ is in the piles of both Ali and Sara"),
    (["--pile", "Ali=AS 2C", "--pile", "Sara=3D"], 1, "the piles hold 3 cards, not 52"),
    (["--pile", "Ali=AS 2C", "--count", GOOD_A], 2, "given twice"),
    ([], 2, "give --pile or --count"),
])
def test_tally_refusals(pasur, db, args, code, words):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    before = db.read_bytes()
    result = pasur("tally", *args)
    assert result.exit_code == code, result.output
    assert words in result.output
    assert db.read_bytes() == before


def test_partial_piles_and_the_sur_limit(pasur, db):
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    result = pasur("tally", "--pile", "Ali=AS 2C 10D", "--pile", "Sara=3D", "--partial", "--json")
    assert result.exit_code == 0 and json.loads(result.output)["totals"] == {"Ali": 6, "Sara": 0}
    # Ali reaches 55: from then on Ali cannot score surs (sur_limit 50)
    pasur("tally", "--count", "Ali: clubs=13 aces=4 jacks=4 two_clubs=yes ten_diamonds=yes", "--count",
          "Sara: clubs=0", "--surs", "Ali=6")
    before = db.read_bytes()
    result = pasur("tally", "--count", GOOD_A, "--count", GOOD_S, "--surs", "Ali=1")
    assert result.exit_code == 1 and "at or above the sur limit 50" in result.output
    assert db.read_bytes() == before


def test_tally_refused_while_a_deal_is_played(pasur, db):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    result = pasur("tally", "--count", GOOD_A, "--count", GOOD_S)
    assert result.exit_code == 1 and "being played card by card" in result.output


def test_team_sides_by_any_player_name(pasur):
    pasur("new", "Ali", "Sara", "Reza", "Mina")
    result = pasur("tally", "--count", "Reza: " + GOOD_A.split(": ")[1], "--count",
                   "Sara & Mina: " + GOOD_S.split(": ")[1], "--json")
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.output)["totals"]) == {"Ali & Reza", "Sara & Mina"}
