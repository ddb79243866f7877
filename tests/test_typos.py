""""Did you mean": a mistyped card is answered with what was typed (the suit first, as `c10` or
`cq`), among the cards that can still be played, the same in `pasur play`, `pasur check` and the
session."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pasur_cli.cards import DECK, SYMBOLS
from pasur_cli.typos import problem


def said(err: Exception) -> str:
    from pasur_cli.render import Look, message
    return message(err, Look())  # type: ignore[arg-type]


@given(st.sampled_from(DECK), st.sampled_from(["letter", "symbol"]), st.booleans())
def test_the_suit_typed_first_is_the_card_meant(card, suit_as, lower):
    suit = card.suit if suit_as == "letter" else SYMBOLS[card.suit]
    typed = suit + card.rank_code
    typed = typed.lower() if lower else typed
    assert f"did you mean {card.symbol}?" in said(problem([typed]))


@given(st.sampled_from(DECK), st.data())
def test_only_a_card_that_can_still_be_played_is_offered(card, data):
    gone = set(data.draw(st.sets(st.sampled_from(DECK), max_size=40)))
    playable = [c for c in DECK if c not in gone]
    text = said(problem([card.suit.lower() + card.rank_code], playable))
    offered = text.partition("did you mean ")[2].rstrip("?")
    assert not any(c.symbol in offered.split() for c in gone), text
    assert (card.symbol in offered.split()) == (card not in gone), text


def test_play_and_check_offer_the_same_cards(pasur):
    pasur("new", "Ali", "Reza")
    pasur("deal", "2C", "5H", "9D", "3S")
    pasur("play", "10C")  # Reza trails 10♣: it can no longer be played
    for typed, meant in [("cq", "Q♣"), ("c10", "10♠ 10♥ 10♦"), ("hk", "K♥")]:
        play = pasur("play", typed)
        check = pasur("check", typed, "--table", "2C 5H 9D 3S 10C")
        assert play.exit_code == check.exit_code == 2
        assert f"did you mean {meant}?" in play.output, play.output
        assert f"did you mean {meant}?" in check.output, check.output
    assert "did you mean 10♣?" in pasur("check", "c10", "--table", "2C").output


@pytest.mark.parametrize("typed,meant", [("c10", "10♣"), ("cq", "Q♣"), ("♦7", "7♦")])
def test_the_session_reads_the_suit_first(pasur, typed, meant):
    pasur("new", "Ali", "Sara")
    pasur("deal", "5C", "9D", "3H", "KS")
    result = pasur("session", input=typed + "\n")
    assert f"did you mean {meant}?" in result.output, result.output
