"""An event's values: its entrants and the tables of its rounds, as the store keeps them, and the
refusal an event's state gives."""

from __future__ import annotations

from dataclasses import dataclass

from pasur_cli.engine.errors import PasurError

SYSTEMS = ("swiss", "round-robin")
ROUNDS_MOST = 99  # rounds an event may have: more than any club night plays
ENTRANTS_MOST = 200


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
