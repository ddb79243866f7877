"""Scoring a deal from what each side captured, without play-by-play entry.

A side is given by its pile's cards or by counts; both are checked across sides (13 clubs, 4 aces,
4 jacks, one holder of 2♣ and of 10♦, no card in two piles, all 52 cards unless partial) and every
mismatch is refused with the numbers that do not add up.

A tally is a ``TallyAction`` (pasur_cli.engine.action), read once from its JSON form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from pasur_cli.engine.action import TallyAction, read_action
from pasur_cli.engine.arguments import wrong_type
from pasur_cli.engine.cards import DECK, Card
from pasur_cli.engine.errors import IllegalPlayError, Plural, Words
from pasur_cli.engine.names import COUNT_MOST
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.scoring import SEVEN_DIAMONDS, TEN_DIAMONDS, TWO_CLUBS, PileCount, SideScore, score_deal
from pasur_cli.engine.values import FrozenDict

KEY_WORDS = {"clubs": Words("clubs"), "aces": Words("aces"), "jacks": Words("jacks")}  # in a sentence


@runtime_checkable
class Standing(Protocol):
    """What a tally is checked against: the match's sides, its rules and each side's total at the
    start of the deal (a ``Match`` is one; the engine's tally needs nothing else of it)."""

    @property
    def sides(self) -> Sequence[str]: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def totals(self) -> Mapping[str, int]: ...


def scored_tally(match: Standing, action: TallyAction) -> tuple[TallyAction, FrozenDict[str, SideScore]]:
    """A tally checked against the match and scored: its canonical form (the action itself, read
    in canonical form) and each side's score. Raises IllegalPlayError naming the numbers that do
    not add up, a side that is not the match's, or one that cannot score surs."""
    scores = _scored(action, tuple(match.sides), match.rules)
    _check_surs(action.surs, match)
    return action, scores


def tally_scores(match: Standing, action: TallyAction | dict[str, Any]) -> dict[str, SideScore]:
    """Check a tally action (a value, or its JSON form) against the match and score it. Raises
    IllegalPlayError naming the numbers, NotationError for an action that is no tally action
    (``read_action``)."""
    if not isinstance(match, Standing):
        raise wrong_type("match", match, Standing)
    tally = read_action(action, "tally")
    assert isinstance(tally, TallyAction)
    return dict(scored_tally(match, tally)[1])


@lru_cache(maxsize=4096)  # a long record of tallied deals repeats a few tallies many times
def _scored(action: TallyAction, sides: tuple[str, ...], rules: Rules) -> FrozenDict[str, SideScore]:
    """The scores of a tally for a match of these sides and rules (the sur limit aside: ``_check_surs``).
    Raises IllegalPlayError for a side that is none of ``sides``, given twice or missing, and for
    piles or counts that do not add up."""
    piles, counts = action.piles, action.counts
    for side in [*piles, *counts, *action.surs]:
        if side not in sides:
            raise IllegalPlayError("{side!r} is not a side of this match ({sides}).", side=side,
                                   sides=", ".join(sides))
    both = [s for s in piles if s in counts]
    if both:
        raise IllegalPlayError("{side} is given twice (a side has either a pile or counts).", side=both[0])
    missing = [s for s in sides if s not in piles and s not in counts]
    if missing:
        raise IllegalPlayError("no pile or counts for {sides}: every side needs one.", sides=", ".join(missing))
    _check_piles(piles, action.partial and not counts, bool(counts))
    summary = {s: PileCount.of(p) for s, p in piles.items()}
    summary.update(counts)
    _check_counts(summary, action.partial, rules)
    return FrozenDict(score_deal({s: summary[s] for s in sides}, dict(action.surs), rules))


def _check_piles(piles: Mapping[str, Sequence[Card]], partial: bool, with_counts: bool) -> None:
    owner: dict[Card, str] = {}
    for side, cards in piles.items():
        for card in cards:
            if card in owner:
                raise IllegalPlayError("{card} is in the piles of both {side} and {other}.", card=card,
                                       side=owner[card], other=side)
            owner[card] = side
    if not partial and not with_counts and len(owner) != 52:
        missing = [c for c in DECK if c not in owner]
        if len(missing) > 12:
            raise IllegalPlayError(Plural("the piles hold {count} card, not 52: missing {cards} and {more} more"
                                          " (use --partial to score piles that are not complete).",
                                          "the piles hold {count} cards, not 52: missing {cards} and {more} more"
                                          " (use --partial to score piles that are not complete).", "count"),
                                   count=len(owner), cards=missing[:12], more=len(missing) - 12)
        raise IllegalPlayError(Plural("the piles hold {count} card, not 52: missing {cards}"
                                      " (use --partial to score piles that are not complete).",
                                      "the piles hold {count} cards, not 52: missing {cards}"
                                      " (use --partial to score piles that are not complete).", "count"),
                               count=len(owner), cards=missing)


def _check_counts(summary: dict[str, PileCount], partial: bool, rules: Rules) -> None:
    """Raise IllegalPlayError naming the numbers when the sides' counts do not add up (all the
    cards of each count, one holder of each special card, unless ``partial``)."""
    for side, p in summary.items():
        for key, most in COUNT_MOST.items():
            if getattr(p, key) > most:
                raise IllegalPlayError("{side} cannot hold {count} {key}: there are {most}.", side=side,
                                       count=getattr(p, key), key=KEY_WORDS[key], most=most)
        if p.two_clubs and not p.clubs:
            raise IllegalPlayError("{side} holds the {card} but 0 clubs: the {card} counts as a club.", side=side,
                                   card=TWO_CLUBS)
    for key, most in COUNT_MOST.items():
        total = sum(getattr(p, key) for p in summary.values())
        if total > most or (not partial and total != most):
            parts = " + ".join(f"{s} {getattr(p, key)}" for s, p in summary.items())
            raise IllegalPlayError("{key} add up to {total} ({parts}), not {most}.", key=KEY_WORDS[key], total=total,
                                   parts=parts, most=most)
    specials = [("two_clubs", TWO_CLUBS), ("ten_diamonds", TEN_DIAMONDS)]
    if rules.seven_diamonds:
        specials.append(("seven_diamonds", SEVEN_DIAMONDS))
    for key, card in specials:
        holders = [s for s, p in summary.items() if getattr(p, key)]
        if len(holders) > 1:
            raise IllegalPlayError("exactly one side holds the {card}; here: {sides}.", card=card,
                                   sides=", ".join(holders))
        if not partial and not holders:
            raise IllegalPlayError("exactly one side holds the {card}; here: nobody.", card=card)


def _check_surs(surs: Mapping[str, int], match: Standing) -> None:
    rules, totals = match.rules, match.totals
    for side, n in surs.items():
        if n < 0:
            raise IllegalPlayError(Plural("{side} cannot hold {count} sur.", "{side} cannot hold {count} surs.",
                                          "count"), side=side, count=n)
        if n and rules.sur_limit is not None and totals[side] >= rules.sur_limit:
            raise IllegalPlayError("{side} began the deal with a total of {total}, at or above the"
                                   " sur limit {limit}: it cannot score surs.", side=side, total=totals[side],
                                   limit=rules.sur_limit)
    if rules.sur_cancel and sum(1 for n in surs.values() if n) > 1:
        raise IllegalPlayError("surs cancel under these rules, so only one side can hold surs at the end of a deal.")
