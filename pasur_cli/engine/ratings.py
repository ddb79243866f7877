"""Ratings across the seasons: a skill estimate for every player from every finished match. No I/O.

Each finished match, in the order the matches were made, is one result of OpenSkill's
Plackett-Luce model (``openskill``, imported only here): the winning side ranks first, the others
after it by their totals (sides of equal totals tie). A side of two is a team of its two players,
each rated; a three-player match is a three-way result. A rating is a mean ``mu`` and an
uncertainty ``sigma``; players are ordered by the conservative rating ``mu - 3 sigma`` (the skill
they have with near certainty: one lucky win does not put a newcomer above a regular), the more
certain (smaller sigma) first among equals, then by name. Names are matched as ``name_key`` matches
them and shown as spelt in the newest match that has them, finished or not (as `stats` shows them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pasur_cli.engine.errors import IllegalPlayError
from pasur_cli.engine.names import name_key
from pasur_cli.engine.stats import Standing
from pasur_cli.engine.values import Value

SPREAD = 3  # sigmas taken off the mean for the conservative rating (TrueSkill's and OpenSkill's ordinal)
START = (25.0, 25.0 / 3)  # a new player's mu and sigma (OpenSkill's and TrueSkill's defaults): rating 0


class PlayerRating(Value):
    """One player's rating after every finished match: ``mu``, ``sigma``, the conservative
    rating, and how many rated matches they played and won."""

    name: str
    mu: float
    sigma: float
    matches: int
    won: int

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the order of the list."""
        return self.mu - SPREAD * self.sigma

    def as_json(self) -> dict[str, object]:
        """The rating for `stats --ratings --json` (figures rounded to 3 places)."""
        return {"name": self.name, "rating": round(self.conservative, 3), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "matches": self.matches, "won": self.won}


class RatingStep(Value):
    """A player's rating just after one match: the match's id, ``mu`` and ``sigma``."""

    match: int
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return self.mu - SPREAD * self.sigma


class Ratings(Value):
    """Every player's rating, best first (see the module), the steps of each (by ``name_key``), and
    how many finished matches were rated."""

    players: tuple[PlayerRating, ...]
    steps: Mapping[str, tuple[RatingStep, ...]]
    matches: int

    def of_player(self, name: str) -> tuple[PlayerRating, tuple[RatingStep, ...]]:
        """One player's rating and its steps. Raises IllegalPlayError when no finished match has a
        player of that name."""
        key = name_key(name)
        for rating in self.players:
            if name_key(rating.name) == key:
                return rating, self.steps[key]
        raise IllegalPlayError("no finished match in the database has a player named {name}.", name=name.strip())


def side_ranks(standing: Standing) -> list[int]:
    """The rank of each side of a finished match (``standing.sides`` order; 1 is first): the winner
    first, the others by their totals, equal totals tied.

    >>> from pasur_cli.engine.stats import Standing
    >>> s = Standing(1, "", ("A", "B", "C"), ("A", "B", "C"), "standard", 5, {"A": 40, "B": 63, "C": 40}, "B", {})
    >>> side_ranks(s)
    [2, 1, 2]
    """
    others = [standing.totals[side] for side in standing.sides if side != standing.winner]
    return [1 if side == standing.winner else 2 + sum(total > standing.totals[side] for total in others)
            for side in standing.sides]


def rate(standings: Iterable[Standing]) -> Ratings:
    """The ratings every finished match of ``standings`` makes, rated in the order of their ids
    (the order they were made); unfinished matches are left out."""
    from openskill.models import PlackettLuce  # only here: `stats --ratings` is its one reader
    model = PlackettLuce(mu=START[0], sigma=START[1])
    everyone = sorted(standings, key=lambda s: s.id)
    names = {name_key(p): p for s in everyone for p in s.players}  # as spelt in the newest match, as in stats
    finished = [s for s in everyone if s.finished]
    current: dict[str, tuple[float, float]] = {}
    played: dict[str, list[int]] = {}  # key -> [matches, won]
    steps: dict[str, list[RatingStep]] = {}
    for standing in finished:
        teams = _teams(standing)
        rated = model.rate([[model.rating(*current.get(name_key(p), (None, None))) for p in team] for team in teams],
                           ranks=[float(rank) for rank in side_ranks(standing)])
        for side, team, after in zip(standing.sides, teams, rated, strict=True):
            for player, rating in zip(team, after, strict=True):
                key = name_key(player)
                current[key] = (rating.mu, rating.sigma)
                counts = played.setdefault(key, [0, 0])
                counts[0] += 1
                counts[1] += side == standing.winner
                steps.setdefault(key, []).append(RatingStep(standing.id, rating.mu, rating.sigma))
    players = [PlayerRating(names[key], mu, sigma, *played[key]) for key, (mu, sigma) in current.items()]
    players.sort(key=lambda r: (-r.conservative, r.sigma, name_key(r.name)))
    return Ratings(tuple(players), {key: tuple(s) for key, s in steps.items()}, len(finished))


def _teams(standing: Standing) -> list[list[str]]:
    """The players of each side of a match, in ``standing.sides`` order."""
    return [[p for p, s in zip(standing.players, standing.seat_sides, strict=True) if s == side]
            for side in standing.sides]
