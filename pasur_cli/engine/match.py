"""A match: players, sides, rules and the deals, advanced by recorded actions.

The match is its log: ``Match.replay(players, rules, dealer, actions)`` rebuilds the state from
the actions, and every change a player makes is one action: a ``DealAction`` (the initial table
of the next deal), a ``PlayAction`` (a play and its capture) or a ``TallyAction`` (a deal scored
from its piles without play-by-play entry). Their JSON form is read once, by
pasur_cli.engine.action's ``read_action``; the match replays the values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pasur_cli.engine.action import Action, DealAction, PlayAction, TallyAction, read_action
from pasur_cli.engine.arguments import check_type, check_whole
from pasur_cli.engine.cards import Card, as_card, parse_cards
from pasur_cli.engine.deal import Deal, Play, check_table
from pasur_cli.engine.errors import IllegalPlayError, PasurError, Words, shorten
from pasur_cli.engine.names import check_name_length, names_starting, side_names, sides_of
from pasur_cli.engine.results import Results
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.scoring import SideScore, match_winner
from pasur_cli.engine.values import FrozenDict, Value, check_fields


class DealResult(Value):
    """A finished deal: its number (1-based), dealer, each side's score, and whether it was tallied.

    Frozen all the way down: ``scores`` is a FrozenDict, so a result is hashable and equal by value.

    >>> from pasur_cli.engine.scoring import SideScore
    >>> none = SideScore(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    >>> result = DealResult(1, "Ali", {"Ali": none, "Sara": none})
    >>> hash(result) == hash(DealResult(1, "Ali", {"Sara": none, "Ali": none}))
    True
    >>> result.scores["Ali"] = none
    Traceback (most recent call last):
    TypeError: FrozenDict cannot be changed
    """

    number: int
    dealer: str
    scores: Mapping[str, SideScore]
    tallied: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The result by field name, every side's score as its own dict (the one dict form of a
        result: stored in snapshots, shown by ``log --json`` and ``score --json``)."""
        return {"number": self.number, "dealer": self.dealer, "tallied": self.tallied,
                "scores": {side: score.as_dict() for side, score in self.scores.items()}}

    @classmethod
    def _tallied(cls, number: int, dealer: str, scores: FrozenDict[str, SideScore]) -> DealResult:
        """A tallied deal's result made of values the engine has just checked (the scores kept by
        ``scored_tally``), without Value's generic constructor (its cost: bench/growth.py --bounds);
        private to the engine."""
        return cls._made((number, dealer, scores, True))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealResult:
        """The result whose ``as_dict()`` is ``data``. Raises NotationError for a dict that is not
        one, naming the field: each field's type is checked, each score by SideScore."""
        data = check_fields("DealResult", data, cls._fields, cls._fields)
        check_type("scores", data["scores"], dict)
        check_whole("number", data["number"], 1)
        check_type("dealer", data["dealer"], str)
        check_type("tallied", data["tallied"], bool)
        scores = {str(side): SideScore.from_dict(score) for side, score in data["scores"].items()}
        return cls(data["number"], data["dealer"], scores, data["tallied"])


class Match:
    """The state of a match, derived from its actions; every change is one action kept in ``log``.

    ``Match(players, rules, dealer=0)`` (``dealer`` is the first dealer's seat). Do: ``start_deal``,
    ``play``, ``tally``, or ``apply`` any recorded action; ``undo`` takes the last one back.
    Ask: ``deal`` (the deal in progress, None between deals, with its ``turn``, ``can_play`` and
    ``verify_play``), ``results``, ``totals``, ``finished``, ``winner``.

    >>> from pasur_cli.engine.rules import PRESETS
    >>> match = Match(["Ali", "Sara"], PRESETS["pagat"])
    >>> deal = match.start_deal(["5C", "9D", "3H", "KS"])
    >>> match.play("2S").taken, match.deal.turn
    ((Card.parse('9D'),), 'Ali')
    >>> match.undo()
    {'type': 'play', 'card': '2S', 'take': ['9D'], 'by': 'Sara'}
    >>> match.length, match.deal.table == parse_cards("5C 9D 3H KS")
    (1, True)
    """

    def __init__(self, players: list[str], rules: Rules, dealer: int = 0) -> None:
        check_type("players", players, list, tuple)
        for name in players:
            check_type("a player", name, str)
        check_type("rules", rules, Rules)
        check_type("dealer", dealer, int)
        for seat, name in enumerate(players, 1):
            check_name_length(name, seat)  # the store's bound (check_players): the store reads back any match
        self.players, self.rules, self.first_dealer = list(players), rules, dealer
        if not 2 <= len(self.players) <= 4 or dealer not in range(len(self.players)):
            raise IllegalPlayError("a match has 2, 3 or 4 players and its dealer is one of their seats.")
        self.seat_sides = side_names(self.players, rules.teams)
        self.sides = sides_of(self.players, rules.teams)
        self.results: Results[DealResult] = Results()
        self.completed_at: Results[int] = Results()  # the log length when each result was added
        self.totals: dict[str, int] = {s: 0 for s in self.sides}  # running, kept by _finish
        self.deal: Deal | None = None
        self.start = 0  # actions before ``log`` (their results came from a snapshot)
        self.start_totals: Mapping[str, int] = dict(self.totals)  # the totals after them
        self.log: list[Action] = []  # the canonical form of every action applied after ``start``

    @classmethod
    def replay(cls, players: list[str], rules: Rules, dealer: int, actions: Iterable[Action | dict[str, Any]],
               results: Iterable[DealResult] = (), start: int = 0) -> Match:
        """Rebuild a match from its log, or from the ``results`` of its first ``start`` actions
        (a snapshot) and the actions after them. Raises IllegalPlayError naming the first action
        that fails, with the reason as its ``reason`` fact."""
        match = cls(players, rules, dealer)
        earlier = list(results)
        if earlier or start:
            totals = dict.fromkeys(match.sides, 0)
            for result in earlier:
                for side, score in result.scores.items():
                    totals[side] = totals.get(side, 0) + score.total
            match = cls.resume(players, rules, dealer, start=start, results=earlier,
                               completed_at=[start] * len(earlier), totals=totals)
        match.replay_more(actions)
        return match

    @classmethod
    def resume(cls, players: list[str], rules: Rules, dealer: int, *, start: int, results: Sequence[DealResult],
               completed_at: Sequence[int], totals: Mapping[str, int]) -> Match:
        """A match resumed from a snapshot of its first ``start`` actions: the ``results`` of the
        deals they finished (a sequence read only when an item is wanted, so a long match resumes
        as a short one does), the action after which each finished, and the match totals after
        them; ``replay_more`` applies the actions after the snapshot. Raises IllegalPlayError when
        they do not fit (one finishing action a result, totals of these sides, ``start`` not
        before the actions), NotationError for a wrong type."""
        check_type("start", start, int)
        match = cls(players, rules, dealer)
        if (len(results) != len(completed_at) or sorted(totals) != sorted(match.sides) or start < 0
                or not all(type(total) is int for total in totals.values())):
            raise IllegalPlayError("a snapshot's results, their actions and its totals do not fit this match.")
        match.start, match.start_totals = start, dict(totals)
        match.results, match.completed_at = Results(results), Results(completed_at)
        match.totals = {side: totals[side] for side in match.sides}
        return match

    def replay_more(self, actions: Iterable[Action | dict[str, Any]]) -> None:
        """Apply stored actions in order, numbered after those applied already. Raises
        IllegalPlayError naming the first that fails, with the reason as its ``reason`` fact."""
        for number, action in enumerate(actions, self.length + 1):
            try:
                self.apply(action)
            except (ValueError, KeyError, TypeError, AttributeError) as err:  # PasurError is a ValueError
                raise IllegalPlayError("action {number} ({action}) cannot be replayed: {reason}", number=number,
                                       action=_describe(action), reason=err) from err

    # -- position --------------------------------------------------------------------------
    @property
    def length(self) -> int:
        """How many actions the match's log holds (the ``--expect`` of a script)."""
        return self.start + len(self.log)

    def running_totals(self) -> list[Mapping[str, int]]:
        """Every side's match total after each finished deal, in order (the one place they are
        added up: the score table, the chart, the CSV and the snapshots read them here).

        >>> from pasur_cli.engine.rules import PRESETS
        >>> match = Match(["Ali", "Sara"], PRESETS["pagat"])
        >>> _ = match.tally(counts={"Ali": {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True,
        ...                                 "ten_diamonds": True}, "Sara": {}})
        >>> match.running_totals()
        [FrozenDict({'Ali': 20, 'Sara': 0})]
        """
        running = dict.fromkeys(self.sides, 0)
        after: list[Mapping[str, int]] = []
        for result in self.results:
            for side, score in result.scores.items():
                running[side] += score.total
            after.append(FrozenDict(running))
        return after

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

    @property
    def last_play(self) -> Play | None:
        """The last play of the deal in progress (of deal ``deal_number``), as the deal recorded
        it, read from the deal without a replay; None when no deal is in progress or none of its
        cards is played yet (a finished deal's plays are its log's: ``history.match_events``)."""
        deal = self.deal
        return deal.plays[-1] if deal is not None and deal.plays else None

    def player_named(self, name: str) -> str:
        """The player called ``name`` (compared as ``name_key`` compares: any case, any Unicode
        normalization, Arabic or Persian yeh and kaf), or the one player whose name it begins (two
        letters or more). Raises IllegalPlayError for a stranger or a beginning of several names,
        NotationError for a name that is not a string."""
        check_type("a player's name", name, str)
        if name in self.players:
            return name
        found = names_starting(self.players, name)
        if len(found) == 1:
            return found[0]
        if found:
            raise IllegalPlayError("{name!r} begins more than one name ({players}): type more of it.", name=name,
                                   players=", ".join(found))
        raise IllegalPlayError("{name!r} is not playing in this match ({players}).", name=name,
                               players=", ".join(self.players))

    def side_of(self, player: str) -> str:
        return self.seat_sides[self.players.index(player)]

    # -- actions ---------------------------------------------------------------------------
    def _ready(self) -> None:
        rules = self.rules  # most often not over yet, known without looking for a winner
        if (len(self.results) < rules.fixed_deals if rules.fixed_deals is not None
                else max(self.totals.values(), default=0) < rules.target):
            return
        if self.finished:
            raise IllegalPlayError("the match is over: {side} won.", side=self.winner)

    def verify_start_deal(self, table: Iterable[Card | str] | str) -> tuple[Card, ...]:
        """Raise the reason ``start_deal`` would refuse this table; return its cards. Raises
        NotationError for cards that are not cards, IllegalPlayError when no deal can begin (a
        deal in progress, the match over) or the rules' check refuses the table (the error says
        what the dealer must do)."""
        cards = parse_cards(table, Words("table"))
        self._ready()
        if self.deal is not None:
            raise IllegalPlayError("deal {number} is still being played; finish it first.", number=self.deal_number)
        check_table(cards, self.rules)
        return tuple(cards)

    def can_start_deal(self, table: Iterable[Card | str] | str) -> bool:
        """Whether ``start_deal`` would accept this table."""
        try:
            self.verify_start_deal(table)
        except PasurError:
            return False
        return True

    def start_deal(self, table: Iterable[Card | str] | str) -> Deal:
        """Begin the next deal with its initial table (Cards or card codes). Raises what
        ``verify_start_deal`` raises; nothing changes then."""
        cards = list(self.verify_start_deal(table))
        self.deal = Deal._after_check(self.players, self.seat_sides, self.players.index(self.dealer), self.rules,
                                     cards, self.totals)
        self.log.append(DealAction(tuple(cards)))
        return self.deal

    def verify_play(self, card: Card | str, take: Iterable[Card | str] | str | None = None,
                    by: str | None = None) -> tuple[Card, ...]:
        """Raise the reason ``play`` would refuse this play; return the cards it would capture."""
        deal, played, took, player = self._play_in_deal(card, take, by)
        return deal.verify_play(played, took, player)

    def _play_in_deal(self, card: Card | str, take: Iterable[Card | str] | str | None,
                      by: str | None) -> tuple[Deal, Card, list[Card] | None, str | None]:
        """The deal in progress and the play read from its notation; raises when no deal is."""
        played = as_card(card)
        took = None if take is None else parse_cards(take, Words("capture"))
        self._ready()
        if self.deal is None:
            raise IllegalPlayError("enter the table of deal {number} first (pasur deal CARD CARD CARD CARD).",
                                   number=self.deal_number)
        return self.deal, played, took, None if by is None else self.player_named(by)

    def can_play(self, card: Card | str, take: Iterable[Card | str] | str | None = None,
                 by: str | None = None) -> bool:
        """Whether ``play`` would accept this play."""
        try:
            self.verify_play(card, take, by)
        except PasurError:
            return False
        return True

    def play(self, card: Card | str, take: Iterable[Card | str] | str | None = None, by: str | None = None) -> Play:
        """Play a card (a Card or its code) in the current deal; ``take`` the table cards it
        captures (None: the only legal capture, or a trail; ``[]``: a trail), ``by`` who must be
        playing. Returns what the play did; closes the deal after its last card. Raises
        IllegalPlayError or AmbiguousPlayError (nothing changes then)."""
        deal, played, took, player = self._play_in_deal(card, take, by)
        record = deal.play(played, took, player)
        self.log.append(PlayAction(record.card, record.taken, record.player))
        if deal.over:
            self._finish(DealResult(self.deal_number, self.dealer, deal.score()), at=self.length)
            self.deal = None
        return record

    @staticmethod
    def _tally_of(piles: dict[str, Iterable[Card | str]] | None, counts: dict[str, dict[str, int | bool]] | None,
                  surs: dict[str, int] | None, partial: bool) -> dict[str, Any]:
        return {"type": "tally",
                "piles": {s: [c if isinstance(c, str) else c.code for c in cards]
                          for s, cards in (piles or {}).items()},
                "counts": dict(counts or {}), "surs": dict(surs or {}), "partial": partial}

    def verify_tally(self, piles: dict[str, Iterable[Card | str]] | None = None,
                     counts: dict[str, dict[str, int | bool]] | None = None,
                     surs: dict[str, int] | None = None, partial: bool = False) -> DealResult:
        """Raise the reason ``tally`` would refuse this tally; return the result it would record."""
        action = read_action(self._tally_of(piles, counts, surs, partial), "tally")
        assert isinstance(action, TallyAction)
        return self._verify_tally(action)[1]

    def can_tally(self, piles: dict[str, Iterable[Card | str]] | None = None,
                  counts: dict[str, dict[str, int | bool]] | None = None,
                  surs: dict[str, int] | None = None, partial: bool = False) -> bool:
        """Whether ``tally`` would accept this tally."""
        try:
            self.verify_tally(piles, counts, surs, partial)
        except PasurError:
            return False
        return True

    def tally(self, piles: dict[str, Iterable[Card | str]] | None = None,
              counts: dict[str, dict[str, int | bool]] | None = None,
              surs: dict[str, int] | None = None, partial: bool = False) -> DealResult:
        """Score the next deal from what each side captured (its pile's cards, or its counts:
        clubs, aces, jacks, two_clubs, ten_diamonds, seven_diamonds) and the surs it holds, as
        ``pasur tally`` does. Raises IllegalPlayError naming the numbers that do not add up
        (what ``verify_tally`` raises); nothing changes then."""
        result = self.apply(self._tally_of(piles, counts, surs, partial))
        assert isinstance(result, DealResult)
        return result

    def _verify_tally(self, action: TallyAction) -> tuple[TallyAction, DealResult]:
        """The canonical form of a tally action and the result it records; raises its refusal."""
        from pasur_cli.engine.tally import scored_tally  # a match played card by card never loads it
        self.check_tally_allowed()
        canonical, scores = scored_tally(self, action)
        return canonical, DealResult._tallied(len(self.results) + 1, self.dealer, scores)

    def _tally(self, action: TallyAction) -> DealResult:
        canonical, result = self._verify_tally(action)
        self.log.append(canonical)
        self._finish(result, at=self.length)
        return result

    def check_tally_allowed(self) -> None:
        """Raise IllegalPlayError when no tally can be entered now (the match is over, or a deal is
        being played card by card): a caller that asks for the piles asks this first."""
        self._ready()
        if self.deal is not None:
            raise IllegalPlayError("deal {number} is being played card by card; finish or undo it before a tally.",
                                   number=self.deal_number)

    def _finish(self, result: DealResult, at: int | None) -> None:
        """Add a finished deal's result (``at``: the log length after the action that finished it)."""
        self.results.append(result)
        self.completed_at.append(self.start if at is None else at)
        for side, score in result.scores.items():
            self.totals[side] += score.total

    def apply(self, action: Action | dict[str, Any], kind: str | None = None) -> Deal | Play | DealResult:
        """Apply one action (a value, or its JSON form, read by ``read_action``) and return what it
        did (Deal, Play or DealResult); ``kind`` (deal, play or tally): the one type of action
        accepted (None: any). A refused action changes nothing. After it, ``log[-1]`` holds the
        action's canonical form: the one that replays to the same thing (a play's ``take`` as the
        capture made and ``by`` as the player whose turn it was, a tally with every field). Store
        that, not the input. Raises NotationError for no action, what ``start_deal``, ``play`` and
        ``tally`` raise.

        >>> from pasur_cli.engine.rules import PRESETS
        >>> match = Match(["Ali", "Sara"], PRESETS["pagat"])
        >>> _ = match.apply({"type": "deal", "table": ["5c", "9♦", "3h", "ks"]})
        >>> _ = match.apply({"type": "play", "card": "2s"})
        >>> match.log[-1].as_dict()
        {'type': 'play', 'card': '2S', 'take': ['9D'], 'by': 'Sara'}
        """
        action = read_action(action, kind)
        if isinstance(action, DealAction):
            return self.start_deal(action.table)
        if isinstance(action, PlayAction):
            return self.play(action.card, action.take, action.by)
        return self._tally(action)

    @property
    def last_action(self) -> Action | None:
        """The canonical form of the last action applied (None when this object applied none)."""
        return self.log[-1] if self.log else None

    def undo(self, count: int = 1) -> dict[str, Any]:
        """Take back the last ``count`` actions (as python-chess's ``pop()``) and return the last of
        them (its canonical form as JSON, ``Action.as_dict()``): the one way a match takes an action
        back (the store's undo calls it too). The match is rebuilt by replaying the actions before
        them; a deal in progress stays the same object, a play earlier. Raises IllegalPlayError when this object cannot
        take back that many (its log is shorter, or its earlier actions came from a snapshot)."""
        if not self.log:
            raise IllegalPlayError("there is nothing to take back.")
        if not 1 <= count <= len(self.log):
            raise IllegalPlayError("cannot undo {count}: at most {have} can be taken back here.", count=count,
                                   have=len(self.log))
        last = self.log[-1]
        again = Match.resume(self.players, self.rules, self.first_dealer, start=self.start,
                             results=self.results.earlier, completed_at=self.completed_at.earlier,
                             totals=self.start_totals)
        again.replay_more(self.log[:-count])
        for name in ("results", "completed_at", "totals", "log"):
            setattr(self, name, getattr(again, name))
        if self.deal is not None and again.deal is not None:
            vars(self.deal).update(vars(again.deal))  # the same deal, a play earlier: keep the object
        else:
            self.deal = again.deal
        return last.as_dict()


def _describe(action: object) -> str:
    try:
        text = read_action(action).line.replace("\t", " ")
    except (KeyError, TypeError, ValueError, AttributeError):
        text = repr(action)
    return shorten(text, 80)
