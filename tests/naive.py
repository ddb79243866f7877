"""The capture rules of RULES.md section 4 written out the slow, obvious way: every subset of the
table is tried against the rule. The one naive enumerator of the project: the tests hold the engine
equal to it (tests/test_captures.py) and the benches time the engine against it (bench/captures.py,
bench/engine.py, which put this folder on sys.path). It uses nothing of pasur_cli's capture code,
only the cards' rank and value."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # read only through the attributes RULES.md names
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.rules import Rules

Take = tuple["Card", ...]


def subsets(cards: Sequence[Card]) -> Iterator[Take]:
    """Every subset of ``cards`` (the empty one first), each sorted."""
    ordered = sorted(cards)
    for size in range(len(ordered) + 1):
        yield from combinations(ordered, size)


def sum_wanted(card: Card, rules: Rules) -> int | None:
    """The sum a capture by ``card`` must make, or None when the card takes by rank (RULES.md 4):
    a numeral of value v wants 11 - v, a J under jack_capture=sum11 wants 11."""
    if rules.capture_mode == "rank":
        return None
    if card.is_numeral:
        return 11 - card.value
    if card.rank_code == "J" and rules.jack_capture == "sum11":
        return 11
    return None


def total(cards: Sequence[Card]) -> int:
    return sum(c.value for c in cards)


def splits(cards: Sequence[Card], wanted: int) -> bool:
    """Whether ``cards`` split into disjoint sets that each sum to ``wanted``."""
    if not cards:
        return True
    first, rest = cards[0], list(cards[1:])
    return any(first.value + total(combo) == wanted and splits([c for c in rest if c not in combo], wanted)
               for combo in subsets(rest))


def naive_captures(card: Card, table: Sequence[Card], rules: Rules) -> set[Take]:
    """Every legal capture of ``card`` on ``table`` (each a sorted tuple), by trying every subset."""
    wanted = sum_wanted(card, rules)
    if wanted is None:  # rank matching (rank mode, courts) or the wild J
        if rules.capture_mode == "rank" or (card.rank_code in "QK" and rules.court_capture == "all"):
            same = tuple(sorted(c for c in table if c.rank == card.rank))
            return {same} if same else set()
        if card.rank_code in "QK":
            return {(c,) for c in table if c.rank == card.rank}
        wild = tuple(sorted(c for c in table if c.is_numeral or c.rank_code == "J"))
        return {wild} if wild else set()
    numerals = [c for c in table if c.is_numeral]
    if not rules.multi_capture:
        return {s for s in subsets(numerals) if s and total(s) == wanted}
    found: set[Take] = set()
    for take in subsets(numerals):
        if not take or total(take) % wanted:
            continue
        rest = [c for c in numerals if c not in take]
        if any(s and total(s) == wanted for s in subsets(rest)):
            continue  # not maximal
        if splits(take, wanted):
            found.add(take)
    return found
