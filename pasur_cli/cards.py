"""Cards, their notation, and the 52-card deck.

>>> parse_card("10d")
Card.parse('10D')
>>> format_cards(parse_cards("qh, 1s 10♦"), ascii=True)
'AS 10D QH'
"""

from __future__ import annotations

import re
from enum import IntEnum, StrEnum
from typing import NamedTuple

from pasur_cli.errors import NotationError


class Suit(StrEnum):
    """The four suits, in canonical order."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_INPUT = {
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}


class Rank(IntEnum):
    """Ranks in canonical order; a numeral's value is its number."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        return _RANK_CODES[self]


_RANK_CODES = {r: str(int(r)) for r in Rank}
_RANK_CODES.update({Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"})
_RANK_INPUT = {code: rank for rank, code in _RANK_CODES.items()}
_RANK_INPUT.update({"1": Rank.ACE, "T": Rank.TEN})

_TOKEN = re.compile(r"^(10|[2-9AJQKT1])(.)$")
_SEPARATOR = re.compile(r"[\s,]+")
VALID = "a rank (A or 1, 2-10 or T, J, Q, K) followed by a suit (C D H S or ♣ ♦ ♥ ♠), e.g. 10D, qh, 7♣"


class Card(NamedTuple):
    """One card, an immutable value. Ordering is canonical: rank A..K, then suit C D H S."""

    rank: Rank
    suit: Suit

    @property
    def code(self) -> str:
        """Canonical ASCII code, e.g. ``10D``."""
        return self.rank.code + self.suit.value

    @property
    def symbol(self) -> str:
        """Unicode form, e.g. ``10♦``."""
        return self.rank.code + self.suit.symbol

    @property
    def is_numeral(self) -> bool:
        return self.rank <= Rank.TEN

    @property
    def value(self) -> int:
        """Value in a sum: A=1 .. 10=10; court cards count 0 and never take part in a sum."""
        return int(self.rank) if self.rank <= Rank.TEN else 0

    def show(self, ascii: bool = False) -> str:
        return self.code if ascii else self.symbol

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @staticmethod
    def parse(text: str) -> Card:
        return parse_card(text)


DECK: tuple[Card, ...] = tuple(Card(r, s) for r in Rank for s in Suit)
_BY_CODE = {c.code: c for c in DECK}


def parse_card(text: str) -> Card:
    """Parse one card such as ``10d``, ``TD``, ``10♦``, ``qh`` or ``1s``.

    Raises NotationError quoting the token when it is not a card.
    """
    token = text.strip()
    m = _TOKEN.match(token.upper())
    if not m or m.group(2) not in _SUIT_INPUT:
        raise NotationError(f"{text!r} is not a card: write {VALID}.")
    return _BY_CODE[_RANK_INPUT[m.group(1)].code + _SUIT_INPUT[m.group(2)].value]


def split_tokens(texts: str | list[str] | tuple[str, ...]) -> list[str]:
    """Split one or several arguments on spaces and commas into tokens."""
    if isinstance(texts, str):
        texts = [texts]
    return [t for text in texts for t in _SEPARATOR.split(text) if t]


def parse_cards(texts: str | list[str] | tuple[str, ...], what: str = "list") -> list[Card]:
    """Parse a card list separated by spaces and/or commas, given as one string or several.

    Raises NotationError for a bad token or a card named twice in the list.
    """
    cards: list[Card] = []
    for token in split_tokens(texts):
        card = parse_card(token)
        if card in cards:
            raise NotationError(f"{card.code} is named twice in the {what}: each card exists once.")
        cards.append(card)
    return cards


def format_cards(cards, ascii: bool = False, sort: bool = True) -> str:
    """Cards joined by spaces, canonically ordered unless ``sort`` is false."""
    seq = sorted(cards) if sort else list(cards)
    return " ".join(c.show(ascii) for c in seq)


def codes(cards) -> list[str]:
    """Canonical codes, canonically ordered (the form JSON uses)."""
    return [c.code for c in sorted(cards)]
