"""The record book: every player's and partnership's figures across matches. No I/O.

``record_book`` takes replayed matches (their ids and ``Match`` objects) and adds up, from each
finished deal's ``DealResult`` (a tallied deal counts with what it records); ``book_of`` does the
same from each match's ``Standing`` (its sides' ``SideFigures`` added up already: the store keeps
them with each finished deal, so `pasur stats` reads one row a match):

- per player: finished matches played and won, unfinished matches (counted apart: they add to
  no match figure), deals played, points, surs held at the end of a deal, and in how many deals
  their side scored the clubs points, held the 2♣ and the 10♦, and their best deal. In a team
  match a player's figures are their side's.
- per partnership (two players who were a side in a team match): the same, over those matches.
- head to head: for every two players who were opponents in a finished match, how many of those
  matches each won (a win counts against every player of every other side; partners are not
  opponents).
- accuracy (``accuracy``, ``RecordBook.with_accuracy``): per player, the expected points lost per
  decision with a choice over the reviewed deals (``engine.advice.review``).

Names are matched as ``pasur_cli.engine.match.name_key`` matches a typed name with a player (any case,
Arabic or Persian yeh and kaf); a name is shown as it is spelt in the newest match that has it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple

from pasur_cli.engine.arguments import check_type, wrong_type
from pasur_cli.engine.errors import IllegalPlayError
from pasur_cli.engine.match import DealResult, Match
from pasur_cli.engine.names import name_key
from pasur_cli.engine.scoring import SideScore
from pasur_cli.engine.values import Value

if TYPE_CHECKING:
    from pasur_cli.engine.advice import DealReview


# -- accuracy -----------------------------------------------------------------------------
# A player's accuracy: the expected points lost per decision with a choice (Pasur's "average
# loss"), over any reviewed deals: one deal, a match, the record book. A decision counts when its
# player had more than one legal option (``PlayReview.choices > 1``); a play with one option
# decides nothing and is left out of both sums. Names are matched by ``name_key``.
class Accuracy(Value):
    """One player's accuracy over ``deals`` reviewed deals: ``decisions`` made with a choice and the
    expected points ``lost`` in them."""

    player: str
    deals: int = 0
    decisions: int = 0
    lost: float = 0.0

    @property
    def per_decision(self) -> float | None:
        """Expected points lost per decision with a choice (None before any decision)."""
        return self.lost / self.decisions if self.decisions else None

    def __add__(self, other: Accuracy) -> Accuracy:
        """The accuracy over both sets of deals, named as ``other`` spells the player."""
        return Accuracy(other.player, self.deals + other.deals, self.decisions + other.decisions,
                        self.lost + other.lost)

    def as_json(self) -> dict[str, object]:
        """The figures and the rate made from them (``lost`` to two decimals, the rate to four)."""
        rate = self.per_decision
        return {"player": self.player, "deals": self.deals, "decisions": self.decisions,
                "lost": round(self.lost, 2), "lost_per_decision": None if rate is None else round(rate, 4)}


def deal_accuracy(review: DealReview) -> tuple[Accuracy, ...]:
    """Each player's accuracy in one reviewed deal, in the order they first played."""
    found: dict[str, Accuracy] = {}
    for play in review.plays:
        mine = found.get(play.player, Accuracy(play.player, 1))
        if play.choices > 1:
            mine = mine.replace(decisions=mine.decisions + 1, lost=mine.lost + play.loss)
        found[play.player] = mine
    return tuple(found.values())


def accuracy(reviews: Iterable[DealReview]) -> tuple[Accuracy, ...]:
    """Each player's accuracy over ``reviews`` (a match's, the record book's), in the order they
    first played."""
    return combined(a for review in reviews for a in deal_accuracy(review))


def combined(parts: Iterable[Accuracy]) -> tuple[Accuracy, ...]:
    """Accuracies of the same player (by ``name_key``) added up, in the order each player first comes."""
    found: dict[str, Accuracy] = {}
    for part in parts:
        key = name_key(part.player)
        found[key] = found[key] + part if key in found else part
    return tuple(found.values())


class BestDeal(Value):
    """The most points a side scored in one deal, and where (the first such deal)."""

    points: int
    match: int
    deal: int


class PlayerRecord(Value):
    """One player's or one partnership's figures. ``players`` holds one name or two."""

    name: str
    players: tuple[str, ...]
    matches: int = 0
    won: int = 0
    unfinished: int = 0
    deals: int = 0
    points: int = 0
    surs: int = 0
    clubs: int = 0
    two_clubs: int = 0
    ten_diamonds: int = 0
    best: BestDeal | None = None
    reviewed: int = 0  # deals reviewed (kept reviews), and in them: decisions with a choice and
    decisions: int = 0  # the expected points lost in those (engine.accuracy)
    lost: float = 0.0

    @property
    def lost_per_decision(self) -> float | None:
        """Expected points lost per decision with a choice, over the reviewed deals (None before any)."""
        return self.lost / self.decisions if self.decisions else None

    @property
    def win_rate(self) -> float | None:
        """Won out of finished matches played (None before any)."""
        return self.won / self.matches if self.matches else None

    def per_deal(self, count: int) -> float | None:
        """``count`` per deal played (None before any deal)."""
        return count / self.deals if self.deals else None

    def as_json(self) -> dict[str, object]:
        """The record and the rates made from it, for `stats --json` (not ``as_dict``: that is the
        fields alone)."""
        return {
            "name": self.name, "players": list(self.players),
            "matches": self.matches, "won": self.won, "win_rate": _rounded(self.win_rate),
            "unfinished": self.unfinished, "deals": self.deals,
            "points": self.points, "points_per_deal": _rounded(self.per_deal(self.points)),
            "surs": self.surs, "surs_per_deal": _rounded(self.per_deal(self.surs)),
            "clubs": self.clubs, "two_clubs": self.two_clubs, "ten_diamonds": self.ten_diamonds,
            "best_deal": None if self.best is None else
            {"points": self.best.points, "match": self.best.match, "deal": self.best.deal},
            "reviewed_deals": self.reviewed, "decisions": self.decisions, "points_lost": round(self.lost, 2),
            "lost_per_decision": _rounded(self.lost_per_decision),
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


class RecordBook(Value):
    """Every player's and partnership's record, and the head-to-head wins (by display name:
    ``head_to_head[a][b]`` is how many finished matches a won against b, for every a and b that
    were opponents in a finished match)."""

    matches: int
    unfinished: int
    players: tuple[PlayerRecord, ...]
    partnerships: tuple[PlayerRecord, ...]
    head_to_head: Mapping[str, Mapping[str, int]]
    damaged: tuple[int, ...] = ()  # the matches left out because they cannot be replayed

    def as_json(self) -> dict[str, object]:
        return {"matches": self.matches, "unfinished": self.unfinished,
                "players": [r.as_json() for r in self.players],
                "partnerships": [r.as_json() for r in self.partnerships],
                "head_to_head": {a: dict(row) for a, row in self.head_to_head.items()},
                "damaged": list(self.damaged)}

    def with_accuracy(self, accuracies: Iterable[Accuracy]) -> RecordBook:
        """The book with each player's accuracy over the reviewed deals (``engine.accuracy``; a
        player matched by ``name_key``), every other figure as it was."""
        found = {name_key(a.player): a for a in accuracies}
        players = []
        for record in self.players:
            a = found.get(name_key(record.name))
            players.append(record if a is None else record.replace(reviewed=a.deals, decisions=a.decisions,
                                                                   lost=a.lost))
        return self.replace(players=tuple(players))

    def of_player(self, name: str) -> RecordBook:
        """The part of the book about one player: their row, their partnerships, their head-to-head
        row and column. Raises IllegalPlayError when no match has a player of that name."""
        key = name_key(name)
        mine = [r for r in self.players if name_key(r.name) == key]
        if not mine:
            raise IllegalPlayError("no match in the database has a player named {name}.", name=name.strip())
        me = mine[0].name
        h2h = {a: {b: n for b, n in row.items() if me in (a, b)} for a, row in self.head_to_head.items()}
        return RecordBook(
            matches=mine[0].matches, unfinished=mine[0].unfinished, players=tuple(mine),
            partnerships=tuple(r for r in self.partnerships if key in {name_key(p) for p in r.players}),
            head_to_head={a: row for a, row in h2h.items() if row}, damaged=self.damaged)


class _Tally:
    """A record being added up."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.counts = dict.fromkeys(("matches", "won", "unfinished", *_ADDED), 0)
        self.best: BestDeal | None = None

    def add_match(self, figures: SideFigures, match_id: int, side: str, winner: str | None = None) -> None:
        """Add one side's ``figures`` in match ``match_id``; ``winner``: the match's (None while it
        goes on)."""
        counts = self.counts
        if winner is not None:
            counts["matches"] += 1
            counts["won"] += winner == side
        else:
            counts["unfinished"] += 1
        for name, value in zip(_ADDED, figures, strict=False):  # the first six fields, in order
            counts[name] += value
        if figures.deals and (self.best is None or figures.best > self.best.points):
            self.best = BestDeal(figures.best, match_id, figures.best_deal)

    def record(self, name: str, players: tuple[str, ...]) -> PlayerRecord:
        return PlayerRecord(name, players, best=self.best, **self.counts)


_tuple = tuple.__new__  # a named tuple made without its __new__'s keyword handling: once a deal a side on import


class SideFigures(NamedTuple):
    """One side's figures in a match so far, as the record book adds them up: deals, points, surs
    held at the ends of deals, the deals in which it scored the clubs points, held the 2♣ and
    held the 10♦, and its best deal (the most points; the first such deal's number; both 0 before
    any deal). A named tuple, not a ``Value``: `stats` makes one for each side of every match."""

    deals: int = 0
    points: int = 0
    surs: int = 0
    clubs: int = 0
    two_clubs: int = 0
    ten_diamonds: int = 0
    best: int = 0
    best_deal: int = 0

    def after(self, score: SideScore, number: int) -> SideFigures:
        """These figures with deal ``number`` added, where the side scored ``score``."""
        deals, points, surs, clubs, two_clubs, ten_diamonds, best, best_deal = self
        total = score.total
        if not deals or total > best:
            best, best_deal = total, number
        return _tuple(SideFigures, (deals + 1, points + total, surs + score.surs, clubs + (score.clubs_points > 0),
                                    two_clubs + (score.two_clubs > 0), ten_diamonds + (score.ten_diamonds > 0),
                                    best, best_deal))


_ADDED = SideFigures._fields[:6]  # the figures a record adds up as they are (the best deal is kept apart)


class Standing(NamedTuple):
    """What `pasur matches` lists and the record book adds up of one match: its id, when it was
    made, its players and the side of each seat, its preset's name, how many deals were played,
    the totals, the winner (None while it goes on) and each side's figures."""

    id: int
    created: str
    players: tuple[str, ...]
    seat_sides: tuple[str, ...]
    preset: str
    deals: int
    totals: Mapping[str, int]
    winner: str | None
    figures: Mapping[str, SideFigures]

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides, each once, in seat order."""
        return tuple(dict.fromkeys(self.seat_sides))

    @property
    def finished(self) -> bool:
        return self.winner is not None


def side_figures(match: Match) -> dict[str, SideFigures]:
    """Each side's figures after every finished deal of ``match``."""
    figures = {side: SideFigures() for side in match.sides}
    for result in match.results:
        for side, score in result.scores.items():
            figures[side] = figures[side].after(score, result.number)
    return figures


def figures_after_each(results: Sequence[DealResult], side: str) -> list[list[int]]:
    """One side's ``SideFigures`` after each of ``results`` (a match's deals from its first), as
    columns: one list a field, in field order, row ``i`` of each being the figures after deal
    ``i + 1`` (what ``after`` adds up deal by deal, added up here by ``accumulate``: an import
    writes them for every tallied deal)."""
    scores = [result.scores[side] for result in results]
    totals = [score.total for score in scores]
    best = list(accumulate(zip(totals, [-result.number for result in results], strict=True), max))  # the first best
    return [list(range(1, len(scores) + 1)), list(accumulate(totals)), list(accumulate([s.surs for s in scores])),
            list(accumulate([int(s.clubs_points > 0) for s in scores])),
            list(accumulate([int(s.two_clubs > 0) for s in scores])),
            list(accumulate([int(s.ten_diamonds > 0) for s in scores])),
            [total for total, _ in best], [-number for _, number in best]]


def standing_of(match_id: int, created: str, match: Match) -> Standing:
    """The standing of a replayed match."""
    return Standing(match_id, created, tuple(match.players), tuple(match.seat_sides), match.rules.preset,
                    len(match.results), dict(match.totals), match.winner, side_figures(match))


def record_book(matches: Iterable[tuple[int, Match]], damaged: Iterable[int] = ()) -> RecordBook:
    """Add up every match (id, replayed match), in any order; ``damaged``: the ids of matches that
    could not be replayed (left out, and said so). Raises NotationError for an item that is no
    such pair."""
    check_type("matches", matches, Iterable)
    return book_of((standing_of(*_pair(item)) for item in matches), damaged)


def _pair(item: object) -> tuple[int, str, Match]:
    """``standing_of``'s arguments for one (id, match) of ``record_book``."""
    if not isinstance(item, tuple) or len(item) != 2 or item[0].__class__ is not int or not isinstance(item[1], Match):
        raise wrong_type("an item of matches", item, tuple)
    return item[0], "", item[1]


def book_of(standings: Iterable[Standing], damaged: Iterable[int] = ()) -> RecordBook:
    """``record_book`` of each match's standing."""
    ordered = sorted(standings, key=lambda standing: standing.id)
    names: dict[str, str] = {}  # key -> spelling in the newest match
    pairs: dict[frozenset[str], tuple[str, tuple[str, ...]]] = {}  # keys -> (side name, players)
    people: dict[str, _Tally] = {}
    teams: dict[frozenset[str], _Tally] = {}
    wins: dict[str, dict[str, int]] = {}
    finished = unfinished = 0
    for match in ordered:
        winner, match_id = match.winner, match.id
        finished += winner is not None
        unfinished += winner is None
        members: dict[str, list[tuple[str, str]]] = {}  # side -> (key, spelling) of its players
        for player, side in zip(match.players, match.seat_sides, strict=True):
            members.setdefault(side, []).append((name_key(player), player))
        for side, players in members.items():
            figures = match.figures[side]
            for key, player in players:
                names[key] = player
                tally = people.get(key)
                if tally is None:
                    tally = people[key] = _Tally((player,))
                tally.add_match(figures, match_id, side, winner)
            if len(players) == 2:
                pair = frozenset(key for key, _ in players)
                pairs[pair] = (side, tuple(player for _, player in players))
                tally = teams.get(pair)
                if tally is None:
                    tally = teams[pair] = _Tally(pairs[pair][1])
                tally.add_match(figures, match_id, side, winner)
        if winner is not None:
            _count_wins(wins, members, winner)
    player_rows = _ranked([t.record(names[k], (names[k],)) for k, t in people.items()])
    team_rows = _ranked([t.record(pairs[k][0], pairs[k][1]) for k, t in teams.items()])
    order = [name_key(r.name) for r in player_rows]
    h2h = {names[a]: {names[b]: wins[a][b] for b in order if b in wins[a]} for a in order if a in wins}
    return RecordBook(finished, unfinished, tuple(player_rows), tuple(team_rows), h2h, tuple(sorted(damaged)))


def _count_wins(wins: dict[str, dict[str, int]], members: dict[str, list[tuple[str, str]]], winner: str) -> None:
    """Add a finished match to ``wins`` (player key -> opponent key -> matches won against them):
    ``members``, each side's (key, spelling) of its players; ``winner``, the side that won."""
    for side, players in members.items():
        won = side == winner
        for key, _ in players:
            row = wins.setdefault(key, {})
            for other, opponents in members.items():
                if other != side:
                    for opponent, _ in opponents:
                        row[opponent] = row.get(opponent, 0) + won


def _ranked(rows: list[PlayerRecord]) -> list[PlayerRecord]:
    """Most matches won first, then the best win rate, then most matches, then by name."""
    return sorted(rows, key=lambda r: (-r.won, -(r.win_rate or 0), -r.matches, -r.deals, r.name.casefold()))

