""""Did you mean": a mistyped card is answered with what was typed (the suit first, as `c10` or
`cq`), among the cards that can still be played, the same in `pasur play`, `pasur check` and the
session."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasur_cli.engine.cards import DECK, SYMBOLS
from pasur_cli.engine.typos import problem


def said(err: Exception) -> str:
    from pasur_cli.text.render import Look, message
    return message(err, Look())  # type: ignore[arg-type]


@settings(deadline=None)
@given(st.sampled_from(DECK), st.sampled_from(["letter", "symbol"]), st.booleans())
def test_the_suit_typed_first_is_the_card_meant(card, suit_as, lower):
    suit = card.suit if suit_as == "letter" else SYMBOLS[card.suit]
    typed = suit + card.rank_code
    typed = typed.lower() if lower else typed
    assert f"did you mean {card.symbol}?" in said(problem([typed]))


@settings(deadline=None)
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


# -- the letters of the German texts ------------------------------------------------------------
OLD_RANKS = {"A": "A", "1": "A", **{str(n): str(n) for n in range(2, 11)}, "T": "10", "J": "J", "Q": "Q", "K": "K"}
SUIT_INPUT = {"C": "C", "D": "D", "H": "H", "S": "S", "♣": "C", "♦": "D", "♥": "H", "♠": "S",
              "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
GERMAN = {"B": "J", "D": "Q", "AS": "A"}


def old_meaning(token: str) -> str | None:
    """The card a token was before the German letters: a rank code and a suit, else None."""
    text = token.strip().upper()
    rank, suit = OLD_RANKS.get(text[:-1]), SUIT_INPUT.get(text[-1:])
    return rank + suit if rank and suit else None


@settings(deadline=None)
@given(st.text(st.sampled_from("ABDJKQTSCH0123456789♣♦♥♠abdjkqsch"), min_size=1, max_size=4))
def test_the_german_letters_change_no_card_that_was_read_before(token):
    from pasur_cli.engine.cards import parse_card
    from pasur_cli.engine.errors import NotationError
    before = old_meaning(token)
    try:
        now = parse_card(token).code
    except NotationError:
        now = None
    if before is not None:
        assert now == before, token  # every code read before reads the same card
    elif now is not None:  # read only now: a German rank letter, then a suit
        text = token.upper()
        assert GERMAN[text[:-1]] + SUIT_INPUT[text[-1]] == now, token


@pytest.mark.parametrize("typed,card", [("bc", "JC"), ("DH", "QH"), ("dd", "QD"), ("Kd", "KD"), ("ASC", "AC"),
                                        ("As♠", "AS"), ("AS", "AS"), ("D♣", "QC")])
def test_the_german_letters_read_as_the_texts_use_them(pasur, typed, card):
    pasur("new", "Ali", "Reza")
    pasur("--lang", "de", "deal", "2C", "5H", "9D", "3S")
    result = pasur("--lang", "de", "check", typed, "--table", "2C 5H")
    assert result.exit_code == 0 and result.output.startswith(parse(card).symbol), result.output
    assert " B " in pasur("--lang", "de", "rules").output.replace("/", " ")  # the letter those texts use


def parse(code: str):
    from pasur_cli.engine.cards import parse_card
    return parse_card(code)


def test_the_words_of_the_german_and_spanish_texts_are_understood(pasur):
    pasur("new", "Ali", "Reza")
    pasur("deal", "2C", "5H", "9D", "3S")
    for typed, meant in [("Dame Herz", "Q♥"), ("Bube Pik", "J♠"), ("reina corazones", "Q♥"), ("rey picas", "K♠")]:
        assert f"did you mean {meant}?" in pasur("session", input=typed + "\n").output


def test_the_german_refusal_names_the_letters_it_takes(pasur):
    result = pasur("--lang", "de", "check", "xx")
    assert "B oder J, D oder Q" in result.output and result.exit_code == 2


@pytest.mark.parametrize("lang", ["de", "es", "fa"])
def test_every_rank_letter_a_translation_uses_can_be_typed(lang):
    """Where a message names a rank by its letter (J, Q, K, A), each letter its translation uses
    instead (German B, D) is one the card parser reads as that rank's letter."""
    import re
    from pathlib import Path

    from babel.messages.pofile import read_po

    from pasur_cli.cli.app import PLACEHOLDERS  # K=V's letters: no rank
    from pasur_cli.engine.cards import parse_card
    path = Path(__file__).parent.parent / "pasur_cli" / "text" / "locale" / lang / "LC_MESSAGES" / "pasur.po"
    letter = re.compile(r"(?<![\w{])([A-Z])(?![\w}])")
    checked = 0
    for message in read_po(path.open("rb")):
        english = message.id if isinstance(message.id, str) else message.id[0]
        if not english or english in PLACEHOLDERS or not re.search(r"(?<![\w{])[JQK](?![\w}])", english):
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for text in strings:
            for new in set(letter.findall(text)) - set(letter.findall(english)):
                assert parse_card(new + "C").rank > 10, (lang, new, text)  # a court card's letter
                checked += 1
    assert checked or lang != "de"  # German names its court cards B, D, K


@pytest.mark.skipif(__import__("os").name != "posix", reason="needs a pseudo-terminal")
def test_did_you_mean_in_a_real_terminal(pasur, db):
    """As found: `pasur play c10` at an 80x24 terminal, 10♣ already played (the other questions
    in-process: the terminal changes none of their words)."""
    from test_wording import screen
    pasur("new", "Ali", "Reza")
    pasur("deal", "2C", "5H", "9D", "3S")
    assert "did you mean Q♣?" in pasur("play", "cq").output
    assert "did you mean 10♣?" in pasur("play", "c10").output
    pasur("play", "10C")
    shown = " ".join(screen(db, "play", "c10").split())
    assert "did you mean 10♠ 10♥ 10♦?" in shown and "10♣" not in shown.split("?")[0].split("mean")[-1]
    assert "did you mean 10♠ 10♥ 10♦?" in " ".join(pasur("check", "c10", "--table", "10C 2C").output.split())
    assert pasur("--lang", "de", "check", "DH", "--table", "QC 2C").output.startswith("Q♥ auf")  # D is Dame
