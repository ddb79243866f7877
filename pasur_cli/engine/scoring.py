"""Scoring a deal (RULES.md section 7) and deciding a match (section 8)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from pasur_cli.engine.arguments import check_items, check_type, check_whole
from pasur_cli.engine.cards import Card, Rank, Suit
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.names import COUNT_MOST
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.values import Value

TWO_CLUBS = Card(Rank.TWO, Suit.CLUBS)
TEN_DIAMONDS = Card(Rank.TEN, Suit.DIAMONDS)
SEVEN_DIAMONDS = Card(Rank.SEVEN, Suit.DIAMONDS)


_WHOLE = frozenset((int, bool))


def _counts_ok(value: Value, most: dict[str, int]) -> None:
    """Raise NotationError unless every field is a whole number (0..most, when given) or a bool.
    The sentence names the field, never the class: it can reach a player (a damaged snapshot)."""
    values = value._values()
    if _WHOLE.issuperset(map(type, values)) and min(values, default=0) >= 0 and all(
            getattr(value, name).__class__ is int and getattr(value, name) <= top for name, top in most.items()):
        return  # the usual value (whole numbers within their bounds, or flags) is known right at once
    for name, held in zip(value._fields, values, strict=True):  # which field is wrong, and how
        if isinstance(held, bool) and name not in most:
            continue
        if held.__class__ is not int:
            raise NotationError("{name}={text!r} is not allowed: write a whole number.", name=name, text=held)
        if name in most and not 0 <= held <= most[name]:
            raise NotationError("{name}={number} is not allowed: write a whole number from {least} to {most}.",
                                name=name, number=held, least=0, most=most[name])
        if held < 0:
            raise NotationError("{name}={number} is not allowed: the number cannot be negative.", name=name,
                                number=held)


class PileCount(Value):
    """What scores in one side's pile: counts and the three special cards held."""

    clubs: int = 0
    aces: int = 0
    jacks: int = 0
    two_clubs: bool = False
    ten_diamonds: bool = False
    seven_diamonds: bool = False

    def __post_init__(self) -> None:
        _counts_ok(self, COUNT_MOST)
        for name in ("two_clubs", "ten_diamonds", "seven_diamonds"):
            if getattr(self, name).__class__ is not bool:
                raise NotationError("{name}={text!r} is not allowed: write true or false.", name=name,
                                    text=getattr(self, name))

    @staticmethod
    def of(pile: Iterable[Card]) -> PileCount:
        pile = set(pile)
        return PileCount(
            clubs=sum(c.suit == Suit.CLUBS for c in pile),
            aces=sum(c.rank == Rank.ACE for c in pile),
            jacks=sum(c.rank == Rank.JACK for c in pile),
            two_clubs=TWO_CLUBS in pile,
            ten_diamonds=TEN_DIAMONDS in pile,
            seven_diamonds=SEVEN_DIAMONDS in pile,
        )


class SideScore(Value):
    """One side's score for one deal; every item is points except ``clubs`` and ``surs`` (counts).
    Stored by field name (``as_dict()`` / ``from_dict()``)."""

    clubs: int
    clubs_points: int
    two_clubs: int
    ten_diamonds: int
    aces: int
    jacks: int
    surs: int
    sur_points: int
    seven_diamonds: int
    total: int

    def __post_init__(self) -> None:
        _counts_ok(self, {"clubs": COUNT_MOST["clubs"]})


def clubs_winners(clubs: dict[str, int], rules: Rules) -> set[str]:
    """The sides that score the clubs points.

    A side with at least ``clubs_min`` clubs and strictly more than every other side scores them.
    With three sides and ``three_player_clubs=third``, when nobody qualifies and two sides hold the
    same number, the third side scores them.
    """
    check_items("clubs", clubs, int, mapping=True)
    check_type("rules", rules, Rules)
    top = max(clubs.values(), default=0)
    leaders = [s for s, n in clubs.items() if n == top]
    if top >= rules.clubs_min and len(leaders) == 1:
        return set(leaders)
    if len(clubs) == 3 and rules.three_player_clubs == "third" and top < rules.clubs_min:
        counts = list(clubs.values())
        for side, n in clubs.items():
            others = [m for s, m in clubs.items() if s != side]
            if others[0] == others[1] and counts.count(n) == 1:
                return {side}
    return set()


def score_deal(piles: dict[str, PileCount], surs: dict[str, int], rules: Rules) -> dict[str, SideScore]:
    """Score every side of one deal from what its pile holds and the surs it holds at the end.
    Raises NotationError for arguments of the wrong types."""
    check_items("piles", piles, PileCount, mapping=True)
    check_items("surs", surs, int, bool, mapping=True)  # a true held is kept as given, as before
    check_type("rules", rules, Rules)
    winners = clubs_winners({s: p.clubs for s, p in piles.items()}, rules)
    scores = {}
    for side, p in piles.items():
        held = surs.get(side, 0)
        items = (rules.clubs_points if side in winners else 0, 2 if p.two_clubs else 0, 3 if p.ten_diamonds else 0,
                 p.aces, p.jacks, held * rules.sur_points, rules.seven_diamonds if p.seven_diamonds else 0)
        clubs_points, two_clubs, ten_diamonds, aces, jacks, sur_points, seven_diamonds = items
        values = (p.clubs, clubs_points, two_clubs, ten_diamonds, aces, jacks, held, sur_points, seven_diamonds,
                  sum(items))  # SideScore's fields in order
        exact = tuple(map(type, values)) == _ALL_INTS  # else a bool held is kept as given, never as the 1 kept
        scores[side] = _side_score(values) if exact else SideScore(*values)
    return scores


@lru_cache(maxsize=8192)  # a long record of tallies scores few different sides
def _side_score(values: tuple[int, ...]) -> SideScore:
    """The SideScore of these fields, every one exactly an int: a value, never changed, so one
    object serves every deal scored the same. Raises ValueError for fields it cannot hold."""
    if min(values) >= 0 and values[0] <= _CLUBS:
        return SideScore._made(values)  # what SideScore's check passes: made without asking it again
    return SideScore(*values)


_ALL_INTS = (int,) * len(SideScore._fields)
_CLUBS = COUNT_MOST["clubs"]


def match_winner(totals: dict[str, int], deals_played: int, rules: Rules) -> str | None:
    """The side that has won after ``deals_played`` deals, or None while the match goes on.

    With ``fixed_deals`` the match ends after that many deals; otherwise once a side is at or
    above ``target``. Either way an equal highest total plays on.
    """
    check_items("totals", totals, int, mapping=True)
    check_whole("deals_played", deals_played, 0)
    check_type("rules", rules, Rules)
    if not totals:
        return None
    top = max(totals.values())
    leaders = [s for s, t in totals.items() if t == top]
    over = deals_played >= rules.fixed_deals if rules.fixed_deals is not None else top >= rules.target
    return leaders[0] if over and len(leaders) == 1 else None
