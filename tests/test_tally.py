"""`pasur tally`: piles and counts give the same score as refereeing the deal; mismatches are refused."""

import json
import random

import pytest
from simulate import random_plays, random_table

from pasur_cli.engine.deal import Deal
from pasur_cli.engine.rules import PRESETS
from pasur_cli.engine.scoring import PileCount, SideScore


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


# -- asked side by side (`pasur tally` at a terminal, `tally` in the session) -------------------
class Script:
    """A reader that answers each question from a list and keeps the questions asked."""

    def __init__(self, answers):
        self.answers, self.asked = list(answers), []

    def __call__(self, prompt):
        self.asked.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def ask(players, answers, rules="pagat", deal=None):
    from pasur_cli.cli.commands.tally import ask_tally
    from pasur_cli.engine.match import Match
    from pasur_cli.text.render import Look
    match = Match(list(players), PRESETS[rules])
    if deal:
        match.start_deal(deal)
    script = Script(answers)
    return ask_tally(match, script, Look()), script


@pytest.mark.parametrize("answer,option,sentence", [
    ("clubs=99", ["--count", "Ali: clubs=99", "--count", GOOD_S], "a tally's clubs of Ali is a whole number from 0 to 13."),
    ("aces=5", ["--count", "Ali: aces=5", "--count", GOOD_S], "a tally's aces of Ali is a whole number from 0 to 4."),
    ("clubs=8 jacks=12", ["--count", "Ali: clubs=8 jacks=12", "--count", GOOD_S],
     "a tally's jacks of Ali is a whole number from 0 to 4."),
])
def test_an_impossible_count_is_asked_again_with_the_options_sentence(pasur, capsys, answer, option, sentence):
    given, script = ask(["Ali", "Sara"], [answer, GOOD_A.split(": ")[1], "0", GOOD_S.split(": ")[1], ""])
    out = capsys.readouterr().out
    assert f"Error: {sentence}\n" in out and "PileCount" not in out
    assert script.asked[:2] == ["Ali: pile or counts: "] * 2  # refused at once, asked again
    assert given[1] == [GOOD_A, GOOD_S]
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    refused = pasur("tally", *option)
    assert refused.exit_code == 2 and f"Error: {sentence}" in refused.output  # the same sentence


def test_impossible_surs_are_asked_again_with_the_options_sentence(pasur, capsys):
    given, script = ask(["Ali", "Sara"], [GOOD_A.split(": ")[1], "49", "1", GOOD_S.split(": ")[1], ""])
    out = capsys.readouterr().out
    sentence = "a tally's surs of Ali are a whole number from 0 to 48."
    assert f"Error: {sentence}\n" in out
    assert script.asked[1:3] == ["Surs held by Ali at the end of the deal [0]: "] * 2
    assert given[2] == ["Ali=1", "Sara=0"]
    pasur("new", "Ali", "Sara", "--rules", "pagat")
    refused = pasur("tally", "--count", GOOD_A, "--count", GOOD_S, "--surs", "Ali=49")
    assert refused.exit_code == 2 and f"Error: {sentence}" in refused.output


SCORE = dict.fromkeys(("clubs", "clubs_points", "two_clubs", "ten_diamonds", "aces", "jacks", "surs", "sur_points",
                       "seven_diamonds", "total"), 0)


@pytest.mark.parametrize("make,field", [
    (lambda: PileCount(clubs=14), "clubs"), (lambda: PileCount(aces=-1), "aces"), (lambda: PileCount(jacks=True), "jacks"),
    (lambda: PileCount(two_clubs=1), "two_clubs"), (lambda: SideScore(**{**SCORE, "clubs": 99}), "clubs"),
])
def test_no_refusal_of_a_pile_count_or_score_names_its_class(make, field):
    """The sentence a player could meet names the field, never the engine's class."""
    from pasur_cli.engine.errors import NotationError
    with pytest.raises(NotationError) as caught:
        make()
    assert field in str(caught.value)
    assert "PileCount" not in str(caught.value) and "SideScore" not in str(caught.value)


def test_a_tally_during_a_deal_is_refused_before_the_first_question():
    from pasur_cli.engine.errors import IllegalPlayError
    with pytest.raises(IllegalPlayError, match="deal 1 is being played card by card"):
        ask(["Ali", "Sara"], [], deal=["5C", "9D", "3H", "KS"])


def test_the_session_refuses_a_tally_during_a_deal_before_asking(pasur, db):
    pasur("new", "Ali", "Sara")
    result = pasur("session", input="5c 9d 3h ks\ntally\n2s\n")
    assert "Error: deal 1 is being played card by card; finish or undo it before a tally." in result.output
    assert "Tally of deal" not in result.output
    assert "Sara plays 2♠ and takes 9♦." in result.output  # the next line is a play, not an answer


def test_the_tally_intro_isolates_its_facts_in_persian(capsys):
    from pasur_cli.cli.commands.tally import ask_tally
    from pasur_cli.engine.match import Match
    from pasur_cli.text import i18n
    from pasur_cli.text.i18n import FSI, PDI
    from pasur_cli.text.render import Look
    i18n.set_language("fa")
    match = Match(["Ali", "Sara"], PRESETS["pagat"])
    with pytest.raises(EOFError):
        ask_tally(match, Script([]), Look(rtl=True))
    intro = capsys.readouterr().out.splitlines()[0]
    assert f"{FSI}1{PDI}" in intro and f"{FSI}Ali{PDI}" in intro, intro
