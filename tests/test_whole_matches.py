"""Whole matches through the CLI, checked against the engine playing the same actions directly."""

import json
import random

import pytest
from simulate import enter, new_match, random_match
from tier import some

from pasur_cli.engine.match import Match
from pasur_cli.engine.rules import parse_rules

NAMES = ["Ali", "Sara", "Reza", "Mina"]
# two players in the quick suite (three and four, teams, pagat: test_snapshots, test_stats, test_tally;
# solo: test_deals); every combination under soak
SOAK = pytest.mark.soak
CASES = [
    (2, "standard", []), pytest.param(2, "pagat", [], marks=SOAK), pytest.param(3, "standard", [], marks=SOAK),
    pytest.param(3, "pagat", [], marks=SOAK), pytest.param(4, "standard", [], marks=SOAK), pytest.param(4, "pagat", [], marks=SOAK),
    pytest.param(4, "standard", ["--solo"], marks=SOAK), pytest.param(4, "pagat", ["--solo"], marks=SOAK),
]


def expected_score(match: Match) -> dict:
    """The score JSON the CLI must print, computed here from the engine's own match."""
    return {
        "rules": match.rules.preset, "target": match.rules.target, "sides": match.sides,
        "totals": match.totals, "finished": match.finished, "winner": match.winner,
        "deals": [{"number": r.number, "dealer": r.dealer, "complete": True, "tallied": False,
                   "scores": {s: v.as_dict() for s, v in r.scores.items()}} for r in match.results],
    }


@pytest.mark.parametrize("players,preset,extra", CASES)
def test_random_match_through_the_cli(pasur, players, preset, extra):
    rng = random.Random(f"match{players}{preset}{extra}")
    overrides = ["fixed_deals=2"]  # a match to the target: test_first_match_to_the_target_with_the_deal_score_printed
    names = NAMES[:players]
    args = ["new", *names, "--rules", preset, "--dealer", names[-1], *extra]
    for o in overrides:
        args += ["--rule", o]
    assert pasur(*args).exit_code == 0
    rules = parse_rules(preset, overrides + (["teams=false"] if extra else []))
    engine = Match(names, rules, players - 1)
    for action in random_match(rng, engine):
        result = enter(pasur, action)
        assert result.exit_code == 0, result.output
        engine.apply(action)
        if rng.random() < 0.02:  # take back some actions and enter them again
            shown = json.loads(pasur("show", "--json").output)
            assert pasur("undo").exit_code == 0
            assert enter(pasur, action).exit_code == 0
            again = json.loads(pasur("show", "--json").output)
            key, revision = shown.pop("revision").split(":")
            assert again.pop("revision") == f"{key}:{int(revision) + 2}"  # the same match, two changes on
            assert again == shown
    score = json.loads(pasur("score", "--json").output)
    assert score.pop("match") == 1
    assert score == expected_score(engine)
    assert score["finished"] and score["winner"] in engine.sides
    show = json.loads(pasur("show", "--json").output)
    assert show["finished"] and show["winner"] == engine.winner
    refused = pasur("deal", "2C", "3C", "4C", "5C")
    assert refused.exit_code == 1 and "over" in refused.output


@pytest.mark.parametrize("target", some([31, 62]))  # the standard target under soak
def test_first_match_to_the_target_with_the_deal_score_printed(pasur, target):
    rng = random.Random(62)
    assert pasur("new", "Ali", "Sara", "--rule", f"target={target}").exit_code == 0
    engine = Match(["Ali", "Sara"], parse_rules("standard", [f"target={target}"]))
    last = None
    for action in random_match(rng, engine):
        last = enter(pasur, action)
        engine.apply(action)
    assert max(engine.totals.values()) >= target
    assert f"{engine.winner} won the match" in last.output and "Deal " in last.output
    matches = json.loads(pasur("matches", "--json").output)
    assert matches[0]["winner"] == engine.winner and matches[0]["deals"] == len(engine.results)


def test_undo_then_replay_gives_identical_results(pasur):
    rng = random.Random(7)
    engine = new_match(pasur, ["Ali", "Sara"], "pagat", ["fixed_deals=1"])
    actions = []
    for action in random_match(rng, engine):
        engine.apply(action)
        actions.append(action)
    for action in actions:
        enter(pasur, action)
    final = pasur("score", "--json").output
    cut = rng.randrange(1, len(actions))
    assert pasur("undo", cut).exit_code == 0
    assert json.loads(pasur("show", "--json").output)["finished"] is False
    for action in actions[-cut:]:
        assert enter(pasur, action).exit_code == 0
    assert pasur("score", "--json").output == final


def test_the_player_after_the_dealer_leads(pasur):
    result = pasur("new", "Ali", "Sara", "Reza", "--dealer", "Reza")
    assert "Reza deals first; Ali leads." in result.output
    pasur("deal", "5C", "9D", "3H", "KS")
    assert json.loads(pasur("show", "--json").output)["turn"] == "Ali" == Match(["Ali", "Sara", "Reza"], parse_rules(), 2).leader


def test_score_line_before_and_after_the_first_deal(pasur):
    pasur("new", "Ali", "Sara")
    assert pasur("score").output.endswith("Level at 0; target 62. Next: deal 1, Ali deals.\n")
    pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",  # 7 + 2 + 2 + 1
          "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")  # 3 + 2 + 3
    assert pasur("score").output.endswith("Ali leads with 12; target 62. Next: deal 2, Sara deals.\n")
