"""Property tests: the capture lister and the validator agree with each other and with brute force."""

from itertools import combinations

from hypothesis import given, settings, strategies as st

from pasur_cli.captures import CAP, capture_problem, capture_sum, legal_captures
from pasur_cli.cards import DECK
from pasur_cli.rules import PRESETS, Rules, parse_rules

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


def subsets(table):
    for size in range(len(table) + 1):
        for combo in combinations(sorted(table), size):
            yield combo


def brute_force(card, table, rules: Rules):
    """Every legal capture by trying every subset against RULES.md section 4 directly."""
    t = capture_sum(card, rules)
    numerals = [c for c in table if c.is_numeral]
    if t is None:  # rank matching (courts, rank mode) or the wild J: written out from RULES.md
        if rules.capture_mode == "rank" or card.rank_code in "QK" and rules.court_capture == "all":
            same = tuple(sorted(c for c in table if c.rank == card.rank))
            return {same} if same else set()
        if card.rank_code in "QK":
            return {(c,) for c in table if c.rank == card.rank}
        wild = tuple(sorted(c for c in table if c.is_numeral or c.rank_code == "J"))
        return {wild} if wild else set()
    sums = [s for s in subsets(numerals) if s and sum(c.value for c in s) == t]
    if not rules.multi_capture:
        return set(sums)
    result = set()
    for take in subsets(numerals):
        if not take or sum(c.value for c in take) % t:
            continue
        rest = [c for c in numerals if c not in take]
        if any(sum(c.value for c in s) == t for s in subsets(rest) if s):
            continue
        if _splits(list(take), t):
            result.add(take)
    return result


def _splits(cards, t):
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    for size in range(len(rest) + 1):
        for combo in combinations(rest, size):
            if first.value + sum(c.value for c in combo) == t:
                if _splits([c for c in rest if c not in combo], t):
                    return True
    return False


@settings(max_examples=400, deadline=None)
@given(positions())
def test_list_equals_brute_force(position):
    card, table, rules = position
    found = legal_captures(card, table, rules)
    expected = brute_force(card, table, rules)
    assert not found.truncated or len(expected) > CAP
    assert set(found.options) == expected
    assert found.count == len(expected)


@settings(max_examples=300, deadline=None)
@given(positions(), st.data())
def test_validator_accepts_exactly_the_listed(position, data):
    card, table, rules = position
    found = legal_captures(card, table, rules)
    for option in found.options:
        assert capture_problem(card, table, option, rules) is None
    take = data.draw(st.lists(st.sampled_from(table), unique=True)) if table else []
    legal = capture_problem(card, table, take, rules) is None
    assert legal == (tuple(sorted(take)) in found.options or (not take and found.trail))


@settings(max_examples=300, deadline=None)
@given(positions(most=14))
def test_trail_exactly_when_nothing_to_capture(position):
    card, table, rules = position
    found = legal_captures(card, table, rules)
    assert found.trail == (found.count == 0)
    assert (capture_problem(card, table, [], rules) is None) == found.trail


@settings(max_examples=300, deadline=None)
@given(positions(most=12))
def test_multi_captures_are_maximal_disjoint_unions(position):
    card, table, _ = position
    rules = PRESETS["standard"]
    t = capture_sum(card, rules)
    if t is None:
        return
    for take in legal_captures(card, table, rules).options:
        assert all(c.is_numeral for c in take) and _splits(list(take), t)
        rest = [c for c in table if c.is_numeral and c not in take]
        assert not any(sum(c.value for c in s) == t for s in subsets(rest) if s)


def test_big_tables_are_capped_not_exhausted():
    table = [c for c in DECK if c.is_numeral and c.code not in ("5C",)][:39]
    card = next(c for c in DECK if c.code == "AC")
    for rules in (PRESETS["standard"], PRESETS["pagat"]):
        found = legal_captures(card, [c for c in table if c != card], rules)
        assert len(found.options) == CAP and found.truncated
        for option in found.options[:5]:
            assert capture_problem(card, [c for c in table if c != card], option, rules) is None
    assert legal_captures(card, [c for c in table if c != card], PRESETS["pagat"]).count > CAP
