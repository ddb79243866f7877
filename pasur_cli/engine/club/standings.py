"""An event's standings, a pure function of its entrants and its tables: match wins first (a bye
is a win with no points difference), then the tiebreaks a card club uses: in a Swiss event the
opponents' wins (Buchholz), then the points difference, then the points scored, and between two
entrants still tied, their meeting (head to head)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import NamedTuple

from pasur_cli.engine.club.event import Entrant, Table


@dataclass(frozen=True)
class Place:
    """One line of the standings: the entrant, its ``rank`` (shared by entrants tied on everything),
    the tables it played and finished (``played``, byes not counted), its ``wins`` (``byes``
    among them), ``buchholz`` (the wins of the opponents it met; None in a round robin, where everyone
    meets everyone), ``difference`` and ``scored`` (points, over its finished tables), and
    ``head_to_head``: True when it is placed above the entrant tied with it by their meeting."""

    rank: int
    entrant: Entrant
    played: int
    wins: int
    byes: int
    buchholz: int | None
    difference: int
    scored: int
    head_to_head: bool = False

    def key(self) -> tuple[int, int, int, int]:
        """What orders the places before head to head (larger first)."""
        return self.wins, self.buchholz or 0, self.difference, self.scored


class _Record(NamedTuple):
    played: int
    wins: int
    byes: int
    difference: int
    scored: int
    met: list[int]  # the opponents met (two entrants can meet twice)


def _tally(entrant: int, tables: Sequence[Table]) -> _Record:
    """What ``entrant`` did over the finished ``tables``."""
    played = wins = byes = difference = scored = 0
    met: list[int] = []
    for table in tables:
        if entrant not in (table.first, table.second) or not table.finished:
            continue
        wins += table.winner() == entrant
        if table.second is None or table.score is None:
            byes += 1
            continue
        own, other = table.score if entrant == table.first else table.score[::-1]
        played, difference, scored = played + 1, difference + own - other, scored + own
        met.append(table.second if entrant == table.first else table.first)
    return _Record(played, wins, byes, difference, scored, met)


def _meetings(a: int, b: int, tables: Sequence[Table]) -> int:
    """Tables ``a`` won against ``b`` minus tables ``b`` won against ``a``."""
    won = 0
    for table in tables:
        if {table.first, table.second} == {a, b}:
            winner = table.winner()
            won += (winner == a) - (winner == b)
    return won


def standings(entrants: Sequence[Entrant], tables: Sequence[Table], swiss: bool = True) -> list[Place]:
    """Every entrant's place, first place first; entrants tied on everything share a rank and are
    listed in the order of entry. Dropped entrants keep their place (their results stand).

    >>> ali, sara = Entrant(1, "Ali", ("Ali",)), Entrant(2, "Sara", ("Sara",))
    >>> [(p.rank, p.entrant.name, p.wins) for p in standings([ali, sara], [Table(1, 1, 1, 2, score=(48, 62))])]
    [(1, 'Sara', 1), (2, 'Ali', 0)]
    """
    figures = {e.number: _tally(e.number, tables) for e in entrants}
    wins = {number: figure.wins for number, figure in figures.items()}
    places = []
    for entrant in entrants:
        got = figures[entrant.number]
        buchholz = sum(wins.get(other, 0) for other in got.met) if swiss else None
        places.append(Place(0, entrant, got.played, got.wins, got.byes, buchholz, got.difference, got.scored))
    places.sort(key=lambda p: (tuple(-k for k in p.key()), p.entrant.number))
    ordered: list[Place] = []
    for _, group in groupby(places, key=Place.key):
        tied = list(group)
        if len(tied) == 2:
            ahead = _meetings(tied[0].entrant.number, tied[1].entrant.number, tables)
            if ahead < 0:
                tied.reverse()
            if ahead:
                tied[0] = _with(tied[0], head_to_head=True)
        ordered.extend(tied)
    return _ranked(ordered)


def _with(place: Place, **changes: object) -> Place:
    return replace(place, **changes)  # type: ignore[arg-type]


def _ranked(places: list[Place]) -> list[Place]:
    """``places`` with their ranks: one more than the places above, shared with the place above
    when tied on everything (no head to head between them)."""
    out: list[Place] = []
    for index, place in enumerate(places):
        above = out[-1] if out else None
        shared = above is not None and above.key() == place.key() and not above.head_to_head
        out.append(_with(place, rank=above.rank if shared and above else index + 1))
    return out
