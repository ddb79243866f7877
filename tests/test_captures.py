"""Property tests: the capture lister and the validator agree with each other and with brute force
(tests/naive.py, RULES.md section 4 tried on every subset)."""

from hypothesis import given
from hypothesis import strategies as st
from naive import naive_captures, splits, subsets, sum_wanted, total
from tier import sized

from pasur_cli.engine.captures import CAP, capture_problem, legal_captures
from pasur_cli.engine.cards import DECK
from pasur_cli.engine.rules import PRESETS, parse_rules

RULE_SETS = [
    PRESETS["standard"], PRESETS["pagat"],
    parse_rules("standard", ["jack_capture=sum11"]), parse_rules("pagat", ["jack_capture=sum11"]),
    parse_rules("pagat", ["court_capture=all"]), parse_rules("standard", ["court_capture=one"]),
    parse_rules("standard", ["capture_mode=rank"]),
]


@st.composite
def positions(draw, most=9):
    cards = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=most + 1, unique=True))
    rules = draw(st.sampled_from(RULE_SETS))
    return cards[0], cards[1:], rules


@sized(50)
@given(positions())
def test_list_equals_brute_force(position):
    card, table, rules = position
    found = legal_captures(card, table, rules)
    expected = naive_captures(card, table, rules)
    assert not found.truncated or len(expected) > CAP
    assert set(found.options) == expected
    assert found.count == len(expected)
    # no choice exactly when at most one capture is legal: the engine plays it, nobody is asked
    assert found.forced == (next(iter(expected)) if len(expected) == 1 else () if not expected else None)


@sized(50)
@given(positions(), st.data())
def test_validator_accepts_exactly_the_listed(position, data):
    card, table, rules = position
    found = legal_captures(card, table, rules)
    for option in found.options:
        assert capture_problem(card, table, option, rules) is None
    take = data.draw(st.lists(st.sampled_from(table), unique=True)) if table else []
    legal = capture_problem(card, table, take, rules) is None
    assert legal == (tuple(sorted(take)) in found.options or (not take and found.trail))


@sized(50)
@given(positions(most=14))
def test_trail_exactly_when_nothing_to_capture(position):
    card, table, rules = position
    found = legal_captures(card, table, rules)
    assert found.trail == (found.count == 0)
    assert (capture_problem(card, table, [], rules) is None) == found.trail


@sized(50)
@given(positions(most=12))
def test_multi_captures_are_maximal_disjoint_unions(position):
    card, table, _ = position
    rules = PRESETS["standard"]
    wanted = sum_wanted(card, rules)
    if wanted is None:
        return
    for take in legal_captures(card, table, rules).options:
        assert all(c.is_numeral for c in take) and splits(list(take), wanted)
        rest = [c for c in table if c.is_numeral and c not in take]
        assert not any(s and total(s) == wanted for s in subsets(rest))


def test_big_tables_are_capped_not_exhausted():
    table = [c for c in DECK if c.is_numeral and c.code not in ("5C",)][:39]
    card = next(c for c in DECK if c.code == "AC")
    for rules in (PRESETS["standard"], PRESETS["pagat"]):
        found = legal_captures(card, [c for c in table if c != card], rules)
        assert len(found.options) == CAP and found.truncated
        for option in found.options[:5]:
            assert capture_problem(card, [c for c in table if c != card], option, rules) is None
    assert legal_captures(card, [c for c in table if c != card], PRESETS["pagat"]).count > CAP
