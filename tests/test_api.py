"""The engine as a library: the public names, the Python examples of the README and docs/library.md, undo,
strict actions."""

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tier import sized

import pasur_cli
from pasur_cli import (
    DECK,
    PRESETS,
    AmbiguousPlayError,
    IllegalPlayError,
    Match,
    NotationError,
    check_action,
    check_players,
    legal_captures,
)

README = Path(__file__).parent.parent / "README.md"
LIBRARY = README.parent / "docs" / "library.md"


def test_the_readme_python_example_runs():
    failed, tried = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried >= 5 and failed == 0


def test_the_library_pages_whole_deal_runs():
    failed, tried = doctest.testfile(str(LIBRARY), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 10 and failed == 0


def test_every_public_name_loads_and_is_documented():
    for name in pasur_cli.__all__:
        value = getattr(pasur_cli, name)
        if callable(value):
            assert value.__doc__, name
    with pytest.raises(AttributeError):
        pasur_cli.nothing_like_this  # noqa: B018


def test_importing_the_package_loads_no_engine_module():
    probe = "import sys, pasur_cli; print(sorted(m for m in sys.modules if m.startswith('pasur_cli')))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['pasur_cli']"


def random_match(seed: int, players=("Ali", "Sara"), rules=PRESETS["pagat"], deals: int = 2) -> Match:
    import random
    rng = random.Random(seed)
    match = Match(list(players), rules)
    while len(match.results) < deals and not match.finished:
        while True:
            stock = list(DECK)
            rng.shuffle(stock)
            try:
                deal = match.start_deal(stock[:4])
                break
            except IllegalPlayError:
                continue
        stock = list(deal.unseen_cards)
        rng.shuffle(stock)
        for card in stock:
            options = legal_captures(card, deal.table, match.rules).options
            match.play(card, rng.choice(options) if options else [])
    return match


@sized(15)
@given(st.integers(0, 10**6), st.sampled_from([("A", "B"), ("A", "B", "C"), ("A", "B", "C", "D")]))
def test_the_log_replays_to_the_same_match_and_undo_walks_it_back(seed, players):
    match = random_match(seed, players, deals=1)
    again = Match.replay(list(players), match.rules, 0, match.log)
    assert again.results == match.results and again.log == match.log
    log = list(match.log)
    for _ in range(7):
        taken = match.undo()
        assert taken == log.pop().as_dict() and match.log == log
    assert match.results == [] and match.deal is not None and match.deal.played == 48 - 7
    assert Match.replay(list(players), match.rules, 0, log).deal.table == match.deal.table


def test_play_refuses_before_changing_anything():
    match = Match(["Ali", "Sara"], PRESETS["standard"])
    match.start_deal("5C 9D 3H KS")
    log = list(match.log)
    for args, error in [(("9D",), IllegalPlayError), (("2S", None, "Ali"), IllegalPlayError),
                        (("2X",), NotationError), (("2S", ["5C"]), IllegalPlayError)]:
        with pytest.raises(error):
            match.play(*args)
        assert not match.can_play(*args)
        assert match.log == log
    pagat = Match(["Ali", "Sara"], PRESETS["pagat"])
    pagat.start_deal("AC 2D 4H 5C")
    with pytest.raises(AmbiguousPlayError) as caught:
        pagat.play("5S")  # AC 5C or 2D 4H
    assert len(caught.value.options) == 2 and len(pagat.log) == 1


VALID = [{"type": "deal", "table": ["5C", "9D", "3H", "KS"]}, {"type": "play", "card": "2S", "take": ["9D"], "by": "Sara"}]


def mutations():
    """Values a field might be given in a hostile record, for every field of the actions."""
    junk = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=5),
                     st.lists(st.text(max_size=3), max_size=5), st.dictionaries(st.text(max_size=3), st.integers()))
    return st.tuples(st.integers(0, 1), st.sampled_from(["type", "table", "card", "take", "by", "extra"]), junk)


@sized(30)
@given(mutations())
def test_an_action_apply_accepts_replays_from_its_canonical_form(mutation):
    which, field, value = mutation
    actions = [dict(a) for a in VALID]
    actions[which][field] = value
    match = Match(["Ali", "Sara"], PRESETS["pagat"])
    try:
        for action in actions:
            match.apply(action)
    except (NotationError, IllegalPlayError, AmbiguousPlayError):
        return  # refused: a PasurError naming what is wrong, never another exception
    again = Match.replay(["Ali", "Sara"], PRESETS["pagat"], 0, [a.as_dict() for a in match.log])
    assert again.log == match.log and again.deal.table == match.deal.table


@pytest.mark.parametrize("action,words", [
    ({"type": "play", "card": "2S KH"}, "is not a card"),
    ({"type": "play", "card": ["2S"]}, "\"card\" is one card"),
    ({"type": "play", "card": "2S", "take": "9D"}, "\"take\" is a list"),
    ({"type": "play", "card": "2S", "take": None}, "\"take\" is a list"),
    ({"type": "play", "card": "2S", "by": 3}, "\"by\" is a player's name"),
    ({"type": "play", "card": "2S", "at": 3}, "no field at"),
    ({"type": "deal", "table": "5C 9D 3H KS"}, "\"table\" is a list of cards"),
    ({"type": "tally", "surs": {"Ali": True}}, "surs of Ali"),
    ({"type": "tally", "surs": {"Ali": float("inf")}}, "surs of Ali"),
    ({"type": "tally", "counts": {"Ali": {"clubs": 10**100}}}, "clubs of Ali"),
    ({"type": "tally", "partial": 1}, "\"partial\""),
    ({"type": "bet"}, "unknown action type \"bet\""),
    ({"type": None}, "unknown action type null"),
    ([], "an action is an object, not []"),  # the value as JSON, never Python's name for its type
    ("play 2S", "an action is an object, not \"play 2S\""),
])
def test_check_action_names_the_field(action, words):
    with pytest.raises(NotationError) as caught:
        check_action(action)
    assert words in str(caught.value)


# -- names (issue 9, promise 5) --------------------------------------------------------------------
FORMAT_AND_CONTROL = [chr(c) for c in (*range(0, 32), 127, *range(0x80, 0xA0), 0xAD, 0x200B, 0x200E, 0x200F,
                                       *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF, 0x061C)]


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp")),
               min_size=0, max_size=6), st.sampled_from(FORMAT_AND_CONTROL), st.integers(0, 6))
def test_a_name_with_a_control_or_format_character_is_refused_naming_it(name, bad, at):
    spoiled = name[:at] + bad + name[at:]
    with pytest.raises(IllegalPlayError) as caught:
        check_players([spoiled, "Bob"])
    assert f"U+{ord(bad):04X}" in str(caught.value) or "shows nothing" in str(caught.value) or \
        "cannot be empty" in str(caught.value)


@given(st.text(alphabet=st.sampled_from(" \u00a0\u3000\u2003\u3164\u2800\u0301\u115f"), min_size=1, max_size=5))
def test_a_name_of_only_invisible_characters_is_refused(name):
    with pytest.raises(IllegalPlayError):
        check_players([name, "Bob"])


@given(st.sampled_from(["José", "Ünal", "Chloé", "Åsa", "Zoë"]), st.sampled_from(["NFC", "NFD"]),
       st.sampled_from(["NFC", "NFD"]), st.booleans())
def test_names_equal_after_normalization_and_case_folding_are_refused(name, first, second, upper):
    import unicodedata
    other = unicodedata.normalize(second, name.upper() if upper else name)
    with pytest.raises(IllegalPlayError, match=r"named twice|are the same name"):
        check_players([unicodedata.normalize(first, name), other])


def test_names_are_stored_in_nfc_and_every_script_works():
    names = check_players(["Jose\u0301", "علی", "Größe", "王小明"])
    assert names == ["José", "علی", "Größe", "王小明"]
    with pytest.raises(IllegalPlayError, match=r"U\+D800"):
        check_players(["\ud800x", "Bob"])
    match = Match(names, PRESETS["standard"])
    assert match.player_named("JOSE\u0301") == "José"


# A script that knows only the public names (every one it uses is in __all__), run in a fresh
# process (nothing else of pasur imported), replays whole matches, played and tallied, and gets
# the scores the CLI prints for them: one process for all the matches, one record a line.
SCRIPT = '''
import json, sys
from pasur_cli import Match, Rules
names = {"Match", "Rules"}
import pasur_cli
assert names <= set(pasur_cli.__all__)
for line in sys.stdin:
    doc = json.loads(line)
    match = Match(doc["players"], Rules.from_dict(doc["rules"]), doc["players"].index(doc["dealer"]))
    for entry in doc["actions"]:
        match.apply(entry["action"])
    print(json.dumps({"deals": [{side: score.as_dict() for side, score in result.scores.items()}
                                for result in match.results],
                      "totals": match.totals, "winner": match.winner, "finished": match.finished}))
'''


@pytest.mark.parametrize("seeds", [range(8), pytest.param(range(8, 200), marks=pytest.mark.soak)])
def test_a_script_of_public_names_replays_matches_to_the_cli_scores(tmp_path, seeds):
    import random

    from click.testing import CliRunner
    from matchbook import random_match as whole_match
    from matchbook import stored

    from pasur_cli.cli.app import main

    path = tmp_path / "pasur.db"
    ids = stored(path, [whole_match(random.Random(seed)) for seed in seeds])
    runner = CliRunner()
    scores = [json.loads(runner.invoke(main, ["--db", str(path), "score", "--json", "--match", str(mid)]).output)
              for mid in ids]
    records = [json.dumps(json.loads(runner.invoke(main, ["--db", str(path), "export", "--match", str(mid)]).output))
               for mid in ids]
    script = subprocess.run([sys.executable, "-c", SCRIPT], input="\n".join(records), capture_output=True, text=True,
                            check=True)
    replayed = [json.loads(line) for line in script.stdout.splitlines()]
    assert len(replayed) == len(scores)
    for mine, score in zip(replayed, scores, strict=True):
        assert mine["deals"] == [deal["scores"] for deal in score["deals"]]
        assert (mine["totals"], mine["winner"], mine["finished"]) == (score["totals"], score["winner"], score["finished"])


def test_start_deal_and_tally_have_the_trio_play_has() -> None:
    """verify_ raises the reason, can_ says whether, the action does it: one code path each."""
    match = pasur_cli.Match(["Ali", "Sara"], pasur_cli.PRESETS["pagat"])
    assert not match.can_start_deal("JC JD 3H 4S")
    with pytest.raises(pasur_cli.IllegalPlayError, match="misdeal"):
        match.verify_start_deal("JC JD 3H 4S")
    assert match.verify_start_deal("5C 9D 3H KS") == tuple(pasur_cli.parse_cards("5C 9D 3H KS"))
    assert match.length == 0  # asking changed nothing
    everything = {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True, "ten_diamonds": True}
    assert not match.can_tally(counts={"Ali": everything, "Sara": {"clubs": 1}})
    result = match.verify_tally(counts={"Ali": everything, "Sara": {}})
    assert match.length == 0 and not match.results
    assert match.tally(counts={"Ali": everything, "Sara": {}}) == result
    match.start_deal("5C 9D 3H KS")
    with pytest.raises(pasur_cli.IllegalPlayError, match="being played card by card"):
        match.verify_tally(counts={"Ali": everything, "Sara": {}})


def _record(actions: list[dict[str, object]], players: tuple[str, ...] = ("Ali", "Sara")) -> str:
    return json.dumps({"format": "pasur-match", "version": 1, "players": list(players),
                       "rules": pasur_cli.PRESETS["pagat"].as_dict(), "actions": [{"action": a} for a in actions]})


@pytest.mark.parametrize("surs,accepted", [(48, True), (49, False), (60, False)])
def test_the_record_reader_and_the_engine_share_one_table_of_limits(surs, accepted):
    """60 surs passed the record's own bound (99) and failed the engine's (48): one table now."""
    piles = {"Ali": [c.code for c in pasur_cli.DECK]}
    tally = {"type": "tally", "piles": piles, "counts": {"Sara": {}}, "surs": {"Ali": surs}}
    engine_ok = True
    try:
        pasur_cli.check_action(tally)
    except pasur_cli.NotationError:
        engine_ok = False
    assert engine_ok is accepted
    try:
        pasur_cli.read_record(_record([tally]))
    except pasur_cli.NotationError as err:
        assert not accepted and "48" in str(err)
    except pasur_cli.PasurError:  # a rule of the match (it scores), not a bound
        assert accepted
    else:
        assert accepted


def test_a_name_the_engine_refuses_is_refused_by_the_record_reader():
    with pytest.raises(pasur_cli.PasurError, match="at most 40"):
        pasur_cli.read_record(_record([], players=("A" * 50, "Sara")))
