"""A match: players, sides, rules and the deals, advanced by recorded actions.

The match is its log: ``Match.replay(players, rules, dealer, actions)`` rebuilds the state from
the actions, and every change a player makes is one action (a dict that JSON can hold):

- ``{"type": "deal", "table": ["5C", ...]}``: the initial table of the next deal;
- ``{"type": "play", "card": "7C", "take": ["4D"], "by": "Ali"}``: a play and its capture;
- ``{"type": "tally", "piles": {side: [codes]} | "counts": {side: {...}}, "surs": {side: n}}``:
  a deal scored from its piles without play-by-play entry.

``action_text`` / ``parse_action`` turn an action into a short line and back (the form the
database keeps): ``deal<TAB>5C 9D 3H KS``, ``play<TAB>Sara<TAB>2S<TAB>9D``, ``tally<TAB>{json}``.
"""

from __future__ import annotations

from pasur_cli.cards import Card, parse_cards
from pasur_cli.deal import Deal, Play
from pasur_cli.errors import IllegalPlayError
from pasur_cli.rules import Rules
from pasur_cli.scoring import SideScore, match_winner
from pasur_cli.values import Value


class DealResult(Value):
    """A finished deal: its number (1-based), dealer, each side's score, and whether it was tallied."""

    number: int
    dealer: str
    scores: dict[str, SideScore]
    tallied: bool = False


def side_names(players: list[str], teams: bool) -> list[str]:
    """The side of each seat: a team is its two names joined by " & " in seat order."""
    if len(players) == 4 and teams:
        pairs = [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
        return [pairs[i % 2] for i in range(4)]
    return list(players)


def check_players(players: list[str], dealer: str | None = None) -> None:
    """Raise IllegalPlayError for a wrong number of players, empty or duplicate names, unknown dealer."""
    if not 2 <= len(players) <= 4:
        raise IllegalPlayError("Pasur is played by 2, 3 or 4 players, not {count}.", count=len(players))
    for name in players:
        if not name.strip():
            raise IllegalPlayError("a player's name cannot be empty.")
        if any(ch < " " for ch in name):
            raise IllegalPlayError("{name!r}: a player's name cannot contain tabs, newlines or other control"
                                   " characters.", name=name)
        if "&" in name:
            raise IllegalPlayError("{name!r}: a player's name cannot contain '&' (it joins team names).", name=name)
    folded = [p.strip().casefold() for p in players]
    dupes = sorted({p for p, f in zip(players, folded) if folded.count(f) > 1})
    if dupes:
        raise IllegalPlayError("every player needs a different name; {names} is named twice.",
                               names=", ".join(dupes))
    if dealer is not None and dealer not in players:
        raise IllegalPlayError("the dealer {dealer!r} is not one of the players ({players}).", dealer=dealer,
                               players=", ".join(players))


class Match:
    """The state of a match, derived from its actions."""

    def __init__(self, players: list[str], rules: Rules, dealer: int = 0) -> None:
        self.players, self.rules, self.first_dealer = list(players), rules, dealer
        self.seat_sides = side_names(self.players, rules.teams)
        self.sides = list(dict.fromkeys(self.seat_sides))
        self.results: list[DealResult] = []
        self.completed_at: list[int] = []  # how many actions there were when each result was added
        self.totals: dict[str, int] = {s: 0 for s in self.sides}  # running, kept by _finish
        self.deal: Deal | None = None
        self.actions = 0

    @classmethod
    def replay(cls, players: list[str], rules: Rules, dealer: int, actions: list[dict],
               results: list[DealResult] = (), start: int = 0) -> Match:
        """Rebuild a match from its log, or from the ``results`` of its first ``start`` actions
        (a snapshot) and the actions after them. Raises PasurError naming the first action that fails."""
        match = cls(players, rules, dealer)
        match.actions = start
        for result in results:
            match._finish(result)
        for number, action in enumerate(actions, start + 1):
            try:
                match.apply(action)
            except (ValueError, KeyError, TypeError, AttributeError) as err:  # PasurError is a ValueError
                raise IllegalPlayError("action {number} ({action}) cannot be replayed: {reason}", number=number,
                                       action=_describe(action), reason=err) from err
        return match

    # -- position --------------------------------------------------------------------------
    @property
    def winner(self) -> str | None:
        return match_winner(self.totals, len(self.results), self.rules)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def deal_number(self) -> int:
        """The number of the deal in progress, or of the next deal when none is."""
        return len(self.results) + 1

    @property
    def dealer(self) -> str:
        """Who deals the deal in progress (or the next one)."""
        return self.players[(self.first_dealer + len(self.results)) % len(self.players)]

    @property
    def leader(self) -> str:
        """Who leads the deal in progress (or the next one): the player after the dealer."""
        return self.players[(self.players.index(self.dealer) + 1) % len(self.players)]

    def player_named(self, name: str) -> str:
        """The player called ``name`` (case-insensitive). Raises IllegalPlayError for a stranger."""
        for player in self.players:
            if player.casefold() == name.strip().casefold():
                return player
        raise IllegalPlayError("{name!r} is not playing in this match ({players}).", name=name,
                               players=", ".join(self.players))

    def side_of(self, player: str) -> str:
        return self.seat_sides[self.players.index(player)]

    # -- actions ---------------------------------------------------------------------------
    def _ready(self) -> None:
        if self.finished:
            raise IllegalPlayError("the match is over: {side} won.", side=self.winner)

    def start_deal(self, table: list[Card]) -> Deal:
        """Begin the next deal with its initial table. Raises IllegalPlayError when not allowed."""
        self._ready()
        if self.deal is not None:
            raise IllegalPlayError("deal {number} is still being played; finish it first.", number=self.deal_number)
        self.deal = Deal(self.players, self.seat_sides, self.players.index(self.dealer), self.rules,
                         table, self.totals)
        self.actions += 1
        return self.deal

    def play(self, card: Card, take: list[Card] | None = None, by: str | None = None) -> Play:
        """Play a card in the current deal; closes the deal after its last card."""
        self._ready()
        if self.deal is None:
            raise IllegalPlayError("enter the table of deal {number} first (pasur deal C C C C).",
                                   number=self.deal_number)
        if by is not None:
            by = self.player_named(by)
        record = self.deal.play(card, take, by)
        self.actions += 1
        if self.deal.over:
            self._finish(DealResult(self.deal_number, self.dealer, self.deal.score()))
            self.deal = None
        return record

    def add_result(self, scores: dict[str, SideScore]) -> DealResult:
        """Add a tallied deal's scores (no deal may be in progress)."""
        self._ready()
        if self.deal is not None:
            raise IllegalPlayError("deal {number} is being played card by card; finish or undo it before a tally.",
                                   number=self.deal_number)
        result = DealResult(self.deal_number, self.dealer, scores, tallied=True)
        self.actions += 1
        self._finish(result)
        return result

    def _finish(self, result: DealResult) -> None:
        """Add a finished deal's result (after the action that finished it)."""
        self.results.append(result)
        self.completed_at.append(self.actions)
        for side, score in result.scores.items():
            self.totals[side] += score.total

    def apply(self, action: dict) -> object:
        """Apply one recorded action; returns what the action did (Deal, Play or DealResult)."""
        kind = action["type"]
        if kind == "deal":
            return self.start_deal(parse_cards(action["table"], "table"))
        if kind == "play":
            take = action.get("take")
            return self.play(parse_cards(action["card"])[0],
                             None if take is None else parse_cards(take, "capture"), action.get("by"))
        if kind == "tally":
            from pasur_cli.tally import tally_scores
            return self.add_result(tally_scores(self, action))
        raise IllegalPlayError("unknown action type {kind!r}.", kind=kind)


def _describe(action: object) -> str:
    try:
        return action_text(action).replace("\t", " ")
    except (KeyError, TypeError, ValueError):
        return repr(action)


def action_text(action: dict) -> str:
    """One action as a short line (fields separated by tabs; names hold no control characters)."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "deal":
        return "deal\t" + " ".join(action["table"])
    if kind == "play":
        return "\t".join(["play", action.get("by") or "", action["card"], " ".join(action.get("take") or [])])
    import json
    if kind == "tally":
        return "tally\t" + json.dumps({k: v for k, v in action.items() if k != "type"}, ensure_ascii=False)
    return json.dumps(action, ensure_ascii=False)


def parse_action(text: str) -> dict:
    """The action a line from ``action_text`` stands for."""
    kind, _, rest = text.partition("\t")
    if kind == "deal":
        return {"type": "deal", "table": rest.split()}
    if kind == "play":
        by, card, take = rest.split("\t")
        return {"type": "play", "card": card, "take": take.split(), "by": by or None}
    import json
    if kind == "tally":
        return {"type": "tally", **json.loads(rest)}
    return json.loads(text)
