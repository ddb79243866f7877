"""The engine's value types: frozen, checked on construction, equal only to their own kind,
serialized by field name."""

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tier import sized

from pasur_cli.engine.cards import DECK, Card, parse_card
from pasur_cli.engine.deal import NoSur, Play
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.match import DealResult
from pasur_cli.engine.rules import BOOLS, CHOICES, OPTION_NAMES, PRESETS, Rules
from pasur_cli.engine.scoring import PileCount, SideScore


@given(st.integers(-5, 20), st.text(max_size=2))
def test_a_card_exists_only_when_its_rank_and_suit_do(rank, suit):
    if 1 <= rank <= 13 and suit in ("C", "D", "H", "S"):
        assert Card(rank, suit) is parse_card(f"{rank}{suit}" if rank <= 10 else "AJQK"[rank - 10] + suit)
    else:
        with pytest.raises(ValueError):
            Card(rank, suit)


def test_cards_compare_only_with_cards_and_keep_canonical_order():
    ace = Card(1, "C")
    assert ace != (1, "C") and ace != (1, "C") and ace == parse_card("ac")
    with pytest.raises(TypeError):
        ace < (2, "C")  # noqa: B015
    assert sorted(reversed(DECK)) == list(DECK)
    with pytest.raises(ValueError):
        Card(True, "C")


def test_values_are_frozen_and_survive_copy_and_pickle():
    play = Play("Ali", "Ali", parse_card("5S"), (parse_card("6C"),), 1)
    for value in (parse_card("10D"), PRESETS["pagat"], play, PileCount(clubs=3), NoSur("sur_limit", 50, 50)):
        with pytest.raises(AttributeError):
            value.x = 1
        assert pickle.loads(pickle.dumps(value)) == value == copy.deepcopy(value)
        assert hash(pickle.loads(pickle.dumps(value))) == hash(value)
    assert pickle.loads(pickle.dumps(parse_card("10D"))) is parse_card("10D")
    with pytest.raises(AttributeError):
        play.card = parse_card("2C")


@given(st.sampled_from(OPTION_NAMES), st.one_of(st.none(), st.booleans(), st.integers(-3, 10**7), st.text(max_size=8),
                                               st.floats(allow_nan=True)))
def test_rules_refuse_every_value_an_option_cannot_take(name, value):
    try:
        rules = Rules(**{name: value})
    except ValueError:
        ok = False
    else:
        ok = True
        assert getattr(rules, name) == value
    if name in CHOICES:
        assert ok == (value in CHOICES[name])
    elif name in BOOLS:
        assert ok == (value is True or value is False)
    elif value is None:
        assert ok == (name in ("sur_limit", "fixed_deals"))
    else:
        least = 1 if name in ("target", "fixed_deals", "clubs_min") else 0
        assert ok == (type(value) is int and least <= value <= 10**6)


def test_rules_are_stored_by_field_name():
    rules = PRESETS["pagat"].replace(sur_points=10)
    data = rules.as_dict()
    assert Rules.from_dict(dict(reversed(data.items()))) == rules
    with pytest.raises(NotationError, match="Rules has no field 'bogus'"):
        Rules.from_dict({**data, "bogus": 1})
    assert Rules(capture_mode="rank") != PRESETS["standard"]
    with pytest.raises(NotationError, match="capture_mode='bogus'"):
        Rules(capture_mode="bogus")


@given(st.lists(st.integers(0, 13), min_size=10, max_size=10))
def test_a_side_score_round_trips_by_name(values):
    score = SideScore(*values)
    again = SideScore.from_dict(dict(reversed(score.as_dict().items())))
    assert again == score and again != tuple(values)
    result = DealResult(1, "Ali", {"Ali": score})
    assert result.replace(tallied=True).tallied and not result.tallied


@pytest.mark.parametrize("bad", [{"clubs": 14}, {"aces": -1}, {"jacks": True}, {"two_clubs": 1}, {"clubs": 2.0}])
def test_a_pile_count_holds_only_what_a_pile_can(bad):
    with pytest.raises(ValueError):
        PileCount(**bad)


def _refusal_field_by_field(kind: type, values: list[object]) -> tuple[str, dict[str, object]] | None:
    """What a count-holding value says of these fields, each looked at in order (the rule its
    quick check must agree with): None when every field is right."""
    from pasur_cli.engine.names import COUNT_MOST
    most = COUNT_MOST if kind is PileCount else {"clubs": COUNT_MOST["clubs"]}
    for name, held in zip(kind.__match_args__, values, strict=True):
        if isinstance(held, bool) and name not in most:
            continue
        if held.__class__ is not int:
            return "{name}={text!r} is not allowed: write a whole number.", {"name": name, "text": held}
        if name in most and not 0 <= held <= most[name]:
            return ("{name}={number} is not allowed: write a whole number from {least} to {most}.",
                    {"name": name, "number": held, "least": 0, "most": most[name]})
        if held < 0:
            return "{name}={number} is not allowed: the number cannot be negative.", {"name": name, "number": held}
    if kind is PileCount:
        for name in ("two_clubs", "ten_diamonds", "seven_diamonds"):
            held = values[kind.__match_args__.index(name)]
            if held.__class__ is not bool:
                return "{name}={text!r} is not allowed: write true or false.", {"name": name, "text": held}
    return None


FIELD_VALUES = st.sampled_from([-1, 0, 4, 5, 13, 14, 5, 14, True, False, None, "1", 10**20, 2.0, [1]])  # the edges


@sized(300)
@given(st.sampled_from([PileCount, SideScore]), st.data())
def test_a_count_value_is_accepted_or_refused_as_each_field_says(kind, data):
    """PileCount and SideScore check all their fields at once when every one is a whole number
    within its bounds (or a flag); whatever is given, they accept exactly what the field-by-field
    rule accepts and refuse the rest with its sentence (the first wrong field)."""
    right = [0, 0, 0, False, False, False] if kind is PileCount else [0] * len(kind.__match_args__)
    values = [data.draw(st.booleans()) if held is False else data.draw(st.integers(0, 4))
              for held in right]  # a right value, then one or two fields given anything
    for index in data.draw(st.lists(st.integers(0, len(values) - 1), max_size=2)):
        values[index] = data.draw(FIELD_VALUES)
    from pasur_cli.engine.values import frozen
    expected = _refusal_field_by_field(kind, [frozen(v) for v in values])  # as the value holds them
    if expected is None:
        made = kind(*values)
        assert [getattr(made, name) for name in kind.__match_args__] == values
    else:
        with pytest.raises(NotationError) as refused:
            kind(*values)
        assert (refused.value.template, refused.value.facts) == expected
