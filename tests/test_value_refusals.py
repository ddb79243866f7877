"""A value made from a script's or a file's data (``Value.from_dict``, a constructor by field name,
``Card.from_dict``, ``DealResult.from_dict``, ``NoSur``, ``parse_rules``) refuses bad input with a
typed PasurError (a NotationError naming the kind and the field), never a bare TypeError, KeyError
or ValueError; and PasurError stays a ValueError, so a caller that caught ValueError still does."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pasur_cli as pasur

VALUES = [pasur.Rules, pasur.PileCount, pasur.SideScore, pasur.NoSur, pasur.Play, pasur.Advice,
          pasur.PlayReview, pasur.PlayerReview, pasur.DealReview, pasur.PlayerRecord, pasur.RecordBook,
          pasur.Captures, pasur.DealResult, pasur.Card]
JUNK = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=3))


def refused(call) -> pasur.NotationError:  # type: ignore[no-untyped-def]
    with pytest.raises(pasur.NotationError) as caught:
        call()
    assert isinstance(caught.value, ValueError) and caught.value.template
    return caught.value


@pytest.mark.parametrize("kind", VALUES, ids=lambda k: k.__name__)
@given(junk=JUNK)
def test_from_dict_refuses_what_is_no_dict_naming_the_kind(kind, junk):
    error = refused(lambda: kind.from_dict(junk))
    assert str(error).startswith(f"{kind.__name__} must be of type dict")


@pytest.mark.parametrize("kind", VALUES, ids=lambda k: k.__name__)
def test_from_dict_refuses_a_field_it_does_not_have_and_one_it_needs(kind):
    assert str(refused(lambda: kind.from_dict({"bogus": 1}))) == f"{kind.__name__} has no field 'bogus'."
    needs = [name for name in ("rank", "number", "player", "name", "deal", "matches", "options", "card", "rule",
                               "clubs") if name in getattr(kind, "_fields", ("rank", "suit"))]
    if kind not in (pasur.Rules, pasur.PileCount):  # every field has a default
        assert str(refused(lambda: kind.from_dict({}))) == f"{kind.__name__} needs the field {needs[0]}."


def test_a_value_made_by_field_name_refuses_an_unknown_one_and_too_many():
    assert "Rules has no field 'targets'" in str(refused(lambda: pasur.Rules(targets=100)))
    assert str(refused(lambda: pasur.PileCount(*range(9)))) == "PileCount has 6 fields, not 9."


@pytest.mark.parametrize(("data", "words"), [
    ({"number": "1", "dealer": "Ali", "tallied": False, "scores": {}}, "number must be a whole number"),
    ({"number": 1, "dealer": 7, "tallied": False, "scores": {}}, "dealer must be of type str"),
    ({"number": 1, "dealer": "Ali", "tallied": 0, "scores": {}}, "tallied must be of type bool"),
    ({"number": 1, "dealer": "Ali", "tallied": False, "scores": []}, "scores must be of type dict"),
    ({"number": 1, "dealer": "Ali", "tallied": False, "scores": {"Ali": 3}}, "SideScore must be of type dict"),
    ({"number": 1, "dealer": "Ali", "tallied": False}, "DealResult needs the field scores"),
])
def test_a_deal_result_from_data_names_the_field_that_is_wrong(data, words):
    assert words in str(refused(lambda: pasur.DealResult.from_dict(data)))


def test_a_deal_result_round_trips_through_its_dict():
    match = pasur.Match(["Ali", "Sara"], pasur.PRESETS["standard"])
    match.apply({"type": "tally", "counts": {"Ali": {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True,
                                                     "ten_diamonds": True}, "Sara": {}}, "surs": {}})
    result = match.results[0]
    assert pasur.DealResult.from_dict(result.as_dict()) == result


def test_a_card_no_sur_and_rules_from_data_are_typed_refusals():
    assert str(refused(lambda: pasur.Card.from_dict({"rank": 1}))) == "Card needs the field suit."
    assert pasur.Card.from_dict({"rank": 1, "suit": "C"}) is pasur.parse_card("AC")
    assert "rule='always' is not allowed: choose one of jack_sur" in str(refused(lambda: pasur.NoSur("always")))
    assert "preset must be of type str" in str(refused(lambda: pasur.parse_rules(3)))  # type: ignore[arg-type]
    assert "overrides[0] must be of type str" in str(refused(lambda: pasur.parse_rules("pagat", [7])))  # type: ignore[list-item]
