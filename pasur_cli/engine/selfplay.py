"""Whole deals played by a policy for each seat, in the analysis engine's simulator: how a bot, a
trainer or bench/strength.py pits ``advise``'s search against other players without the referee's
explanations (the simulator's plays replay through ``Deal`` to the same scores: tests/test_advice.py).

A policy is a function of a ``Turn`` (what its seat is shown when it is to play) that returns one
of ``turn.options``: a card of its hand and the cards it takes (empty: a trail).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from pasur_cli.engine import playout as sim
from pasur_cli.engine.arguments import check_items, check_type, check_whole
from pasur_cli.engine.captures import verify_capture
from pasur_cli.engine.cards import DECK, Card, parse_cards
from pasur_cli.engine.deal import HANDS, check_table
from pasur_cli.engine.errors import IllegalPlayError, Words
from pasur_cli.engine.names import side_names
from pasur_cli.engine.rules import Rules

Option = tuple[Card, tuple[Card, ...]]
Policy = Callable[["Turn"], Option]
INDEX = {card: i for i, card in enumerate(DECK)}


class Turn:
    """What the seat to play is shown: its ``seat`` (0 deals), ``hand``, the ``table``, every legal
    ``options`` (card, take) in hand order, the cards it has ``seen`` (the initial table and every
    card played) and the deal's ``rng``. ``search`` and ``sees_all`` are the engine's own choices."""

    def __init__(self, game: sim.Game, pos: sim.Position, seen: set[int], rng: random.Random) -> None:
        self.game, self.pos, self.rng = game, pos, rng
        self.seat = sim.turn(pos, game)
        self.known = seen
        self.coded = [(c, t) for c in pos.hands[self.seat] for t in (sim.captures(c, pos.table, game) or [()])]

    @property
    def hand(self) -> tuple[Card, ...]:
        return tuple(DECK[c] for c in self.pos.hands[self.seat])

    @property
    def table(self) -> tuple[Card, ...]:
        return tuple(DECK[c] for c in self.pos.table)

    @property
    def seen(self) -> frozenset[Card]:
        return frozenset(DECK[c] for c in self.known)

    @property
    def options(self) -> list[Option]:
        return [(DECK[c], tuple(DECK[t] for t in take)) for c, take in self.coded]

    def sur(self, card: Card) -> bool:
        """Whether a capture with ``card`` that clears the table now is a sur."""
        return sim.can_sur(self.pos, self.game, self.seat, INDEX[card])

    def search(self, effort: int) -> Option:
        """``advise``'s choice: the best option by its search with ``effort`` guessed deals per option on
        what this seat has seen (0: the playout policy alone). Raises NotationError for an effort that
        is not a whole number from 0 to 10,000."""
        check_whole("effort", effort, 0, 10_000)
        pos, game, seat = self.pos, self.game, self.seat
        if len(self.coded) == 1:
            return self.options[0]
        if effort == 0:
            card, move = sim.policy(pos, game)
            return DECK[card], tuple(DECK[c] for c in move[0])
        mine = pos.hands[seat]
        unseen = [c for c in range(52) if c not in self.known and c not in mine]
        sizes = [0 if k == seat else len(h) for k, h in enumerate(pos.hands)]
        base = sim.Position(pos.table, [], [], pos.played, pos.clubs[:], pos.points[:], pos.surs[:], pos.last)
        values = sim.search(game, base, seat, mine[:], unseen, sizes, self.coded, self.rng, effort)
        return self.options[max(range(len(values)), key=lambda k: (values[k], -k))]

    def sees_all(self, plays: int, knows_random: bool = False) -> Option:
        """The upper reference, a player that sees every hand and the stock: every option played and
        the true deal searched by alpha-beta minimax (with ``knows_random``: the other side's plays
        averaged, as against a uniformly random player) to the end of the hand ``plays`` plays ahead,
        judged there (``playout.judge``; exact from the last hand on). Raises NotationError for
        ``plays`` that is not a whole number from 0 to 48."""
        check_whole("plays", plays, 0, 48)
        game, side = self.game, self.game.seat_side[self.seat]
        stop = sim.horizon(game, self.pos.played, plays)
        best, best_value, alpha = 0, -1e9, -1e9
        for k, (card, take) in enumerate(self.coded if len(self.coded) > 1 else []):
            pos = self.pos.copy()
            sim.play(pos, game, card, take)
            value = expected(pos, game, side, stop) if knows_random else sim.minimax(pos, game, side, alpha, 1e9, stop)
            if value > best_value:
                best, best_value, alpha = k, value, value
        return self.options[best]


def expected(pos: sim.Position, game: sim.Game, side: int, stop: int) -> float:
    """``side``'s expected margin at play ``stop`` (judged there, exact at the end of the deal) when it
    plays its best and every other seat uniformly at random over its options."""
    if pos.played >= game.total_plays:
        return sim.margin(sim.scores(pos, game), side)
    if pos.played >= stop:
        return sim.judge(pos, game, side)
    seat = sim.turn(pos, game)
    values = []
    for card in pos.hands[seat]:
        for move in sim.moves(card, pos.table, game):
            child = pos.copy()
            sim.play_move(child, game, card, move)
            values.append(expected(child, game, side, stop))
    return max(values) if game.seat_side[seat] == side else sum(values) / len(values)


def play_deal(rules: Rules, table: Sequence[Card], stock: Sequence[Card], seats: Sequence[Policy],
              rng: random.Random) -> list[int]:
    """Play one deal to its end: ``table`` the initial table, ``stock`` the other 48 cards, dealt from
    its end 4 a seat in seat order (seat 0's first), seat 0 dealing and seat 1 leading; each seat's policy
    chooses its plays. Each side's deal score, sides in seat order (4 players in teams: seats 0 and
    2, then 1 and 3). Raises NotationError for arguments of the wrong kind or a deck that is not
    whole, IllegalPlayError for a table the rules refuse or a policy's illegal choice."""
    check_type("rules", rules, Rules)
    check_items("seats", seats, Callable)  # type: ignore[arg-type]
    check_type("rng", rng, random.Random)
    if len(seats) not in HANDS:
        raise IllegalPlayError("Pasur is played by 2, 3 or 4 players, not {count}.", count=len(seats))
    check_table(list(table), rules)
    cards = parse_cards([*table, *stock], Words("list"))
    check_whole("len(stock)", len(cards) - len(table), 48, 48)
    sides = side_names([str(k) for k in range(len(seats))], rules.teams)
    order = list(dict.fromkeys(sides))
    game = sim.Game(rules, [order.index(s) for s in sides], 0, [True] * len(order))
    deck = [INDEX[c] for c in stock]
    hands = [deck[len(deck) - 4 * (k + 1):len(deck) - 4 * k] for k in range(len(seats))]
    del deck[len(deck) - 4 * len(seats):]
    zero = [0] * len(order)
    pos = sim.Position(tuple(sorted(INDEX[c] for c in table)), hands, deck, 0, zero[:], zero[:], zero[:], -1)
    seen = set(pos.table)
    while pos.played < game.total_plays:
        turn = Turn(game, pos, seen, rng)
        card, take = seats[turn.seat](turn)
        choice = (INDEX.get(card, -1), tuple(sorted(INDEX.get(c, -1) for c in take)))
        if choice not in turn.coded:
            refuse(turn, card, take)
        seen.add(choice[0])
        sim.play(pos, game, *choice)
    return sim.scores(pos, game)


def refuse(turn: Turn, card: object, take: object) -> None:
    """Raise IllegalPlayError for a policy's choice that is not one of ``turn.options`` (with the
    capture's own reason when the card is in the hand; NotationError for what is no card)."""
    check_type("card", card, Card)
    check_items("take", take, Card)
    if card in turn.hand:
        verify_capture(card, turn.table, take, turn.game.rules)  # type: ignore[arg-type]
    raise IllegalPlayError("seat {seat}'s policy chose {card} taking {take}: not one of its options ({hand} in"
                           " hand, {table} on the table).", seat=turn.seat, card=card, take=list(take),  # type: ignore[call-overload]
                           hand=list(turn.hand), table=list(turn.table))
