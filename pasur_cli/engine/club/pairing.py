"""The next round's pairings. Swiss rounds come from caissify-pairings' FIDE Dutch engine (a
maximum-weight matching over the whole round, so no pair meets twice and nobody has a second bye
while another pairing allows it); round robins from its Berger tables. The library is an optional
dependency (``pip install 'pasur[event]'``), imported only here. Every round it gives is checked
(each entrant at one table or the bye, one bye at most); when no round without a repeat exists,
the meetings of the oldest rounds are forgotten first, one round at a time, until one does."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

from pasur_cli.engine.club.event import Entrant, EventError, Table
from pasur_cli.engine.errors import Plural

Pairs = list[tuple[int, int | None]]  # (first, second) of each table in order; second None: the bye


def _library() -> Any:
    """caissify_pairings, or an EventError that says how to install it."""
    try:
        import caissify_pairings
    except ImportError:
        raise EventError("pairing needs the caissify-pairings package: pip install 'pasur[event]'.") from None
    logging.getLogger("caissify_pairings").setLevel(logging.ERROR)  # a forced second bye is ours to judge
    return caissify_pairings


def _players(active: Sequence[Entrant], history: Sequence[Table]) -> list[dict[str, Any]]:
    """The library's view of each active entrant: its score (wins), colours (white: led the table),
    floats (paired up or down a score group) and byes, from the rounds played so far."""
    score = dict.fromkeys((e.number for e in active), 0.0)
    colours: dict[int, list[str]] = {e.number: [] for e in active}
    floats: dict[int, list[str]] = {e.number: [] for e in active}
    byes = dict.fromkeys(score, 0)
    running: dict[int, float] = {}
    for table in sorted(history, key=lambda t: t.round):
        first, second = table.first, table.second
        before = running.get(first, 0.0), running.get(second or 0, 0.0)
        if first in score:
            colours[first].append("white")
            floats[first].append("down" if second is None or before[0] > before[1] else
                                 "up" if before[0] < before[1] else "none")
        if second is not None and second in score:
            colours[second].append("black")
            floats[second].append("down" if before[1] > before[0] else "up" if before[1] < before[0] else "none")
        winner = table.winner()
        if winner is not None:
            running[winner] = running.get(winner, 0.0) + 1
        if second is None and first in byes:
            byes[first] += 1
    for number in score:
        score[number] = running.get(number, 0.0)
    return [{"id": e.number, "name": e.name, "score": score[e.number], "rating": 0, "starting_number": e.number,
             "color_hist": colours[e.number], "float_history": floats[e.number], "bye_count": byes[e.number]}
            for e in active]


def _valid(pairs: Pairs, active: set[int], had_bye: set[int], met: set[frozenset[int]]) -> bool:
    """Whether ``pairs`` seats every active entrant once, gives one bye when their number is odd
    (none when even) to an entrant without one (unless all have had one), and repeats no meeting of
    ``met``."""
    seated = [n for pair in pairs for n in pair if n is not None]
    byes = [first for first, second in pairs if second is None]
    if sorted(seated) != sorted(active) or len(byes) != len(active) % 2:
        return False
    if byes and byes[0] in had_bye and not active <= had_bye:
        return False
    return all(second is None or frozenset((first, second)) not in met for first, second in pairs)


def _meetings(history: Sequence[Table], since: int) -> set[frozenset[int]]:
    return {frozenset((t.first, t.second)) for t in history if t.second is not None and t.round >= since}


def swiss(entrants: Sequence[Entrant], history: Sequence[Table], round_number: int, rounds: int) -> Pairs:
    """The Swiss pairings of ``round_number`` for the entrants who play in it, from the finished
    ``history``. Raises EventError when fewer than two entrants play or the library is missing."""
    active = [e for e in entrants if e.plays_in(round_number)]
    _enough(active, round_number)
    library, players = _library(), _players(active, history)
    numbers = {e.number for e in active}
    had_bye = {t.first for t in history if t.second is None}
    for since in range(1, round_number + 1):  # forget the oldest rounds' meetings only when it must
        met = _meetings(history, since)
        previous = {tuple(sorted(pair)) for pair in met}
        got = library.generate_pairings("dutch", players, previous, round_number, max(rounds, round_number))
        pairs: Pairs = [(p["white_id"], p.get("black_id")) for p in got]
        pairs.sort(key=lambda pair: pair[1] is None)  # the bye last
        if _valid(pairs, numbers, had_bye, met):
            return pairs
    return _in_order(players, had_bye)  # not reached in practice: the library pairs any round with no history


def _in_order(players: list[dict[str, Any]], had_bye: set[int]) -> Pairs:
    """Entrants by score, paired in order, the bye to the lowest without one: a round that is always valid."""
    order = [p["id"] for p in sorted(players, key=lambda p: (-p["score"], p["id"]))]
    pairs: Pairs = []
    if len(order) % 2:
        bye = next((n for n in reversed(order) if n not in had_bye), order[-1])
        order.remove(bye)
        pairs.append((bye, None))
    return [(a, b) for a, b in zip(order[::2], order[1::2], strict=True)] + pairs


def _enough(active: Sequence[Entrant], round_number: int) -> None:
    if len(active) < 2:
        raise EventError(Plural("round {round} would have {count} entrant; an event needs two to pair a round.",
                                "round {round} would have {count} entrants; an event needs two to pair a round.",
                                "count"), round=round_number, count=len(active))


def round_robin(entrants: Sequence[Entrant], round_number: int) -> Pairs:
    """Round ``round_number`` of the Berger tables of the entrants who started the event (an entrant
    whose opponent dropped, or who meets the odd number's empty place, has the bye). Raises
    EventError when fewer than two entrants play."""
    fixed = sorted((e for e in entrants if e.joined == 1), key=lambda e: e.number)
    active = {e.number for e in entrants if e.plays_in(round_number)}
    _enough([e for e in fixed if e.number in active], round_number)
    from caissify_pairings.engines.round_robin import berger_round
    _library()
    size = len(fixed) + len(fixed) % 2
    pairs: Pairs = []
    byes: Pairs = []
    for white, black in berger_round(size, (round_number - 1) % (size - 1) + 1):
        seated = [fixed[i - 1].number for i in (white, black) if i <= len(fixed) and fixed[i - 1].number in active]
        if len(seated) == 2:
            pairs.append((seated[0], seated[1]))
        byes.extend((number, None) for number in seated if len(seated) == 1)
    return pairs + byes


def rounds_of(system: str, count: int) -> int:
    """How many rounds an event of ``count`` entrants has by default: a round robin's every meeting
    once; a Swiss event enough rounds to find a winner (log2 of the entrants, rounded up), at least 3."""
    if system == "round-robin":
        return count - 1 + count % 2
    return max(3, (count - 1).bit_length())


def pairs_in(pairs: Pairs) -> Iterator[tuple[int, int, int | None]]:
    """(table number, first, second) of each pair: tables 1, 2, ... and 0 for the bye."""
    number = 0
    for first, second in pairs:
        if second is None:
            yield 0, first, None
        else:
            number += 1
            yield number, first, second
