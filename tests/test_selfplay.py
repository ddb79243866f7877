"""``pasur.play_deal``: a whole deal played by a policy for each seat (the public arena of
bench/strength.py). Its deals replay through the referee's ``Match`` to the same scores, the
engine's choices are legal options, and a bad argument or an illegal choice is a typed refusal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simulate import random_table

import pasur_cli as pasur

NAMES = ["Ali", "Sara", "Reza", "Mina"]


def recorded(plays: list[pasur.Turn], choose):  # type: ignore[no-untyped-def]
    """``choose``, noting each choice in ``plays``."""
    def seat(turn: pasur.Turn):  # type: ignore[no-untyped-def]
        option = choose(turn)
        plays.append(option)
        return option
    return seat


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]),
       preset=st.sampled_from(["standard", "pagat"]))
def test_a_deal_of_random_choices_replays_through_the_referee_to_the_same_scores(seed, players, preset):
    rules = pasur.PRESETS[preset]
    rng = random.Random(seed)
    table, stock = random_table(rng, rules)
    plays: list = []
    seat = recorded(plays, lambda turn: turn.rng.choice(turn.options))
    scores = pasur.play_deal(rules, table, stock, [seat] * players, rng)
    match = pasur.Match(NAMES[:players], rules, dealer=0)
    match.start_deal(table)
    for card, take in plays:
        match.play(card, take)
    result = match.results[-1]
    assert scores == [score.total for score in result.scores.values()]
    assert len(plays) == 48


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), effort=st.sampled_from([0, 1, 3]))
def test_the_engines_choices_are_among_the_options_it_was_shown(seed, effort):
    rules = pasur.PRESETS["standard"]
    rng = random.Random(seed)
    table, stock = random_table(rng, rules)
    shown: list = []

    def search(turn: pasur.Turn) -> tuple:
        option = turn.search(effort)
        shown.append(option in turn.options and set(turn.table) <= turn.seen)
        return option

    def reference(turn: pasur.Turn) -> tuple:
        option = turn.sees_all(0, knows_random=seed % 2 == 0)
        shown.append(option in turn.options)
        return option
    pasur.play_deal(rules, table, stock, [search, reference], rng)
    assert shown and all(shown)


def test_a_greedy_seat_beats_a_trailing_seat_over_a_few_deals():
    """A seat that always takes the most cards it can against one that trails whenever it may."""
    rules = pasur.PRESETS["standard"]
    rng = random.Random(5)
    taker = lambda turn: max(turn.options, key=lambda o: len(o[1]))  # noqa: E731
    trailer = lambda turn: min(turn.options, key=lambda o: len(o[1]))  # noqa: E731
    margin = 0
    for _ in range(6):
        table, stock = random_table(rng, rules)
        one = pasur.play_deal(rules, table, stock, [taker, trailer], rng)
        two = pasur.play_deal(rules, table, stock, [trailer, taker], rng)
        margin += one[0] - one[1] + two[1] - two[0]
    assert margin > 0


def table_and_stock() -> tuple[list[pasur.Card], list[pasur.Card]]:
    return random_table(random.Random(1), pasur.PRESETS["standard"])


def first(turn: pasur.Turn) -> tuple:
    return turn.options[0]


@pytest.mark.parametrize(("change", "kind", "words"), [
    (lambda a: {**a, "seats": [first] * 5}, pasur.IllegalPlayError, "2, 3 or 4 players, not 5"),
    (lambda a: {**a, "seats": [first, "greedy"]}, pasur.NotationError, "seats[1] must be of type"),
    (lambda a: {**a, "rules": "standard"}, pasur.NotationError, "rules must be of type Rules"),
    (lambda a: {**a, "rng": 3}, pasur.NotationError, "rng must be of type Random"),
    (lambda a: {**a, "stock": a["stock"][:-1]}, pasur.NotationError, "len(stock) must be a whole number"),
    (lambda a: {**a, "stock": [*a["stock"][:-1], a["table"][0]]}, pasur.NotationError, "is named twice"),
    (lambda a: {**a, "table": a["table"][:3]}, pasur.NotationError, "the initial table is 4 cards"),
])
def test_bad_arguments_are_refused_with_a_typed_error(change, kind, words):
    table, stock = table_and_stock()
    arguments = change({"rules": pasur.PRESETS["standard"], "table": table, "stock": stock,
                        "seats": [first, first], "rng": random.Random(1)})
    with pytest.raises(kind) as caught:
        pasur.play_deal(**arguments)
    assert words in str(caught.value)


@pytest.mark.parametrize(("choose", "kind", "words"), [
    (lambda turn: (next(c for c in pasur.DECK if c not in turn.hand), ()), pasur.IllegalPlayError,
     "not one of its options"),
    (lambda turn: (turn.hand[0], tuple(c for c in pasur.DECK if c not in turn.table)[:1]), pasur.IllegalPlayError,
     "is not on the table"),
    (lambda turn: ("5C", ()), pasur.NotationError, "card must be of type Card"),
])
def test_a_policys_illegal_choice_is_refused(choose, kind, words):
    table, stock = table_and_stock()
    with pytest.raises(kind) as caught:
        pasur.play_deal(pasur.PRESETS["standard"], table, stock, [choose, first], random.Random(1))
    assert words in str(caught.value)
    assert isinstance(caught.value, pasur.PasurError)
