"""Issue 30, one reader per format: an action is a frozen value read once (``read_action`` of its
JSON form, ``read_line`` of its stored line), and its two written forms read back to it."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from simulate import random_match
from tier import sized

from pasur_cli.engine.action import DealAction, PlayAction, TallyAction, read_action, read_line
from pasur_cli.engine.errors import IllegalPlayError, NotationError
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import NAME_MOST
from pasur_cli.engine.rules import PRESETS


@sized(20)
@given(st.integers(0, 10**6), st.sampled_from([("Ali", "Sara"), ("Ali", "Sara", "Reza")]))
def test_each_action_reads_back_from_its_line_and_its_json(seed, players):
    import itertools
    import random
    rng, match = random.Random(seed), Match(list(players), PRESETS["pagat"])
    match.tally(counts={side: ({"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True, "ten_diamonds": True}
                               if side == match.sides[0] else {}) for side in match.sides}, surs={})
    for action in itertools.islice(random_match(rng, match), 60):  # a table, then plays
        match.apply(action)
    assert match.log and all(isinstance(a, DealAction | PlayAction | TallyAction) for a in match.log)
    for action in match.log:
        assert read_line(action.line) == action
        assert read_action(action.as_dict(), complete=True) == action
        assert hash(read_line(action.line)) == hash(action)
    again = Match.replay(list(players), match.rules, 0, [a.as_dict() for a in match.log])
    assert again.log == match.log and again.results == match.results


def test_a_tally_reads_to_its_canonical_form_however_written():
    counts = {"Ali": {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True, "ten_diamonds": True}, "Sara": {}}
    tally = read_action({"type": "tally", "counts": counts})
    assert tally.as_dict()["counts"]["Sara"] == {"clubs": 0, "aces": 0, "jacks": 0, "two_clubs": False,
                                                 "ten_diamonds": False, "seven_diamonds": False}
    assert tally.line.startswith('tally\t{"piles": {}, "counts": {"Ali": {"clubs": 13, ')
    piles = read_action({"type": "tally", "piles": {"Ali": ["kh", "2c", "AS"]}, "partial": True})
    assert piles.as_dict()["piles"] == {"Ali": ["AS", "2C", "KH"]}


@pytest.mark.parametrize("action,words", [
    ({"type": "play", "card": "2S", "take": ["9D", "9d"]}, "9♦ is named twice in the capture"),
    ({"type": "tally", "surs": {"Ali": 1, " Ali ": 1}}, "names a side twice"),
    ({"type": "play", "card": "2S", "take": [], "by": "\ud800"}, "lone surrogate (U+D800)"),
    ({"type": "play", "card": "2S"}, "lacks take"),
])
def test_the_one_reader_names_what_is_wrong(action, words):
    with pytest.raises(NotationError) as caught:
        read_action(action, complete=True)
    assert words in str(caught.value)


def test_the_initial_table_is_four_cards_in_one_sentence():
    match = Match(["Ali", "Sara"], PRESETS["pagat"])
    with pytest.raises(NotationError, match=r"the initial table is 4 cards; 3 were given"):
        match.start_deal(["5C", "9D", "3H"])
    assert match.log == []


def test_a_match_refuses_a_name_longer_than_the_store_keeps():
    with pytest.raises(IllegalPlayError, match=f"at most {NAME_MOST}"):
        Match(["A" * 300, "Sara"], PRESETS["pagat"])
    assert Match(["A" * NAME_MOST, "Sara"], PRESETS["pagat"]).players[0] == "A" * NAME_MOST
