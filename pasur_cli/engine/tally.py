"""Scoring a deal from what each side captured, without play-by-play entry.

A side is given by its pile's cards or by counts; both are checked across sides (13 clubs, 4 aces,
4 jacks, one holder of 2♣ and of 10♦, no card in two piles, all 52 cards unless partial) and every
mismatch is refused with the numbers that do not add up.

The tally action (see pasur_cli.engine.match): ``{"type": "tally", "piles": {side: [codes]},
"counts": {side: {"clubs": n, "aces": n, "jacks": n, "two_clubs": bool, "ten_diamonds": bool,
"seven_diamonds": bool}}, "surs": {side: n}, "partial": bool}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from pasur_cli.engine.action import COUNT_KEYS, COUNT_MOST, check_action, tally_key
from pasur_cli.engine.arguments import wrong_type
from pasur_cli.engine.cards import DECK, ORDER, Card, parse_cards
from pasur_cli.engine.errors import IllegalPlayError, Plural, Words
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


def tally_action(match: Standing, action: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a checked tally action for this match: every side named as the
    match names it, piles as canonically ordered card codes, counts with every key, surs as
    given. Raises IllegalPlayError for a side that is not the match's or given twice."""
    piles = {s: sorted(parse_cards(c, Words("pile of {side}", side=s)), key=ORDER)
             for s, c in action.get("piles", {}).items()}
    counts = action.get("counts", {})
    for side in [*piles, *counts, *action.get("surs", {})]:
        if side not in match.sides:
            raise IllegalPlayError("{side!r} is not a side of this match ({sides}).", side=side,
                                   sides=", ".join(match.sides))
    both = [s for s in piles if s in counts]
    if both:
        raise IllegalPlayError("{side} is given twice (a side has either a pile or counts).", side=both[0])
    return {"type": "tally",
            "piles": {s: [c.code for c in cards] for s, cards in piles.items()},
            "counts": {s: {k: c.get(k, 0 if k in COUNT_MOST else False) for k in COUNT_KEYS}
                       for s, c in counts.items()},
            "surs": dict(action.get("surs", {})),
            "partial": bool(action.get("partial", False))}


# per rules object: (tally_key, sides, which sides are at the sur limit) -> (canonical action,
# scores). A long record of tallied deals repeats a few tallies many times; bounded, cleared when full.
_SCORED: dict[int, tuple[Rules, dict[tuple[Any, ...], tuple[dict[str, Any], FrozenDict[str, SideScore]]]]] = {}
_SCORED_MOST = 4096


def scored_tally(match: Standing, action: dict[str, Any],
                 key: tuple[Any, ...] | None = None) -> tuple[dict[str, Any], FrozenDict[str, SideScore]]:
    """``tally_action`` and ``tally_scores`` of a tally action that passed ``check_action``: its
    canonical form (a new dict each time) and its scores (a FrozenDict). Computed once for each tally (its
    ``tally_key``, found here or given by Match, which made it of this action), sides, rules and
    side at or above the sur limit (all that the scores depend on). Raises what they raise."""
    rules = match.rules
    if key is None:
        key = tally_key(action)
    if key is None:  # not plainly a tally (a card written as a player writes it): computed each time
        canonical = tally_action(match, action)
        return canonical, FrozenDict(tally_scores(match, canonical))
    kept = _SCORED.get(id(rules))
    if kept is None or kept[0] is not rules:  # the rules object itself is kept, so its id is not reused
        if len(_SCORED) >= 64:
            _SCORED.clear()
        kept = _SCORED[id(rules)] = rules, {}
    known_tallies = kept[1]
    full = (key, tuple(match.sides), sur_standing(match))
    known = known_tallies.get(full)
    if known is None:
        canonical = tally_action(match, action)
        known = canonical, FrozenDict(tally_scores(match, canonical))
        if len(known_tallies) >= _SCORED_MOST:
            known_tallies.clear()
        known_tallies[full] = known
    canonical, scores = known
    return copy_tally(canonical), scores  # copied: the kept one is never handed out


def sur_standing(match: Standing) -> tuple[bool, ...] | None:
    """Whether each side (in the match's order) is at or above the sur limit, None without one:
    with the sides and rules, all of the match a tally's check and scores depend on."""
    limit = match.rules.sur_limit
    return None if limit is None else tuple([match.totals[s] >= limit for s in match.sides])


def copy_tally(canonical: dict[str, Any]) -> dict[str, Any]:
    """A canonical tally action (``tally_action``'s form) copied all the way down: it shares no
    dict or list with ``canonical``, and its fields are in the same order (so its line is the same).
    Raises KeyError for a dict that lacks a canonical tally's fields."""
    piles, counts = {}, {}  # written out, not comprehensions: an import copies 13,000
    for side, cards in canonical["piles"].items():
        piles[side] = cards.copy()
    for side, given in canonical["counts"].items():
        counts[side] = given.copy()
    return {"type": "tally", "piles": piles, "counts": counts, "surs": canonical["surs"].copy(),
            "partial": canonical["partial"]}


def tally_scores(match: Standing, action: dict[str, Any]) -> dict[str, SideScore]:
    """Check a tally action against the match and score it. Raises IllegalPlayError naming the numbers,
    NotationError for an action that is no tally action (``check_action``)."""
    if not isinstance(match, Standing):
        raise wrong_type("match", match, Standing)
    if tally_key(action) is None:
        check_action(action, "tally")
    partial = bool(action.get("partial"))
    piles = {s: parse_cards(c, Words("pile of {side}", side=s)) for s, c in action.get("piles", {}).items()}
    counts = action.get("counts", {})
    surs = {s: int(n) for s, n in action.get("surs", {}).items()}
    for side in [*piles, *counts, *surs]:
        if side not in match.sides:
            raise IllegalPlayError("{side!r} is not a side of this match ({sides}).", side=side,
                                   sides=", ".join(match.sides))
    missing = [s for s in match.sides if s not in piles and s not in counts]
    if missing:
        raise IllegalPlayError("no pile or counts for {sides}: every side needs one.", sides=", ".join(missing))
    _check_piles(piles, partial and not counts, bool(counts))
    summary = {s: PileCount.of(p) for s, p in piles.items()}
    for side, c in counts.items():  # a count left out is none (in PileCount's field order)
        values = (c.get("clubs", 0), c.get("aces", 0), c.get("jacks", 0), c.get("two_clubs", False),
                  c.get("ten_diamonds", False), c.get("seven_diamonds", False))
        summary[side] = _pile_count(values)
    _check_counts(summary, partial, match.rules)
    _check_surs(surs, match)
    return score_deal({s: summary[s] for s in match.sides}, surs, match.rules)


# each PileCount made of counts, by its fields when each is exactly of its type (int counts, bool flags): a
# value, never changed, so one object serves every tally that counts a side the same (there are 2,800)
_PILE_COUNTS: dict[tuple[Any, ...], PileCount] = {}
_COUNT_TYPES = (int, int, int, bool, bool, bool)
_CLUBS, _ACES, _JACKS = COUNT_MOST["clubs"], COUNT_MOST["aces"], COUNT_MOST["jacks"]


def _pile_count(values: tuple[Any, ...]) -> PileCount:
    """``PileCount(*values)``, one object for equal values of exactly PileCount's types (an int ``1`` is
    never taken for a ``true``: those are made and refused as PileCount refuses them). Raises what
    PileCount raises."""
    exact = tuple(map(type, values)) == _COUNT_TYPES
    known = _PILE_COUNTS.get(values) if exact else None
    if known is None:
        if exact and 0 <= values[0] <= _CLUBS and 0 <= values[1] <= _ACES and 0 <= values[2] <= _JACKS:
            known = PileCount._made(values)  # what PileCount's check passes: made without asking it again
        else:
            known = PileCount(*values)
        if exact and len(_PILE_COUNTS) < 4096:
            _PILE_COUNTS[values] = known
    return known


def _check_piles(piles: dict[str, list[Card]], partial: bool, with_counts: bool) -> None:
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


def _counts_add_up(summary: dict[str, PileCount], partial: bool, rules: Rules) -> bool:
    """Whether ``_check_counts`` passes these counts, known in one pass (False: it is asked, and says
    what does not add up)."""
    clubs = aces = jacks = twos = tens = sevens = 0
    for p in summary.values():
        if p.clubs > _CLUBS or p.aces > _ACES or p.jacks > _JACKS or (p.two_clubs and not p.clubs):
            return False
        clubs, aces, jacks = clubs + p.clubs, aces + p.aces, jacks + p.jacks
        twos, tens, sevens = twos + p.two_clubs, tens + p.ten_diamonds, sevens + p.seven_diamonds
    if not rules.seven_diamonds:
        sevens = 1  # not a special card under these rules: not counted
    if partial:
        return clubs <= _CLUBS and aces <= _ACES and jacks <= _JACKS and twos <= 1 and tens <= 1 and sevens <= 1
    return clubs == _CLUBS and aces == _ACES and jacks == _JACKS and twos == 1 and tens == 1 and sevens == 1


def _check_counts(summary: dict[str, PileCount], partial: bool, rules: Rules) -> None:
    if _counts_add_up(summary, partial, rules):
        return
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


def _check_surs(surs: dict[str, int], match: Standing) -> None:
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
