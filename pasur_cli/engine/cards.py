"""Cards, their notation, and the 52-card deck.

>>> parse_card("10d")
Card.parse('10D')
>>> sorted(parse_cards("qh, 1s 10♦"))
[Card.parse('AS'), Card.parse('10D'), Card.parse('QH')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from pasur_cli.engine.arguments import check_type, wrong_type
from pasur_cli.engine.errors import NotationError, Words
from pasur_cli.engine.reading import ascii_digits
from pasur_cli.engine.values import Value, check_fields


class Suit:
    """The suits as their codes, in canonical order (plain strings: cheap to create and compare)."""

    CLUBS, DIAMONDS, HEARTS, SPADES = "C", "D", "H", "S"


class Rank:
    """Ranks as numbers in canonical order; a numeral's value is its number."""

    ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(1, 14)


SUITS = "CDHS"
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_CODES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUIT_INPUT = {**{s: s for s in SUITS}, **{v: k for k, v in SYMBOLS.items()},
               "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
_RANK_INPUT = {code: rank for rank, code in enumerate(RANK_CODES) if code}
_RANK_INPUT.update({"1": Rank.ACE, "T": Rank.TEN})
# the letters of the German texts (Bube, Dame, König, As): BC is J♣, DH is Q♥; no card's code
# changes meaning (the D of a suit comes last: DD is Q♦), tests/test_typos.py holds that
_RANK_INPUT.update({"B": Rank.JACK, "D": Rank.QUEEN, "AS": Rank.ACE})



class Card(Value):
    """One card, an immutable value; the 52 cards exist once each, so ``Card(10, "D")`` is
    ``parse_card("10d")`` (the same object) and equality is identity. Ordering is canonical:
    rank A..K, then suit C D H S.

    >>> Card(Rank.TEN, Suit.DIAMONDS)
    Card.parse('10D')
    >>> Card(1, "C") == (1, "C"), sorted([Card(1, "S"), Card(1, "C")])
    (False, [Card.parse('AC'), Card.parse('AS')])
    >>> Card(99, "X")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    pasur_cli.engine.errors.NotationError: rank 99 and suit 'X' make no card:
    a rank is 1 (A) to 13 (K), a suit C, D, H or S.
    """

    rank: int  # 1 (A) .. 10, 11 J, 12 Q, 13 K
    suit: str  # C D H S
    __slots__ = ("_order",)  # rank * 4 + suit index: comparisons are one int comparison
    if TYPE_CHECKING:
        _order: int

    def __new__(cls, rank: int, suit: str) -> Card:
        card = _BY_KEY.get((rank, suit)) if rank.__class__ is int and suit.__class__ is str else None
        if card is not None:
            return card
        if len(_BY_KEY) == 52 or rank not in range(1, 14) or suit not in SUITS or len(suit) != 1:
            raise NotationError("rank {rank} and suit {suit!r} make no card: a rank is 1 (A) to 13 (K),"
                                " a suit C, D, H or S.", rank=rank, suit=suit)
        card = object.__new__(cls)  # building DECK: each card is made once
        setter = object.__setattr__
        setter(card, "rank", rank)
        setter(card, "suit", suit)
        setter(card, "_order", rank * 4 + SUITS.index(suit))
        _BY_KEY[rank, suit] = card
        return card

    def __init__(self, rank: int, suit: str) -> None:  # the card was found (or made) by __new__
        pass

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __lt__(self, other: Card) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self._order < other._order

    def __le__(self, other: Card) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self._order <= other._order

    def __gt__(self, other: Card) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self._order > other._order

    def __ge__(self, other: Card) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self._order >= other._order

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return Card, (self.rank, self.suit)

    @property
    def rank_code(self) -> str:
        return RANK_CODES[self.rank]

    @property
    def code(self) -> str:
        """Canonical ASCII code, e.g. ``10D``."""
        return RANK_CODES[self.rank] + self.suit

    @property
    def symbol(self) -> str:
        """Unicode form, e.g. ``10♦``."""
        return RANK_CODES[self.rank] + SYMBOLS[self.suit]

    @property
    def is_numeral(self) -> bool:
        return self.rank <= Rank.TEN

    @property
    def value(self) -> int:
        """Value in a sum: A=1 .. 10=10; court cards count 0 and never take part in a sum."""
        return self.rank if self.rank <= Rank.TEN else 0

    def show(self, ascii: bool = False) -> str:
        return self.code if ascii else self.symbol

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @staticmethod
    def parse(text: str) -> Card:
        return parse_card(text)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Card:
        """The card whose ``as_dict()`` is ``data``; raises NotationError for anything else."""
        fields = ("rank", "suit")
        data = check_fields("Card", data, fields, fields)
        return cls(data["rank"], data["suit"])


ORDER = attrgetter("_order")  # sort key: sorted(cards, key=ORDER) orders as sorted(cards), faster
_BY_KEY: dict[tuple[Any, Any], Card] = {}
DECK: tuple[Card, ...] = tuple(Card(r, s) for r in range(1, 14) for s in SUITS)
_BY_CODE = {c.code: c for c in DECK}


def parse_card(text: str) -> Card:
    """Parse one card such as ``10d``, ``TD``, ``10♦``, ``qh`` or ``1s`` (``dh`` and ``bc``, the German
    letters for Q and J, are Q♥ and J♣).

    Raises NotationError quoting the token when it is not a card (or naming its type when it is
    no string).
    """
    if not isinstance(text, str):
        raise wrong_type("text", text, str)
    token = ascii_digits(text).strip().upper()
    rank, suit = _RANK_INPUT.get(token[:-1]), _SUIT_INPUT.get(token[-1:])
    if rank is None or suit is None:
        raise NotationError("{text!r} is not a card: write a rank (A or 1, 2-10 or T, J, Q, K) followed by a"
                            " suit letter (C D H S) or symbol, e.g. 10D, qh, {example}.",
                            text=text, example=_BY_CODE["7C"])
    return _BY_CODE[RANK_CODES[rank] + suit]


def as_card(card: object) -> Card:
    """The one card ``card`` is: a Card as it is, a string read by ``parse_card`` (one card), a dict
    read by ``Card.from_dict`` (as a kept review holds one). Raises NotationError for a string or
    dict that is no card, or anything else."""
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, dict):
        return Card.from_dict(card)
    raise NotationError("{card!r} is not a card: give a Card or its code, such as \"7C\".", card=repr(card)[:40])


def split_tokens(texts: str | list[str] | tuple[str, ...]) -> list[str]:
    """Split one or several arguments on spaces and commas into tokens."""
    if isinstance(texts, str):
        texts = [texts]
    return [t for text in texts for t in text.replace(",", " ").split()]


def parse_cards(cards: str | Iterable[Card | str], what: object | None = Words("list"),
                unknown: Callable[[list[str]], Exception] | None = None) -> list[Card]:
    """The one card-list parser: cards given as one string or several (separated by spaces and/or
    commas), or as Cards. Raises NotationError for a bad token (``unknown(tokens)``'s error when
    given: a did-you-mean), for a card named twice (in the ``what``, when it is named), or for
    ``cards`` that are neither a string nor a collection.

    >>> parse_cards("5c, 9♦ 3H") == parse_cards([Card.parse("5C"), "9D", "3h"])
    True
    """
    check_type("cards", cards, str, Iterable)
    items: list[Card | str] = []
    for item in [cards] if isinstance(cards, str) else cards:
        if isinstance(item, str):
            items += split_tokens(item)
        elif isinstance(item, Card):
            items.append(item)
        else:
            raise NotationError("{card!r} is not a card: give a Card or its code, such as \"7C\".",
                                card=repr(item)[:40])
    out: list[Card] = []
    for item in items:
        if isinstance(item, Card):
            card = item
        elif unknown is None:
            card = parse_card(item)
        else:
            try:
                card = parse_card(item)
            except NotationError:
                raise unknown([t for t in items if isinstance(t, str)]) from None
        if card in out:
            if what is None:
                raise NotationError("{card} is named twice: each card exists once.", card=card)
            raise NotationError("{card} is named twice in the {what}: each card exists once.", card=card, what=what)
        out.append(card)
    return out
