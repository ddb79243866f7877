"""One deal's state machine: the initial table check, plays, surs, and the end-of-deal sweep.

A Deal knows the players in playing order, their sides, who dealt, the rules and each side's
match total at the start of the deal (for ``sur_limit``). ``play()`` checks a play against the
rules and the cards seen so far, applies it and returns a frozen ``Play`` record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pasur_cli.engine.arguments import not_a_choice
from pasur_cli.engine.captures import Captures, card_no_sur, legal_captures, verify_capture
from pasur_cli.engine.cards import DECK, ORDER, Card, Rank
from pasur_cli.engine.errors import AmbiguousPlayError, IllegalPlayError, NotationError, PasurError, Plural, Words
from pasur_cli.engine.names import TABLE_CARDS
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.scoring import PileCount, SideScore, score_deal
from pasur_cli.engine.values import FrozenDict, Value

HANDS = {2: 6, 3: 4, 4: 3}  # hands per deal by number of players
CARDS_PER_HAND = 4


def check_table_size(table: Sequence[Card]) -> None:
    """Raise NotationError unless ``table`` is as many cards as an initial table holds (the one
    sentence of that rule: the engine, the commands and the session say it so)."""
    if len(table) != TABLE_CARDS:
        raise NotationError(Plural("the initial table is 4 cards; {count} was given ({cards}).",
                                   "the initial table is 4 cards; {count} were given ({cards}).", "count"),
                            count=len(table), cards=list(table))
    if len(set(table)) != len(table):
        twice = next(card for card in table if table.count(card) > 1)
        raise NotationError("{card} is named twice in the {what}: each card exists once.", card=twice,
                            what=Words("table"))


def table_problem(table: list[Card], rules: Rules) -> IllegalPlayError | None:
    """What the dealer must do about this initial table (RULES.md section 3), as an error carrying
    the facts (not raised), or None when the table stands (its size: ``check_table_size``)."""
    if rules.table_check == "none":
        return None
    jacks = [c for c in table if c.rank == Rank.JACK]
    queens = sum(c.rank == Rank.QUEEN for c in table)
    kings = sum(c.rank == Rank.KING for c in table)
    most = 1 if rules.table_check == "standard" else 2
    if len(jacks) > 1:
        return IllegalPlayError("misdeal (two or more J on the table): reshuffle and deal again.")
    if queens > most:
        return IllegalPlayError("misdeal ({count} Q on the table): reshuffle and deal again.", count=queens)
    if kings > most:
        return IllegalPlayError("misdeal ({count} K on the table): reshuffle and deal again.", count=kings)
    if jacks:
        return IllegalPlayError("{card} on the initial table: put it back into the stock, deal one"
                                " replacement card, and enter the table with that card instead.", card=jacks[0])
    return None


def check_table(table: list[Card], rules: Rules) -> None:
    """Raise NotationError for a table that is not 4 cards, IllegalPlayError saying what the dealer
    must do when the initial table fails the rules' check."""
    check_table_size(table)
    problem = table_problem(table, rules)
    if problem is not None:
        raise problem


class NoSurRule:
    """The rule options that make a table-clearing play no sur (plain strings, as ``Suit``)."""

    JACK_SUR = "jack_sur"            # a jack clears the table without a sur
    LAST_HAND_SUR = "last_hand_sur"  # no sur in the deal's last hand
    SUR_LIMIT = "sur_limit"          # the side's match total was at or above the sur limit
    ALL = (JACK_SUR, LAST_HAND_SUR, SUR_LIMIT)


class NoSur(Value):
    """Why a play that cleared the table was no sur: the ``rule`` option that says so (a
    ``NoSurRule``: ``jack_sur``, ``last_hand_sur`` or ``sur_limit``); for ``sur_limit`` the side's
    match ``total`` at the start of the deal and the ``limit``."""

    rule: str
    total: int | None = None
    limit: int | None = None

    def __post_init__(self) -> None:
        if self.rule not in NoSurRule.ALL:
            raise not_a_choice("rule", self.rule, NoSurRule.ALL)


class Where:
    """Where a card was seen in a deal (plain strings, as ``Suit``)."""

    INITIAL = "initial"    # on the initial table
    TABLE = "table"        # on the table of a position set up mid-deal
    TRAILED = "trailed"    # played and left on the table
    PLAYED = "played"      # played, and it captured
    CAPTURED = "captured"  # taken from the table
    ALL = (INITIAL, TABLE, TRAILED, PLAYED, CAPTURED)


class Seen(Value):
    """Where a card was seen in this deal: ``how`` is a ``Where`` (``initial``, ``trailed``,
    ``played``, ``captured``, or ``table`` in a position set up mid-deal); ``player`` and ``hand``
    say by whom and when."""

    how: str
    player: str | None = None
    hand: int | None = None

    def __init__(self, how: str, player: str | None = None, hand: int | None = None) -> None:
        # written out (not Value's generic one): one is made for every play
        if how not in Where.ALL:
            raise not_a_choice("how", how, Where.ALL)
        setter = object.__setattr__
        setter(self, "how", how)
        setter(self, "player", player)
        setter(self, "hand", hand)


class Play(Value):
    """What one play did, and what a screen shows after it (no caller keeps the Deal beside it).

    ``no_sur`` says why a play that cleared the table was no sur; ``cancelled`` names the side
    whose sur this sur cancelled. After the play: ``table`` the cards on the table (before the
    end-of-deal sweep), ``surs`` the surs each side holds, ``turn`` whose turn it is (None once
    the deal is over), ``hand_over`` whether the play ended a hand that is not the deal's last,
    ``stock`` the cards left in the stock once the next hand is dealt, ``hands`` the deal's
    hands; at the deal's end, ``leftover`` the cards the ``leftover_taker`` took from the table.
    """

    player: str
    side: str
    card: Card
    taken: tuple[Card, ...]
    hand: int
    sur: bool = False
    no_sur: NoSur | None = None
    cancelled: str | None = None
    table: tuple[Card, ...] = ()
    surs: Mapping[str, int] = FrozenDict()
    turn: str | None = None
    hand_over: bool = False
    stock: int = 0
    hands: int = 0
    leftover: tuple[Card, ...] = ()
    leftover_taker: str | None = None

    def __init__(self, player: str, side: str, card: Card, taken: tuple[Card, ...], hand: int, sur: bool = False,
                 no_sur: NoSur | None = None, cancelled: str | None = None, table: tuple[Card, ...] = (),
                 surs: Mapping[str, int] = FrozenDict(), turn: str | None = None,
                 hand_over: bool = False, stock: int = 0, hands: int = 0, leftover: tuple[Card, ...] = (),
                 leftover_taker: str | None = None) -> None:
        # written out (not Value's generic one): one is made for every play
        setter = object.__setattr__
        setter(self, "player", player)
        setter(self, "side", side)
        setter(self, "card", card)
        setter(self, "taken", taken)
        setter(self, "hand", hand)
        setter(self, "sur", sur)
        setter(self, "no_sur", no_sur)
        setter(self, "cancelled", cancelled)
        setter(self, "table", table)
        setter(self, "surs", surs if isinstance(surs, FrozenDict) else FrozenDict(surs))
        setter(self, "turn", turn)
        setter(self, "hand_over", hand_over)
        setter(self, "stock", stock)
        setter(self, "hands", hands)
        setter(self, "leftover", leftover)
        setter(self, "leftover_taker", leftover_taker)

    @property
    def trail(self) -> bool:
        return not self.taken

    @property
    def deal_over(self) -> bool:
        """Whether this was the deal's last play."""
        return self.turn is None

    @property
    def next_hand(self) -> int:
        """The hand the next play is in (the last hand after the deal's last play)."""
        return self.hand + 1 if self.hand_over else self.hand


class Deal:
    """The state of one deal, advanced one play at a time.

    ``players`` in seat order, ``sides`` the side of each seat, ``dealer`` the dealer's seat,
    ``totals`` each side's match total at the start of the deal (for ``sur_limit``). Ask before
    doing, as with pokerkit: ``verify_play`` raises the reason a play is refused, ``can_play``
    says whether it would be accepted, ``play`` does it and returns a ``Play``.

    >>> from pasur_cli.engine.cards import parse_card, parse_cards
    >>> from pasur_cli.engine.rules import PRESETS
    >>> deal = Deal(["Ali", "Sara"], ["Ali", "Sara"], 0, PRESETS["pagat"], parse_cards("5C 9D 3H KS"))
    >>> deal.turn, deal.can_play(parse_card("9D")), deal.can_play(parse_card("2S"))
    ('Sara', False, True)
    >>> deal.play(parse_card("2S")).taken
    (Card.parse('9D'),)
    """

    def __init__(self, players: list[str], sides: list[str], dealer: int, rules: Rules,
                 table: list[Card], totals: dict[str, int] | None = None) -> None:
        check_table(table, rules)
        self._begin(players, sides, dealer, rules, table, totals)

    @classmethod
    def _after_check(cls, players: list[str], sides: list[str], dealer: int, rules: Rules,
                table: list[Card], totals: dict[str, int] | None = None) -> Deal:
        """The deal, for a caller that has just checked the table (``Match.verify_start_deal``):
        the check is made once."""
        deal = cls.__new__(cls)
        deal._begin(players, sides, dealer, rules, table, totals)
        return deal

    def _begin(self, players: list[str], sides: list[str], dealer: int, rules: Rules,
               table: list[Card], totals: dict[str, int] | None) -> None:
        self.players, self.seat_sides, self.dealer, self.rules = list(players), list(sides), dealer, rules
        self.totals_at_start = dict(totals or {})
        self.table: list[Card] = list(table)
        self.piles: dict[str, list[Card]] = {s: [] for s in dict.fromkeys(sides)}
        self.surs: dict[str, int] = {s: 0 for s in self.piles}
        self.last_capturer: str | None = None
        self.plays: list[Play] = []  # the plays made in this object (all of them unless set up mid-deal)
        self.played = 0  # plays made in the deal so far
        self.where: dict[Card, Seen] = dict.fromkeys(table, Seen(Where.INITIAL))
        self.leftover: tuple[Card, ...] = ()  # the table the last capturer took at the end
        self.leftover_taker: str | None = None  # who took it (the dealer if nobody captured)
        self._whole = True  # played from its first card: every one of the 52 cards is accounted for
        self.hands = HANDS[len(self.players)]  # hands in this deal
        self.cards_per_hand = CARDS_PER_HAND
        self.total_plays = self.hands * CARDS_PER_HAND * len(self.players)

    @classmethod
    def from_position(cls, players: list[str], rules: Rules, table: list[Card] | tuple[Card, ...], *,
                      sides: list[str] | None = None, dealer: int = 0, played: int = 0,
                      piles: dict[str, list[Card]] | None = None, surs: dict[str, int] | None = None,
                      last_capturer: str | None = None, totals: dict[str, int] | None = None) -> Deal:
        """A deal as it stands after ``played`` plays (which fixes the hand and whose turn it is):
        ``table`` is on the table now (no initial-table check), ``piles`` and ``surs`` are what
        each side holds, ``last_capturer`` the player who captured last; the other cards are
        unseen and may be played. For trainers, puzzles and tests. ``sides`` defaults to one
        side per player. At the end of such a deal the 52 cards are not counted (only the cards
        given here were seen).

        >>> from pasur_cli.engine.cards import parse_card, parse_cards
        >>> from pasur_cli.engine.rules import PRESETS
        >>> deal = Deal.from_position(["A", "B"], PRESETS["pagat"], parse_cards("2C 3C"), dealer=1, played=1,
        ...                           surs={"A": 1})
        >>> deal.turn, deal.hand, deal.play(parse_card("6C")).cancelled, deal.surs
        ('B', 1, 'A', {'A': 0, 'B': 0})
        """
        deal = cls(players, sides or list(players), dealer, rules.replace(table_check="none"),
                   [c for c in DECK if c not in table][:4], totals)
        deal.rules = rules
        deal.table = list(table)
        deal.where = dict.fromkeys(table, Seen(Where.TABLE))
        for side, cards in (piles or {}).items():
            deal.piles[side] = list(cards)
            deal.where.update(dict.fromkeys(cards, Seen(Where.CAPTURED)))
        deal.surs.update(surs or {})
        if not 0 <= played < deal.total_plays:
            raise IllegalPlayError(Plural("a {players}-player deal has {most} play; {played} cannot have been"
                                          " made.", "a {players}-player deal has {most} plays; {played} cannot"
                                          " have been made.", "most"),
                                   players=len(players), most=deal.total_plays, played=played)
        deal.played, deal.last_capturer, deal._whole = played, last_capturer, False
        return deal

    # -- position -------------------------------------------------------------------------
    @property
    def hand(self) -> int:
        """The hand being played (1-based); after the last play, the last hand."""
        per_hand = CARDS_PER_HAND * len(self.players)
        return min(self.played // per_hand + 1, self.hands)

    @property
    def turn(self) -> str | None:
        """Whose turn it is, or None once the deal is over."""
        if self.over:
            return None
        return self.players[(self.dealer + 1 + self.played) % len(self.players)]

    @property
    def over(self) -> bool:
        return self.played >= self.total_plays

    @property
    def hand_played_out(self) -> bool:
        """Whether the last play ended a hand that is not the deal's last (the next hand is dealt now)."""
        return bool(self.played) and not self.played % (CARDS_PER_HAND * len(self.players)) and not self.over

    @property
    def stock(self) -> int:
        """How many cards are left in the stock once the hand being played has been dealt."""
        return 52 - 4 - CARDS_PER_HAND * len(self.players) * self.hand

    def cards_left(self) -> dict[str, int]:
        """How many cards each player still holds in the hand being played, in playing order from
        whose turn it is."""
        n = len(self.players)
        in_hand = self.played % (CARDS_PER_HAND * n)
        leader = (self.dealer + 1) % n
        left = {}
        for j in range(n):
            seat = (leader + j) % n
            left[self.players[seat]] = CARDS_PER_HAND - max(0, (in_hand - j + n - 1) // n)
        turn = self.players.index(self.turn) if self.turn else 0
        return {self.players[(turn + k) % n]: left[self.players[(turn + k) % n]] for k in range(n)}

    @property
    def unseen(self) -> int:
        """How many cards have not been seen in this deal (still in hands or the stock)."""
        return 52 - len(self.where)

    @property
    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards not yet seen in this deal, canonically ordered: the ones that can be played."""
        return tuple(c for c in DECK if c not in self.where)

    def side_of(self, player: str) -> str:
        return self.seat_sides[self.players.index(player)]

    @property
    def table_taker(self) -> str:
        """Who takes the cards left on the table when the deal ends (RULES.md section 6; the one
        place the rule is written): the last capturer, or the dealer when nobody captured."""
        return self.last_capturer or self.players[self.dealer]

    # -- plays -----------------------------------------------------------------------------
    def verify_card(self, card: Card) -> None:
        """Raise IllegalPlayError when the card cannot be in anyone's hand."""
        seen = self.where.get(card)
        if seen is None:
            return
        match seen.how:
            case Where.INITIAL:
                raise IllegalPlayError("{card} is on the initial table: it cannot be played now.", card=card)
            case Where.TABLE:
                raise IllegalPlayError("{card} is on the table: it cannot be played now.", card=card)
            case Where.TRAILED:
                raise IllegalPlayError("{card} is on the table (trailed by {player} in hand {hand}): it cannot"
                                       " be played now.", card=card, player=seen.player, hand=seen.hand)
            case Where.PLAYED:
                raise IllegalPlayError("{card} was played by {player} in hand {hand}: it cannot be played now.",
                                       card=card, player=seen.player, hand=seen.hand)
            case Where.CAPTURED if seen.player is None:
                raise IllegalPlayError("{card} was captured: it cannot be played now.", card=card)
            case Where.CAPTURED:
                raise IllegalPlayError("{card} was captured by {player} in hand {hand}: it cannot be played now.",
                                       card=card, player=seen.player, hand=seen.hand)

    def resolve(self, card: Card, take: Iterable[Card] | None) -> tuple[Card, ...]:
        """The capture a play makes: ``take`` checked, or the only legal one when take is None.

        Raises IllegalPlayError for an illegal take, AmbiguousPlayError when several are legal.
        """
        if take is not None:
            take = list(take)
            verify_capture(card, self.table, take, self.rules)
            return tuple(sorted(take, key=ORDER))
        found = legal_captures(card, self.table, self.rules)
        if found.forced is not None:
            return found.forced
        if found.count is None:
            raise AmbiguousPlayError("{card} can capture in many ways; say which cards it takes.",
                                     list(found.options), None, card=card)
        raise AmbiguousPlayError(Plural("{card} can capture in {ways} way; say which cards it takes.",
                                        "{card} can capture in {ways} ways; say which cards it takes.", "ways"),
                                 list(found.options), found.count, card=card, ways=found.count)

    def _verify_card(self, card: Card, by: str | None) -> None:
        """Raise IllegalPlayError when nobody can play ``card`` now (the deal over, not ``by``'s turn,
        the card seen)."""
        if self.over:
            raise IllegalPlayError("this deal is over: every card has been played.")
        player = self.turn
        if by is not None and by != player:
            raise IllegalPlayError("it is {player}'s turn, not {by}'s.", player=player, by=by)
        self.verify_card(card)

    def capture_choice(self, card: Card, by: str | None = None) -> Captures | None:
        """The question to ask before playing ``card`` with no capture named: None when the engine
        has the answer (the only legal capture, or a trail: ``play(card)`` makes it), else the legal
        captures to choose from (``options``, ``count``, ``truncated``). Raises IllegalPlayError
        for a card nobody can play now, as ``verify_play`` does.

        >>> from pasur_cli.engine.cards import parse_card, parse_cards
        >>> from pasur_cli.engine.rules import PRESETS
        >>> deal = Deal(["Ali", "Sara"], ["Ali", "Sara"], 0, PRESETS["pagat"], parse_cards("AC 2D 4H 5C"))
        >>> deal.capture_choice(parse_card("5S")).count, deal.capture_choice(parse_card("KS"))
        (2, None)
        """
        self._verify_card(card, by)
        found = legal_captures(card, self.table, self.rules)
        return None if found.forced is not None else found

    def verify_play(self, card: Card, take: Iterable[Card] | None = None, by: str | None = None) -> tuple[Card, ...]:
        """Raise the reason ``play`` would refuse this play; return the cards it would capture.

        IllegalPlayError: the deal is over, it is not ``by``'s turn, the card was seen, the
        capture is illegal; AmbiguousPlayError: several captures and no ``take``.
        """
        self._verify_card(card, by)
        return self.resolve(card, take)

    def can_play(self, card: Card, take: Iterable[Card] | None = None, by: str | None = None) -> bool:
        """Whether ``play`` would accept this play (an ambiguous capture counts as refused)."""
        try:
            self.verify_play(card, take, by)
        except PasurError:
            return False
        return True

    def play(self, card: Card, take: Iterable[Card] | None = None, by: str | None = None) -> Play:
        """Play ``card`` for whoever's turn it is; ``take`` names the table cards it captures
        (None: the only legal capture, or a trail). Returns what the play did.

        Raises what ``verify_play`` raises; nothing changes then.
        """
        taken = self.verify_play(card, take, by)
        player = self.turn
        assert player is not None  # verify_play refused a play once the deal is over
        side, hand = self.side_of(player), self.hand
        sur, no_sur, cancelled = False, None, None
        if taken and len(taken) == len(self.table):
            no_sur = self._no_sur_reason(card, side)
            if no_sur is None:
                sur, cancelled = True, self._add_sur(side)
        if taken:
            self.table = [c for c in self.table if c not in taken]
            self.piles[side].extend((card, *taken))
            self.last_capturer = player
            captured = Seen(Where.CAPTURED, player, hand)
            for c in taken:
                self.where[c] = captured
            self.where[card] = Seen(Where.PLAYED, player, hand)
        else:
            self.table.append(card)
            self.where[card] = Seen(Where.TRAILED, player, hand)
        self.played += 1
        table = tuple(self.table)
        if self.over:
            self._sweep()
        record = Play(player, side, card, taken, hand, sur, no_sur, cancelled, table, FrozenDict(self.surs),
                      self.turn, self.hand_played_out, self.stock, self.hands, self.leftover, self.leftover_taker)
        self.plays.append(record)
        return record

    def _no_sur_reason(self, card: Card, side: str) -> NoSur | None:
        rules = self.rules
        by_card = card_no_sur(card, rules)
        if by_card:
            return NoSur(by_card)
        if self.hand == self.hands and not rules.last_hand_sur:
            return NoSur(NoSurRule.LAST_HAND_SUR)
        start = self.totals_at_start.get(side, 0)
        if rules.sur_limit is not None and start >= rules.sur_limit:
            return NoSur(NoSurRule.SUR_LIMIT, start, rules.sur_limit)
        return None

    def _add_sur(self, side: str) -> str | None:
        """Record a sur for ``side``; return the opponent side whose sur it cancelled, if any."""
        if self.rules.sur_cancel:
            for other, held in self.surs.items():
                if other != side and held:
                    self.surs[other] -= 1
                    return other
        self.surs[side] += 1
        return None

    def _sweep(self) -> None:
        """End of deal (RULES.md section 6): the table goes to the last capturer's side, or the
        dealer's side if nobody captured. ``leftover`` and ``leftover_taker`` say what and who."""
        self.leftover = tuple(sorted(self.table, key=ORDER))
        self.leftover_taker = self.table_taker
        self.piles[self.side_of(self.leftover_taker)].extend(self.table)
        self.table = []
        if self._whole:
            self._account()

    def _account(self) -> None:
        """Every one of the 52 cards is in exactly one pile once the deal is over."""
        in_piles = [c for pile in self.piles.values() for c in pile]
        if len(in_piles) != 52 or set(in_piles) != set(DECK):
            raise AssertionError(f"deal accounting failed: {len(in_piles)} cards in piles")

    # -- scoring ---------------------------------------------------------------------------
    def score(self) -> dict[str, SideScore]:
        """Each side's score for this deal (meaningful once the deal is over)."""
        return score_deal({s: PileCount.of(p) for s, p in self.piles.items()}, self.surs, self.rules)

    def score_if_ended(self) -> dict[str, SideScore]:
        """Each side's score if the deal ended now: the cards on the table go to the side of
        ``table_taker`` (the race `show` and the scoreboard show)."""
        piles = {s: list(p) for s, p in self.piles.items()}
        piles[self.side_of(self.table_taker)] += self.table
        return score_deal({s: PileCount.of(p) for s, p in piles.items()}, self.surs, self.rules)
