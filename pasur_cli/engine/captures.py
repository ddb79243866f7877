"""What a played card captures (RULES.md section 4).

``legal_captures`` lists the legal captures; ``capture_problem`` says why a given capture is not
legal (or None); ``verify_capture`` raises it. Both follow one set of rules, so a listed capture is
always accepted and an accepted one is always listable. Nothing here tries every subset: sums are
searched by value counts (a table holds at most 4 cards of a value) with pruning, and the
multi-set search stops listing at a cap and stops counting after a work budget.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations, islice, product
from math import comb, prod

from pasur_cli.engine.arguments import check_items, check_type
from pasur_cli.engine.cards import ORDER, Card, Rank
from pasur_cli.engine.errors import IllegalPlayError, Plural, Sum
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.values import Value

CAP = 50          # captures listed at most
BUDGET = 200_000  # steps the multi-set search may take before it gives up counting ("many")

Counts = tuple[int, ...]  # index v (1..10) = how many numerals of value v; index 0 unused


class Captures(Value):
    """The legal captures of one card on one table.

    ``options``: up to CAP captures (each a canonically sorted tuple of table cards), sorted;
    empty when the card is trailed. ``count``: how many legal captures exist, or None when
    there are too many to count. ``truncated``: not every capture is listed.
    """

    options: tuple[tuple[Card, ...], ...]
    count: int | None
    truncated: bool

    def __init__(self, options: tuple[tuple[Card, ...], ...], count: int | None, truncated: bool) -> None:
        # written out (not Value's generic one): the referee builds one for every play
        setter = object.__setattr__
        setter(self, "options", options)
        setter(self, "count", count)
        setter(self, "truncated", truncated)

    @property
    def trail(self) -> bool:
        """The card captures nothing: it stays on the table."""
        return not self.options

    @property
    def forced(self) -> tuple[Card, ...] | None:
        """The capture the card must make when there is no choice (``()`` for a trail), or None
        when the player must say which: several are legal, or too many to list."""
        if self.trail:
            return ()
        return self.options[0] if len(self.options) == 1 and not self.truncated else None


def capture_sum(card: Card, rules: Rules) -> int | None:
    """The sum each set of table numerals a card captures must make (11 less the card's value),
    or None when the card does not capture by sum."""
    if rules.capture_mode != "sum11":
        return None
    if card.is_numeral:
        return 11 - card.value
    if card.rank == Rank.JACK and rules.jack_capture == "sum11":
        return 11
    return None


def _counts(cards: Iterable[Card]) -> Counts:
    counts = [0] * 11
    for c in cards:
        counts[c.value] += 1
    return tuple(counts)


def _by_value(cards: Iterable[Card]) -> dict[int, list[Card]]:
    groups: dict[int, list[Card]] = {}
    for c in sorted(cards, key=ORDER):
        groups.setdefault(c.value, []).append(c)
    return groups


def _sets(t: int, counts: Counts, top: int = 10) -> Iterator[Counts]:
    """Every value multiset (a shape: index v, how many of value v) summing to t within counts,
    values at most ``top``. The analysis engine's simulator (engine.playout) uses it too."""
    if t == 0:
        yield (0,) * 11
        return
    for v in range(min(t, top), 0, -1):
        for k in range(min(counts[v], t // v), 0, -1):
            for rest in _sets(t - k * v, counts, v - 1):
                yield (*rest[:v], k, *rest[v + 1:])


def _reaches(t: int, counts: Counts) -> bool:
    """Whether some multiset within counts sums to exactly t (bitset subset sum)."""
    bits, mask = 1, (1 << (t + 1)) - 1
    for v in range(1, 11):
        for _ in range(counts[v]):
            bits = (bits | (bits << v)) & mask
    return bool(bits >> t & 1)


@lru_cache(maxsize=65536)
def _splits(t: int, counts: Counts) -> bool:
    """Whether counts can be split into disjoint sets each summing to t."""
    top = max((v for v in range(1, 11) if counts[v]), default=0)
    if not top:
        return True
    rest = list(counts)
    rest[top] -= 1
    left = tuple(rest)
    return any(_splits(t, _minus(left, group)) for group in _sets(t - top, left, top))


def _minus(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _expand(shape: Counts, groups: dict[int, list[Card]]) -> Iterator[tuple[Card, ...]]:
    """Every card set of the given value shape, canonically sorted tuples."""
    choices = [combinations(groups[v], k) for v, k in enumerate(shape) if k]
    for pick in product(*choices):
        yield tuple(sorted((c for part in pick for c in part), key=ORDER))


def _ways(shape: Counts, counts: Counts) -> int:
    return prod(comb(counts[v], k) for v, k in enumerate(shape) if k)


def _single(t: int, numerals: list[Card]) -> Captures:
    counts, groups = _counts(numerals), _by_value(numerals)
    shapes = list(_sets(t, counts))
    return _collect(shapes, counts, groups, complete=True)


def _free_remainders(t: int, counts: Counts) -> tuple[list[Counts], bool]:
    """The sub-shapes of ``counts`` that hold no set summing to ``t`` (what a maximal capture can
    leave behind) and whose complement sums to a positive multiple of ``t`` (what a capture of
    sets of ``t`` can take); the flag says whether the walk finished within BUDGET. Values above
    ``t`` always stay. A depth-first walk over the values with the reachable sums as a bitset, cut
    as soon as ``t`` becomes reachable: there are few such shapes (2,342 in all for the 31 other
    A-8 cards under a 2)."""
    mask = (1 << (t + 1)) - 1
    values = [v for v in range(1, 11) if counts[v] and v <= t]
    whole = sum(v * counts[v] for v in values)
    shape = [counts[v] if v > t else 0 for v in range(11)]
    found: list[Counts] = []
    visited = 0

    def walk(i: int, bits: int, kept: int) -> None:
        nonlocal visited
        visited += 1
        if i == len(values):
            if kept < whole and not (whole - kept) % t:
                found.append(tuple(shape))
            return
        if visited > BUDGET:
            return
        v = values[i]
        for k in range(counts[v] + 1):
            if k:
                bits = (bits | (bits << v)) & mask
                if bits >> t & 1:
                    break
            shape[v] = k
            walk(i + 1, bits, kept + k * v)
        shape[v] = 0

    walk(0, 1, 0)
    return found, visited <= BUDGET


def _maximal_shapes(t: int, counts: Counts) -> tuple[list[Counts], bool]:
    """Value shapes of every maximal multi-set capture; the flag says whether the search finished.

    A capture is maximal when what it leaves holds no further set (RULES.md section 4), so the
    search runs over the few remainders that hold no set summing to ``t`` (``_free_remainders``)
    and keeps those whose complement splits into sets of ``t``, rather than over the ways of
    taking sets off the table (14,755 card sets for the 31 other A-8 cards under a 2).
    """
    remainders, complete = _free_remainders(t, counts)
    found = []
    for rest in remainders:
        shape = _minus(counts, rest)
        if _splits(t, shape):
            found.append(shape)
    return found, complete


def _collect(shapes: list[Counts], counts: Counts, groups: dict[int, list[Card]], complete: bool) -> Captures:
    total = sum(_ways(s, counts) for s in shapes)
    options = sorted(islice((o for s in shapes for o in _expand(s, groups)), CAP))
    truncated = total > len(options) or not complete
    return Captures(tuple(options), total if complete else None, truncated)


def legal_captures(card: Card, table: Sequence[Card], rules: Rules) -> Captures:
    """List the legal captures of ``card`` played on ``table`` (the card must not be on it).

    >>> from pasur_cli.engine.cards import parse_card, parse_cards
    >>> from pasur_cli.engine.rules import PRESETS
    >>> found = legal_captures(parse_card("5S"), parse_cards("AC 2D 4H 5C"), PRESETS["pagat"])
    >>> [" ".join(c.code for c in take) for take in found.options], found.count
    (['AC 5C', '2D 4H'], 2)
    """
    check_type("card", card, Card)
    check_items("table", table, Card)
    check_type("rules", rules, Rules)
    if rules.capture_mode == "rank":
        same = tuple(sorted((c for c in table if c.rank == card.rank), key=ORDER))
        return Captures((same,) if same else (), 1 if same else 0, False)
    if card.rank in (Rank.QUEEN, Rank.KING):
        courts = sorted((c for c in table if c.rank == card.rank), key=ORDER)
        if not courts:
            return Captures((), 0, False)
        if rules.court_capture == "all":
            return Captures((tuple(courts),), 1, False)
        return Captures(tuple((c,) for c in courts), len(courts), False)
    if card.rank == Rank.JACK and rules.jack_capture == "wild":
        taken = tuple(sorted((c for c in table if c.rank <= Rank.JACK), key=ORDER))
        return Captures((taken,) if taken else (), 1 if taken else 0, False)
    t = capture_sum(card, rules)
    assert t is not None  # every other card was answered above
    numerals = [c for c in table if c.is_numeral]
    if not rules.multi_capture:
        return _single(t, numerals)
    counts = _counts(numerals)
    shapes, complete = _maximal_shapes(t, counts)
    return _collect(shapes, counts, _by_value(numerals), complete)


def card_no_sur(card: Card, rules: Rules) -> str | None:
    """The rule option by which a capture with ``card`` that clears the table is no sur whatever
    the deal's position (``jack_sur`` for a J when it is false), or None. The deal adds the
    last-hand and sur-limit exceptions."""
    if card.rank == Rank.JACK and not rules.jack_sur:
        return "jack_sur"
    return None


def is_sur(card: Card, take: Sequence[Card], table: Sequence[Card], rules: Rules) -> bool:
    """Whether capturing ``take`` with ``card`` clears ``table`` as a sur, as far as the card and
    the rules say: the deal adds the last-hand and sur-limit exceptions (``Deal.play``'s record
    says what finally happened)."""
    check_type("card", card, Card)
    check_items("take", take, Card)
    check_items("table", table, Card)
    check_type("rules", rules, Rules)
    return bool(take) and len(take) == len(table) and card_no_sur(card, rules) is None


def capture_problem(card: Card, table: Sequence[Card], take: Iterable[Card], rules: Rules) -> IllegalPlayError | None:
    """Why taking ``take`` with ``card`` from ``table`` is illegal (an error carrying the cards as
    facts, not raised), or None when it is legal.

    ``take`` must be cards on the table (an empty take is a trail).

    >>> from pasur_cli.engine.cards import parse_card, parse_cards
    >>> from pasur_cli.engine.rules import PRESETS
    >>> str(capture_problem(parse_card("7D"), parse_cards("5C 4H"), parse_cards("5C"), PRESETS["standard"]))
    '7♦ + 5♣ = 12, not 11.'
    """
    check_type("card", card, Card)
    check_items("table", table, Card)
    check_type("take", take, Iterable)
    take = list(take)
    check_items("take", take, Card)
    check_type("rules", rules, Rules)
    take = sorted(set(take), key=ORDER)
    stray = [c for c in take if c not in table]
    if stray:
        if len(stray) == 1:
            return IllegalPlayError("{cards} is not on the table.", cards=stray)
        return IllegalPlayError("{cards} are not on the table.", cards=stray)
    if not take:
        options = legal_captures(card, table, rules).options
        if options:
            return IllegalPlayError("{card} must capture: it can take {take}.", card=card, take=list(options[0]))
        return None
    if rules.capture_mode == "rank" or card.rank in (Rank.QUEEN, Rank.KING) or (
        card.rank == Rank.JACK and rules.jack_capture == "wild"
    ):
        return _kind_problem(card, table, take, rules)
    courts = [c for c in take if not c.is_numeral]
    if courts:
        return IllegalPlayError("{cards} cannot be taken by a sum: only numerals (A-10) count.", cards=courts)
    return _sum_problem(card, table, take, rules)


def _kind_problem(card: Card, table: Sequence[Card], take: list[Card], rules: Rules) -> IllegalPlayError | None:
    """``capture_problem`` of a card that takes by kind (under ``capture_mode=rank``, a Q or K, a
    wild J), ``take`` being sorted cards of the table, at least one."""
    options = legal_captures(card, table, rules).options
    if tuple(take) in options:
        return None
    if not options:
        return IllegalPlayError("{card} captures nothing on this table: it is trailed.", card=card)
    if card.rank == Rank.JACK and rules.capture_mode != "rank":
        return IllegalPlayError("a J takes every numeral and J on the table and nothing else: {take}.",
                                take=list(options[0]))
    if len(options) == 1:
        return IllegalPlayError("{card} takes every {rank} on the table: {take}, no more, no less.",
                                card=card, rank=card.rank_code, take=list(options[0]))
    return IllegalPlayError("{card} takes exactly one {rank}, not {take}.", card=card, rank=card.rank_code,
                            take=take)


def _sum_problem(card: Card, table: Sequence[Card], take: list[Card], rules: Rules) -> IllegalPlayError | None:
    """``capture_problem`` of a capture by sum, ``take`` being sorted numerals of the table, at
    least one."""
    t = capture_sum(card, rules)
    assert t is not None  # every other card takes by kind
    total = sum(c.value for c in take) + (11 - t)
    counts = _counts(take)
    if not rules.multi_capture:
        sets, left = divmod(total - (11 - t), t)
        if total != 11 and sets > 1 and not left and _splits(t, counts):  # two sets, where one is the limit
            return IllegalPlayError(Plural("{card} takes one set only under these rules (multi_capture=false): {take}"
                                           " is {sets} set that makes 11 with it; take one of them.",
                                           "{card} takes one set only under these rules (multi_capture=false): {take}"
                                           " is {sets} sets that each make 11 with it; take one of them.", "sets"),
                                    card=card, take=take, sets=sets)
        if total != 11:
            return IllegalPlayError("{cards} = {total}, not 11.", cards=Sum((card, *take)), total=total)
        return None
    if total - (11 - t) < 2 * t and total != 11:
        return IllegalPlayError("{cards} = {total}, not 11.", cards=Sum((card, *take)), total=total)
    if (total - (11 - t)) % t or not _splits(t, counts):
        return IllegalPlayError("{take} cannot be split into sets that each make 11 with {card}"
                                " (each set must sum to {sum}).", take=take, card=card, sum=t)
    rest = [c for c in table if c.is_numeral and c not in take]
    if _reaches(t, _counts(rest)):
        shape = next(_sets(t, _counts(rest)))
        witness = list(next(_expand(shape, _by_value(rest))))
        return IllegalPlayError("the capture is not complete: {cards} = 11 as well, so {witness} must be taken"
                                " too.", cards=Sum((card, *witness)), witness=witness)
    return None


def verify_capture(card: Card, table: Sequence[Card], take: Iterable[Card], rules: Rules) -> None:
    """Raise IllegalPlayError with the reason when the capture is not legal."""
    problem = capture_problem(card, table, take, rules)
    if problem is not None:
        raise problem


def is_legal_capture(card: Card, table: Sequence[Card], take: Iterable[Card], rules: Rules) -> bool:
    return capture_problem(card, table, take, rules) is None
