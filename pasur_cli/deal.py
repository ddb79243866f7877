"""One deal's state machine: the initial table check, plays, surs, and the end-of-deal sweep.

A Deal knows the players in playing order, their sides, who dealt, the rules and each side's
match total at the start of the deal (for ``sur_limit``). ``play()`` checks a play against the
rules and the cards seen so far, applies it and returns a frozen ``Play`` record.
"""

from __future__ import annotations

from typing import NamedTuple

from pasur_cli.captures import card_no_sur, legal_captures, verify_capture
from pasur_cli.cards import DECK, Card, Rank
from pasur_cli.errors import AmbiguousPlayError, IllegalPlayError
from pasur_cli.rules import Rules
from pasur_cli.scoring import PileCount, SideScore, score_deal

HANDS = {2: 6, 3: 4, 4: 3}  # hands per deal by number of players
CARDS_PER_HAND = 4


def table_problem(table: list[Card], rules: Rules) -> str | None:
    """What the dealer must do about this initial table (RULES.md section 3), or None when it stands."""
    if len(table) != 4 or len(set(table)) != 4:
        return f"the initial table is 4 different cards, not {len(set(table))}."
    if rules.table_check == "none":
        return None
    jacks = [c for c in table if c.rank == Rank.JACK]
    queens = sum(c.rank == Rank.QUEEN for c in table)
    kings = sum(c.rank == Rank.KING for c in table)
    most = 1 if rules.table_check == "standard" else 2
    if len(jacks) > 1 or queens > most or kings > most:
        what = "two or more J" if len(jacks) > 1 else (
            f"{queens} Q" if queens > most else f"{kings} K")
        return f"misdeal ({what} on the table): reshuffle and deal again."
    if jacks:
        return (f"{jacks[0].symbol} on the initial table: put it back into the stock, deal one"
                " replacement card, and enter the table with that card instead.")
    return None


def check_table(table: list[Card], rules: Rules) -> None:
    """Raise IllegalPlayError saying what the dealer must do when the initial table fails the check."""
    problem = table_problem(table, rules)
    if problem:
        raise IllegalPlayError(problem)


class Play(NamedTuple):
    """What one play did. ``no_sur`` says why a play that cleared the table was no sur;
    ``cancelled`` names the side whose sur this sur cancelled."""

    player: str
    side: str
    card: Card
    taken: tuple[Card, ...]
    hand: int
    sur: bool = False
    no_sur: str | None = None
    cancelled: str | None = None

    @property
    def trail(self) -> bool:
        return not self.taken


class Deal:
    """The state of one deal, advanced one play at a time."""

    def __init__(self, players: list[str], sides: list[str], dealer: int, rules: Rules,
                 table: list[Card], totals: dict[str, int] | None = None) -> None:
        check_table(table, rules)
        self.players, self.seat_sides, self.dealer, self.rules = players, sides, dealer, rules
        self.totals_at_start = dict(totals or {})
        self.table: list[Card] = list(table)
        self.piles: dict[str, list[Card]] = {s: [] for s in dict.fromkeys(sides)}
        self.surs: dict[str, int] = {s: 0 for s in self.piles}
        self.last_capturer: str | None = None
        self.plays: list[Play] = []
        self.where: dict[Card, str] = {c: "is on the initial table" for c in table}
        self.leftover: tuple[Card, ...] = ()

    # -- position -------------------------------------------------------------------------
    @property
    def hands(self) -> int:
        return HANDS[len(self.players)]

    @property
    def total_plays(self) -> int:
        return self.hands * CARDS_PER_HAND * len(self.players)

    @property
    def hand(self) -> int:
        """The hand being played (1-based); after the last play, the last hand."""
        per_hand = CARDS_PER_HAND * len(self.players)
        return min(len(self.plays) // per_hand + 1, self.hands)

    @property
    def turn(self) -> str | None:
        """Whose turn it is, or None once the deal is over."""
        if self.over:
            return None
        return self.players[(self.dealer + 1 + len(self.plays)) % len(self.players)]

    @property
    def over(self) -> bool:
        return len(self.plays) >= self.total_plays

    @property
    def unseen(self) -> int:
        return 52 - len(self.where)

    def side_of(self, player: str) -> str:
        return self.seat_sides[self.players.index(player)]

    # -- plays -----------------------------------------------------------------------------
    def verify_card(self, card: Card) -> None:
        """Raise IllegalPlayError when the card cannot be in anyone's hand."""
        if card in self.where:
            raise IllegalPlayError(f"{card.symbol} {self.where[card]}: it cannot be played now.")

    def resolve(self, card: Card, take: list[Card] | None) -> tuple[Card, ...]:
        """The capture a play makes: ``take`` checked, or the only legal one when take is None.

        Raises IllegalPlayError for an illegal take, AmbiguousPlayError when several are legal.
        """
        if take is not None:
            verify_capture(card, self.table, take, self.rules)
            return tuple(sorted(take))
        found = legal_captures(card, self.table, self.rules)
        if found.trail:
            return ()
        if len(found.options) == 1 and not found.truncated:
            return found.options[0]
        many = found.count if found.count is not None else "many"
        raise AmbiguousPlayError(
            f"{card.symbol} can capture in {many} ways; say which cards it takes.", list(found.options), found.count)

    def play(self, card: Card, take: list[Card] | None = None, by: str | None = None) -> Play:
        """Play ``card`` for whoever's turn it is; ``take`` names the table cards it captures.

        Raises IllegalPlayError (deal over, wrong player, card already seen, illegal capture)
        or AmbiguousPlayError (several captures and no take); nothing changes then.
        """
        if self.over:
            raise IllegalPlayError("this deal is over: every card has been played.")
        player = self.turn
        if by is not None and by != player:
            raise IllegalPlayError(f"it is {player}'s turn, not {by}'s.")
        self.verify_card(card)
        taken = self.resolve(card, take)
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
            for c in taken:
                self.where[c] = f"was captured by {player} in hand {hand}"
            self.where[card] = f"was played by {player} in hand {hand}"
        else:
            self.table.append(card)
            self.where[card] = f"is on the table (trailed by {player} in hand {hand})"
        record = Play(player, side, card, taken, hand, sur, no_sur, cancelled)
        self.plays.append(record)
        if self.over:
            self._sweep()
        return record

    def _no_sur_reason(self, card: Card, side: str) -> str | None:
        rules = self.rules
        by_card = card_no_sur(card, rules)
        if by_card:
            return by_card
        if self.hand == self.hands and not rules.last_hand_sur:
            return "no sur can be made in the last hand"
        start = self.totals_at_start.get(side, 0)
        if rules.sur_limit is not None and start >= rules.sur_limit:
            return f"{side} had {start} points at the start of the deal, at or above the sur limit {rules.sur_limit}"
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
        """End of deal: the table goes to the last capturer's side (the dealer's side if nobody captured)."""
        self.leftover = tuple(sorted(self.table))
        taker = self.last_capturer or self.players[self.dealer]
        self.piles[self.side_of(taker)].extend(self.table)
        self.table = []
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
