"""An event's values: its entrants and the tables of its rounds, as the store keeps them, and the
refusal an event's state gives."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pasur_cli.engine.errors import NotationError, PasurError, Plural

SYSTEMS = ("swiss", "round-robin")
ROUNDS_MOST = 99  # rounds an event may have: more than any club night plays
ENTRANTS_MOST = 64  # a big club night; the Dutch engine's matching grows steeply slower past it


class EventError(PasurError):
    """An event command that the event's state does not allow (a round still being played, a
    name not entered, a table of no round...): nothing was changed (exit 1)."""


@dataclass(frozen=True)
class Entrant:
    """One entrant: ``number`` in the order of entry (1, 2, ...), its ``name`` (a player, or a team
    written "A & B"), its ``players`` (one or two), the first round it is paired in (``joined``)
    and the first round it no longer is (``dropped``, None while it plays on)."""

    number: int
    name: str
    players: tuple[str, ...]
    joined: int = 1
    dropped: int | None = None

    def plays_in(self, round_number: int) -> bool:
        """Whether the entrant is paired in round ``round_number``."""
        return self.joined <= round_number and (self.dropped is None or round_number < self.dropped)


@dataclass(frozen=True)
class Table:
    """One table of a round: ``number`` (0 for the bye), the entrants ``first`` and ``second`` (None
    for the bye; the first leads, the second's side deals first), the ``match`` it is played as,
    and ``score``: (first's points, second's points) once the table has finished (from its match or
    from paper), None while it plays. ``paper`` says the score was given by `event result`."""

    round: int
    number: int
    first: int
    second: int | None
    match: int | None = None
    score: tuple[int, int] | None = None
    paper: bool = False

    @property
    def bye(self) -> bool:
        return self.second is None

    @property
    def finished(self) -> bool:
        return self.bye or self.score is not None

    def winner(self) -> int | None:
        """The entrant who won this table (the bye's entrant wins it), None while it plays."""
        if self.second is None:
            return self.first
        if self.score is None or self.score[0] == self.score[1]:
            return None
        return self.first if self.score[0] > self.score[1] else self.second


def seats(first: Entrant, second: Entrant) -> tuple[list[str], int]:
    """The players of a table's match in seat order and the dealer's seat: the first entrant's
    player leads (seat 1), the second's deals first; teams sit crosswise (A1, B1, A2, B2)."""
    if len(first.players) == 2 and len(second.players) == 2:
        return [first.players[0], second.players[0], first.players[1], second.players[1]], 3
    return [first.players[0], second.players[0]], 1


def event_name(text: str) -> str:
    """An event's name as it is stored (NFC, surrounding spaces removed). Raises NotationError for
    an empty name, one longer than NAME_MOST, or one holding a control or format character.

    >>> event_name("  Club night 3 ")
    'Club night 3'
    """
    import unicodedata

    from pasur_cli.engine.names import JOINERS, NAME_MOST
    name = unicodedata.normalize("NFC", text).strip()
    if not name or len(name) > NAME_MOST or any(
            unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") and ch not in JOINERS for ch in name):
        raise NotationError(Plural("{name!r} cannot name an event: give 1 to {most} character, none of them a"
                                   " control or format character.",
                                   "{name!r} cannot name an event: give 1 to {most} characters, none of them a"
                                   " control or format character.", "most"), name=text, most=NAME_MOST)
    return name


def entered(names: Sequence[str], teams: bool) -> list[tuple[str, tuple[str, ...]]]:
    """Each entrant's (name, players) from what was typed: a player's name, or with ``teams`` a team
    "A & B" (written as the match writes a side). Raises IllegalPlayError for a refused name, a
    team that is not two players, or a player entered twice; NotationError for too many."""
    from pasur_cli.engine.errors import IllegalPlayError
    from pasur_cli.engine.names import check_name, name_key
    if len(names) > ENTRANTS_MOST:
        raise NotationError("an event holds at most {most} entrants, not {count}.", most=ENTRANTS_MOST,
                            count=len(names))
    out: list[tuple[str, tuple[str, ...]]] = []
    seen: dict[str, str] = {}
    for typed in names:
        parts = typed.split("&") if teams else [typed]
        if teams and len(parts) != 2:
            raise IllegalPlayError("{team!r} is not a team of two: write it \"A & B\".", team=typed)
        players = tuple(check_name(part, len(seen) + 1) for part in parts)
        for player in players:
            if name_key(player) in seen:
                raise IllegalPlayError("{name} is entered twice; every player plays for one entrant.", name=player)
            seen[name_key(player)] = player
        out.append((" & ".join(players), players))
    return out


def read_score(text: str) -> tuple[int, int]:
    """A table's final score as typed, "62-48" (the first entrant's points first; ":" does too).
    Raises NotationError for anything else, and for equal scores (a table has a winner).

    >>> read_score("62-48"), read_score("۴۰:۳۸")
    ((62, 48), (40, 38))
    """
    from pasur_cli.engine.reading import whole_number
    parts = text.replace(":", "-").split("-")
    numbers = [whole_number(part, 4) for part in parts] if len(parts) == 2 else []
    if len(numbers) != 2 or None in numbers:
        raise NotationError("{score!r} is not a score: write the first entrant's points, a dash and the second's,"
                            " as in 62-48.", score=text)
    first, second = numbers[0] or 0, numbers[1] or 0
    if first == second:
        raise NotationError("{score!r} is a tie, and a table has a winner: give the score it ended with.",
                            score=text)
    return first, second


def last_round(tables: Sequence[Table]) -> int:
    """The number of the last round paired (0 before the first)."""
    return max((t.round for t in tables), default=0)


def unfinished(tables: Sequence[Table]) -> list[Table]:
    """The tables of the last round that have not finished."""
    last = last_round(tables)
    return [t for t in tables if t.round == last and not t.finished]


def left_entrant(people: Sequence[Entrant], name: str) -> Entrant | None:
    """The entrant who left, named ``name`` or whose player it is (compared as names are), or None."""
    from pasur_cli.engine.names import name_key
    key = name_key(name)
    return next((e for e in people if e.dropped is not None
                 and (key == name_key(e.name) or key in map(name_key, e.players))), None)


def find_entrant(people: Sequence[Entrant], name: str) -> Entrant:
    """The entrant named ``name``, or whose player it is (compared as names are). Raises EventError."""
    from pasur_cli.engine.names import name_key
    key = name_key(name)
    for entrant in people:
        if key == name_key(entrant.name) or key in map(name_key, entrant.players):
            return entrant
    raise EventError("{name!r} is not entered in this event; the entrants are: {names}.", name=name,
                     names=", ".join(e.name for e in people))
