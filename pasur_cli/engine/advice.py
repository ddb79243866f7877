"""The analysis engine: what a hand's options are worth (``advise``) and what each play of a
finished deal cost (``review``); and whole deals played by a policy for each seat, each shown a
``Turn`` whose ``search`` is advise's own (``play_deal``: a bot's or bench/strength.py's arena; the
simulator's plays replay through ``Deal`` to the same scores, tests/test_advice.py).

Knowledge rule: a player knows their own hand, the table, and every card seen in the deal (the
initial table, every card played or captured); never the other hands or the stock. The engine
therefore weighs an option by determinized Monte Carlo (``playout.searched``): it deals the unseen
cards at random into the other hands (of the sizes they have now) and the stock, many times, plays
each option in such guessed deals and plays on with a fast playout policy for every seat
(``playout.policy``) to the end of a hand a few plays ahead, where the deal is judged
(``playout.judge``), or to the end of the deal; the value is the mean deal margin: the player's
side's deal score less the average of the other sides'. Every option is played in the same
guessed deals (common random numbers), so the differences between options carry much less noise
than the values themselves; the guesses go to the options that could be best (successive
halving); with nothing hidden that matters (two sides, the stock empty) the deal is played out
exactly (minimax).

An option's ``value`` is that expected deal margin at the end of the deal, counting what the sides
already hold (so the last play of a deal, with nothing hidden, is valued exactly). A play's
``loss`` is the best option's value less the value of the play made.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pasur_cli.engine import playout as sim
from pasur_cli.engine.action import Action, PlayAction
from pasur_cli.engine.arguments import check_items, check_type, check_whole, wrong_type
from pasur_cli.engine.captures import legal_captures, verify_capture
from pasur_cli.engine.cards import DECK, ORDER, Card, as_card, parse_cards
from pasur_cli.engine.deal import HANDS, Deal, check_table
from pasur_cli.engine.errors import IllegalPlayError, Plural, Words
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import side_names
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.values import FrozenDict, Value, check_fields
from pasur_cli.engine.weighing import CLUBS, LEFTOVER, PARTS, Outcome, Weighing, card_parts, taken

EFFORT = 16  # guessed deals per option at the default effort (its time and strength: bench/strength.py)
REVIEW_EFFORT = 12  # a review's first guesses per play; more where its label or best option is in
REVIEW_MOST = 400  # doubt, up to these: two seeds must agree on both (engine.weighing)
HINT_EFFORT = 12  # one decision, read by a person: first guesses, then more where the best options
HINT_MOST = 96  # are close, up to these (its time: bench/strength.py --speed)
GUESSES_MOST = 10_000  # the most guessed deals a caller may ask an option be played in (effort, most)
INACCURACY, MISTAKE, BLUNDER = 1.0, 2.0, 4.0  # expected points lost (a sur is 5)
INDEX = {card: i for i, card in enumerate(DECK)}
# The analysis that made a review: raise it whenever a change of the search, the weighing, the
# efforts above or DealReview's fields may change a deal's review, so that kept reviews are made again.
ANALYSIS_VERSION = 2
FATES = 2  # the cards a reason names at most for a card part


class Advice(Value):
    """One legal option of a hand: play ``card`` taking ``take`` (empty: a trail), worth ``value``
    (the expected deal margin of the player's side at the end of the deal)."""

    card: Card
    take: tuple[Card, ...]
    value: float
    parts: FrozenDict[str, float] = FrozenDict()  # the value by scoring part (engine.weighing), when asked

    @property
    def trail(self) -> bool:
        return not self.take


class Reply(Value):
    """The capture that answered a play most often in the guessed deals: ``player`` took ``take``
    (a sur or not) in ``count`` guesses of ``guesses``."""

    player: str
    take: tuple[Card, ...]
    sur: bool
    count: int
    guesses: int



class Sur(Value):
    """The surs of a side in the ``guesses`` after an option: ``made`` surs in all, ``other`` in the
    same guesses after the other option (the better play for the other side's surs after the play
    made, and the other way round); the most frequent was ``player``'s with ``card``, in ``count``
    guesses."""

    player: str
    card: Card
    count: int
    guesses: int
    made: int
    other: int


class Fate(Value):
    """A card that scores in a part of the loss: in how many guesses the player's side took it after
    the better play (``better``) and after the play made (``made``), of ``guesses``; ``player``, of
    another side, took it most often after the play made, in ``taken`` guesses ("" and 0: none did)."""

    card: Card
    better: int
    made: int
    guesses: int
    player: str = ""
    taken: int = 0


class Left(Value):
    """The table most often left after the play made to another side where a guess ended: its
    ``cards``, the ``player`` who takes them (``end``: the last capturer, at the deal's end; else the
    next hand's leader, who clears it first), in ``count`` guesses of ``guesses``."""

    cards: tuple[Card, ...]
    player: str
    end: bool
    count: int
    guesses: int


class Reason(Value):
    """Why a play cost what it did, from the search that weighed it: ``parts``, the best option's
    value less the play's by scoring part (``engine.weighing``: they add up to the loss); ``left``, the
    table the play left; ``reply``, the capture that answered the play most often (None: none did);
    ``swept``, in how many of the guesses the best option was answered by a sur; ``exact``: every
    card known, the deal played out by best play (one line, not guesses)."""

    parts: FrozenDict[str, float]
    left: tuple[Card, ...]
    reply: Reply | None
    swept: int
    guesses: int
    exact: bool = False
    # the facts the largest part is told with (``facts``): the sur of the player's side the better
    # play led to, the other side's after the play, the cards of a card part, the guesses the side led
    # the clubs in (after the better play, after the play), its mean clubs and the other side's (after
    # the better play, then after the play), the table the play left
    own_sur: Sur | None = None
    their_sur: Sur | None = None
    fates: tuple[Fate, ...] = ()
    led: tuple[int, ...] = ()
    clubs: tuple[float, ...] = ()
    table: Left | None = None

    @property
    def largest(self) -> str:
        """The part that weighs most in the loss: where the best option gains most over the play (the
        first of equals in PARTS's order). A part where the play did better is never it."""
        return max(PARTS, key=lambda p: (self.parts.get(p, 0.0), -PARTS.index(p)))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reason:
        """The reason whose ``as_dict()`` is ``data``. Raises as ``Value.from_dict``."""
        data = _checked(cls, data)
        reply, table = data.get("reply"), data.get("table")
        return super().from_dict({
            **data, "left": _kept_cards(data.get("left", ())),
            "reply": None if reply is None else Reply.from_dict({**_checked(Reply, reply),
                                                                 "take": _kept_cards(reply.get("take", ()))}),
            "own_sur": _sur(data.get("own_sur")), "their_sur": _sur(data.get("their_sur")),
            "fates": tuple(Fate.from_dict({**_checked(Fate, f), "card": as_card(f.get("card"))})
                           for f in data.get("fates", ())),
            "led": tuple(data.get("led", ())), "clubs": tuple(data.get("clubs", ())),
            "table": None if table is None else Left.from_dict({**_checked(Left, table),
                                                                "cards": _kept_cards(table.get("cards", ()))})})


def _sur(data: object) -> Sur | None:
    """A sur kept as ``Sur.as_dict`` (None: none). Raises as ``Value.from_dict``."""
    if data is None:
        return None
    data = _checked(Sur, data)
    return Sur.from_dict({**data, "card": as_card(data.get("card"))})


def _checked(kind: type[Value], data: object) -> dict[str, Any]:
    """``data`` when a ``kind`` can be made from it (``check_fields``); raises NotationError naming
    what is wrong otherwise."""
    return check_fields(kind.__name__, data, kind._fields, [n for n in kind._fields if n not in kind._defaults])


def _kept_cards(data: Iterable[object]) -> tuple[Card, ...]:
    """Cards kept as ``Card.as_dict`` or as their codes (``as_card``). Raises NotationError."""
    return tuple(as_card(c) for c in data)


class PlayReview(Value):
    """One play of a reviewed deal: who played ``card`` taking ``take`` in ``hand``; the best option
    (``best_card``, ``best_take``) given what the player knew then; the expected points the play
    cost (``loss``, >= 0) and its ``label`` (None, inaccuracy, mistake, blunder). ``choices`` is
    how many legal options the player had (1: nothing to decide, never labelled); ``lead`` how far
    the best option's value led the second best's."""

    player: str
    hand: int
    card: Card
    take: tuple[Card, ...]
    best_card: Card
    best_take: tuple[Card, ...]
    loss: float
    label: str | None
    choices: int
    lead: float = 0.0
    value: float = 0.0  # the play's value, and the best option's (expected deal margins)
    best_value: float = 0.0
    options: tuple[Advice, ...] = ()  # every legal option with its value, best first (when there was a choice)
    reason: Reason | None = None  # why it cost what it did (a marked play: an inaccuracy or worse)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayReview:
        """The play whose ``as_dict()`` is ``data`` (the one shape a review is kept in, cards as
        ``Card.as_dict`` or codes). Raises as ``Value.from_dict``, NotationError for a card that is none."""
        data = _checked(cls, data)
        reason = data.get("reason")
        return super().from_dict({
            **data, "card": as_card(data.get("card")), "take": _kept_cards(data.get("take", ())),
            "best_card": as_card(data.get("best_card")), "best_take": _kept_cards(data.get("best_take", ())),
            "options": tuple(Advice.from_dict({**o, "card": as_card(o.get("card")),
                                               "take": _kept_cards(o.get("take", ()))})
                             for o in data.get("options", ())),
            "reason": None if reason is None else Reason.from_dict(reason)})


class PlayerReview(Value):
    """One player's summary of a review: the ``choices`` made (plays with more than one option),
    the expected points ``lost`` in all, and the indices (into the review's plays) of the two
    worst plays that lost anything, worst first."""

    player: str
    choices: int
    lost: float
    worst: tuple[int, ...]


class DealReview(Value):
    """The review of finished deal number ``deal``: one ``PlayReview`` per play, in order."""

    deal: int
    plays: tuple[PlayReview, ...]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealReview:
        """The review whose ``as_dict()`` is ``data``: the one shape a review is kept in. Raises as
        ``Value.from_dict`` (and NotationError for a card that is none)."""
        data = _checked(cls, data)
        return super().from_dict({**data, "plays": tuple(PlayReview.from_dict(p) for p in data.get("plays", ()))})

    @property
    def players(self) -> tuple[PlayerReview, ...]:
        """A summary per player, in the order they first played."""
        out = []
        for name in dict.fromkeys(p.player for p in self.plays):
            mine = [(i, p) for i, p in enumerate(self.plays) if p.player == name]
            worst = sorted((i for i, p in mine if p.loss > 0), key=lambda i: (-self.plays[i].loss, i))[:2]
            out.append(PlayerReview(name, sum(p.choices > 1 for _, p in mine),
                                    round(sum(p.loss for _, p in mine), 2), tuple(worst)))
        return tuple(out)


def label(loss: float) -> str | None:
    """The label of a play that cost ``loss`` expected points."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def simulated_game(deal: Deal) -> sim.Game:
    """The simulator's view of ``deal``'s rules and seats (what every guessed deal shares)."""
    sides = list(dict.fromkeys(deal.seat_sides))
    rules = deal.rules
    limit = rules.sur_limit
    open_ = [limit is None or deal.totals_at_start.get(s, 0) < limit for s in sides]
    return sim.Game(rules, [sides.index(s) for s in deal.seat_sides], deal.dealer, open_)


def _hand(deal: Deal, hand: Iterable[Card | str] | str) -> list[Card]:
    """The hand of the player to move, checked: cards that can be in it, as many as they hold."""
    if deal.over or deal.turn is None:
        raise IllegalPlayError("this deal is over: every card has been played.")
    cards = parse_cards(hand, Words("hand"))
    for card in cards:
        deal.verify_card(card)
    held = deal.cards_left()[deal.turn]
    if len(cards) != held:
        raise IllegalPlayError(Plural("{player} holds {count} card at this point of hand {hand}, not {given}.",
                                      "{player} holds {count} cards at this point of hand {hand}, not {given}.",
                                      "count"), player=deal.turn, count=held, hand=deal.hand, given=len(cards))
    return sorted(cards, key=ORDER)


def simulated_position(deal: Deal, game: sim.Game) -> sim.Position:
    """The simulator's position of ``deal`` now: the table, what each side holds, whose turn."""
    sides = list(dict.fromkeys(deal.seat_sides))
    clubs = [0] * len(sides)
    points = [0] * len(sides)
    for side, pile in deal.piles.items():
        s = sides.index(side)
        for card in pile:
            i = INDEX[card]
            clubs[s] += sim.CLUB[i]
            points[s] += game.points[i]
    surs = [deal.surs.get(s, 0) for s in sides]
    last = deal.players.index(deal.last_capturer) if deal.last_capturer is not None else -1
    hands: list[list[int]] = [[] for _ in deal.players]
    return sim.Position(tuple(sorted(INDEX[c] for c in deal.table)), hands, [], deal.played, clubs, points, surs, last)


def options(deal: Deal, hand: list[Card]) -> list[tuple[Card, tuple[Card, ...]]]:
    """Every legal (card, capture) of ``hand`` in ``deal``, as the referee lists them."""
    found: list[tuple[Card, tuple[Card, ...]]] = []
    for card in hand:
        takes = legal_captures(card, deal.table, deal.rules).options
        found.extend((card, take) for take in takes or [()])
    return found


def _setting(deal: Deal, hand: list[Card]) -> tuple[sim.Game, sim.Position, int, list[int], list[int],
                                                      list[tuple[Card, tuple[Card, ...]]]]:
    """What a search of ``hand``'s options needs: the simulator's rules and position, the seat, the
    cards unseen by its player, the other hands' sizes, and the options as the referee lists them."""
    choices = options(deal, hand)
    game = simulated_game(deal)
    base = simulated_position(deal, game)
    held = deal.cards_left()
    sizes = [0 if p == deal.turn else held[p] for p in deal.players]
    unseen = [INDEX[c] for c in deal.unseen_cards if c not in hand]
    if sum(sizes) > len(unseen):
        raise IllegalPlayError(Plural("the other players hold {count} card, more than the cards still unseen"
                                      " ({unseen}).", "the other players hold {count} cards, more than the cards"
                                      " still unseen ({unseen}).", "count"), count=sum(sizes), unseen=len(unseen))
    return game, base, deal.players.index(deal.turn or ""), unseen, sizes, choices


def evaluate(deal: Deal, hand: list[Card], seed: int | None = None,
             effort: int = EFFORT) -> list[tuple[Card, tuple[Card, ...], float]]:
    """Each legal option of ``hand`` (checked) with its value, in the referee's order."""
    game, base, seat, unseen, sizes, choices = _setting(deal, hand)
    coded = [(INDEX[c], tuple(sorted(INDEX[t] for t in take))) for c, take in choices]
    rng = random.Random(0 if seed is None else seed)
    values = sim.search(game, base, seat, [INDEX[c] for c in hand], unseen, sizes, coded, rng, effort)
    return [(c, take, values[k]) for k, (c, take) in enumerate(choices)]


def check_search(seed: object, effort: object, most: object = 1) -> None:
    """Raise NotationError for a ``seed`` that is neither None nor a whole number, or an ``effort``
    or ``most`` that is no whole number from 1 to GUESSES_MOST (what ``advise``, ``hint`` and
    ``review`` take)."""
    if seed is not None:
        check_type("seed", seed, int)
    check_whole("effort", effort, 1, GUESSES_MOST)
    check_whole("most", most, 1, GUESSES_MOST)


def to_move(match: Match) -> str:
    """The player to move in the match's deal in progress: whose hand a hint weighs.

    Raises IllegalPlayError when the match is over (as a play would be refused) or no deal waits
    for a play (its table is not entered yet); NotationError when ``match`` is no Match.
    """
    check_type("match", match, Match)
    if match.finished:
        raise IllegalPlayError("the match is over: {side} won.", side=match.winner)
    if match.deal is None or match.deal.turn is None:
        raise IllegalPlayError("there is no deal in progress: enter the table of deal {number} first.",
                               number=match.deal_number)
    return match.deal.turn


def advise(match: Match | Deal, hand: Iterable[Card | str], *, seed: int | None = None,
           effort: int = EFFORT) -> tuple[Advice, ...]:
    """Every legal option of ``hand`` (the cards, as ``Card``s or codes, of the player to move in
    the match's deal in progress), best first, each with its value. Same ``seed``, same answer;
    ``effort`` is the number of guessed deals per option (spent by successive halving: the
    options that could be best are played in more of them).

    Raises IllegalPlayError when no deal waits for a play, a card has been seen in this deal (it
    cannot be in the hand), or the hand holds more or fewer cards than the player has now;
    NotationError for a card that is not one, or for a ``match``, ``seed`` or ``effort`` that is
    not one (``check_search``: effort from 1 to GUESSES_MOST).
    """
    check_search(seed, effort)
    if not isinstance(match, Match | Deal):
        raise wrong_type("match", match, Match, Deal)
    if isinstance(match, Match):
        to_move(match)
    deal = match if isinstance(match, Deal) else match.deal
    assert deal is not None  # to_move raised otherwise
    cards = _hand(deal, hand)
    valued = evaluate(deal, cards, seed, effort)
    order = sorted(range(len(valued)), key=lambda k: (-valued[k][2], k))
    return tuple(Advice(valued[k][0], valued[k][1], round(valued[k][2], 3)) for k in order)


def review(match: Match, deal: int, *, seed: int | None = None, effort: int = REVIEW_EFFORT,
           most: int = REVIEW_MOST) -> DealReview:
    """Review finished deal number ``deal`` (from 1) of ``match``: each play with the option the
    player should have preferred given what they knew then, and what it cost. Each play with a
    choice is weighed in about ``effort`` guessed deals, then in more, up to ``most``, while its
    label or its best option is in doubt (``engine.weighing``). A play the engine would have made
    itself (``hint``'s best option with the same seed, effort and most) is weighed in the same
    guesses and costs nothing.

    Raises IllegalPlayError when the deal is not finished or not begun, was tallied (it has no plays), or is not
    in this match object's log (a match rebuilt from a snapshot: replay its whole log); NotationError
    for a ``match``, ``seed``, ``effort`` or ``most`` that is not one (``check_search``).
    """
    check_search(seed, effort, most)
    if not isinstance(match, Match):
        raise wrong_type("match", match, Match)
    if deal.__class__ is int and deal > len(match.results) and match.results and (
            match.finished or deal > match.deal_number or (deal == match.deal_number and match.deal is None)):
        raise IllegalPlayError("this match has no deal {deal}: the last finished deal is deal {last}.", deal=deal,
                               last=len(match.results))
    if deal.__class__ is not int or deal < 1 or deal > len(match.results):
        raise IllegalPlayError("deal {deal} is not finished: there is nothing to review yet.", deal=deal)
    if match.results[deal - 1].tallied:
        raise IllegalPlayError("deal {deal} was tallied: it has no plays to review.", deal=deal)
    actions = _deal_actions(match, deal)
    board = Match(match.players, match.rules, match.first_dealer)
    for action in actions[0]:
        board.apply(action)
    plays = actions[1]
    reviewed = []
    for k, action in enumerate(plays):
        current = board.deal
        assert current is not None
        player = current.turn or ""
        hand = _still_held(current, plays, k)
        card, take = action.card, tuple(sorted(action.take or (), key=ORDER))
        choices = options(current, hand)
        if len(choices) > 1:
            reviewed.append(_weighed(current, hand, choices, (card, take), seed, effort, most))
        else:
            reviewed.append(PlayReview(player, current.hand, card, take, card, take, 0.0, None, 1, 0.0))
        board.apply(action)
    return DealReview(deal, tuple(reviewed))


def _weighed(deal: Deal, hand: list[Card], choices: list[tuple[Card, tuple[Card, ...]]],
             made: tuple[Card, tuple[Card, ...]], seed: int | None, effort: int, most: int) -> PlayReview:
    """The review of play ``made`` of ``hand`` (with a choice), weighed as ``review`` says; with its
    reason when it is marked (an inaccuracy or worse)."""
    weighing = _weighing(deal, hand, made, seed).run(effort, most)
    values = weighing.values()
    top, keep = weighing.best(), choices.index(made)
    loss = round(weighing.loss(), 2)
    if loss == 0:
        top = keep
    order = sorted(range(len(values)), key=lambda k: (-values[k], k))
    reason = None
    if label(loss) is not None:  # a marked play: why
        held = _held(deal, weighing.game)
        mine, better = weighing.outcome(keep, held), weighing.outcome(top, held)
        reason = _reason(deal, made, mine, better, weighing.minimax)
    return PlayReview(deal.turn or "", deal.hand, made[0], made[1], choices[top][0], choices[top][1], loss,
                      label(loss), len(choices), round(weighing.lead(), 2), round(values[keep], 3),
                      round(values[top], 3),
                      tuple(Advice(choices[k][0], choices[k][1], round(values[k], 3)) for k in order), reason)


def _held(deal: Deal, game: sim.Game) -> list[list[float]]:
    """Each side's points by scoring part (``engine.weighing``) in what it has taken so far."""
    sides = list(dict.fromkeys(deal.seat_sides))
    piles: list[list[int]] = [[] for _ in sides]
    for side, pile in deal.piles.items():
        piles[sides.index(side)].extend(INDEX[c] for c in pile)
    return taken(piles, game)


def _reason(deal: Deal, made: tuple[Card, tuple[Card, ...]], mine: Outcome, better: Outcome,
            exact: bool) -> Reason:
    """The reason of play ``made`` from its outcome (``mine``) and the best option's (``better``)."""
    card, take = made
    left = tuple(sorted((c for c in deal.table if c not in take), key=ORDER)) if take else tuple(
        sorted((*deal.table, card), key=ORDER))
    split = FrozenDict({name: round(b - m, 3) for name, b, m in zip(PARTS, better.parts, mine.parts, strict=True)
                        if round(b - m, 3)})
    answer = mine.reply()
    reply = None
    if answer is not None:
        who = deal.players[(deal.players.index(deal.turn or "") + 1) % len(deal.players)]
        reply = Reply(who, tuple(DECK[c] for c in answer[0]), answer[1], answer[2], mine.guesses)
    reason = Reason(split, left, reply, better.swept(), mine.guesses, exact)
    largest = reason.largest
    return reason.replace(**facts(deal.players, largest, split.get(largest, 0.0), mine, better))


def facts(players: tuple[str, ...] | list[str], largest: str, gain: float, made: Outcome,
          better: Outcome) -> dict[str, Any]:
    """The facts a reason whose ``largest`` part is ``gain`` (the better option's less the play's)
    needs, as Reason's fields: ``own_sur`` (the sur of the player's side the better play led to),
    ``their_sur`` (the other side's after the play), ``fates`` (the cards of a card part that the
    better play took more often), ``led`` (guesses the side ended with the most clubs, after the
    better play and after the play), ``clubs`` (the side's mean clubs where the guesses ended and the
    other side's, after the better play, then after the play) and ``table`` (the table the play left
    to the other side)."""
    found: dict[str, Any] = {}
    mine, theirs = better.fates.sur(True), made.fates.sur(False)
    if mine is not None:
        found["own_sur"] = Sur(players[mine[0]], DECK[mine[1]], mine[2], better.guesses, better.fates.surs_by(True),
                               made.fates.surs_by(True))
    if theirs is not None:
        found["their_sur"] = Sur(players[theirs[0]], DECK[theirs[1]], theirs[2], made.guesses,
                                 made.fates.surs_by(False), better.fates.surs_by(False))
    part = PARTS.index(largest)
    if part == CLUBS:
        found["led"] = (better.fates.led, made.fates.led)
        n = max(made.guesses, 1)
        found["clubs"] = tuple(round(total / n, 1) for total in (*better.fates.clubs, *made.fates.clubs))
    if part != LEFTOVER and gain > 0:
        found["fates"] = fates(players, part, made, better)
    table = made.fates.table(False)
    if part == LEFTOVER and gain > 0 and table is not None:
        cards, seat, end, count = table
        found["table"] = Left(tuple(DECK[c] for c in cards), players[seat], end, count, made.guesses)
    return found


def fates(players: tuple[str, ...] | list[str], part: int, made: Outcome, better: Outcome) -> tuple[Fate, ...]:
    """The cards scoring in ``part`` that the player's side took in more guesses after the better
    play than after the play, most first (FATES at most)."""
    game = better.fates.game
    cards = {c for c, _ in (*made.fates.taken, *better.fates.taken)
             if (sim.CLUB[c] if part == CLUBS else any(p == part for p, _ in card_parts(c, game)))}
    swings = sorted(((better.fates.ours(c) - made.fates.ours(c), c) for c in cards), key=lambda s: (-s[0], s[1]))
    found = []
    for swing, card in swings[:FATES]:
        if swing <= 0:
            break
        taker = made.fates.taker(card)
        player, taken = ("", 0) if taker is None else (players[taker[0]], taker[1])
        found.append(Fate(DECK[card], better.fates.ours(card), made.fates.ours(card), made.guesses, player, taken))
    return tuple(found)


def hint(match: Match, hand: Iterable[Card | str], *, seed: int | None = None, effort: int = HINT_EFFORT,
         most: int = HINT_MOST) -> tuple[Advice, ...]:
    """``advise`` as `pasur hint` asks it, for a person deciding: every option played in about
    ``effort`` guessed deals, then in more while the best options are close or the best one's
    label, were it played, is in doubt, up to ``most`` (``engine.weighing``). Its best option is
    the one a review of the play, with the same seed, effort and most, compares with (in the same
    guesses). With a choice, each option's value comes split into its scoring parts (``parts``,
    ``engine.weighing``), as a review splits a play's. Raises as ``advise`` (``most``: from 1 to GUESSES_MOST too)."""
    check_search(seed, effort, most)
    to_move(match)
    deal = match.deal
    assert deal is not None  # to_move raised otherwise
    cards = _hand(deal, hand)
    weighing = _weighing(deal, cards, None, seed).run(effort, most)
    values = weighing.values()
    choices = options(deal, cards)
    order = sorted(range(len(values)), key=lambda k: (-values[k], k))
    held = _held(deal, weighing.game)
    split = [weighing.outcome(k, held).parts if len(choices) > 1 else [] for k in range(len(choices))]
    return tuple(Advice(choices[k][0], choices[k][1], round(values[k], 3),
                        FrozenDict({p: round(v, 3) for p, v in zip(PARTS, split[k], strict=False) if round(v, 3)}))
                 for k in order)


def _weighing(deal: Deal, hand: list[Card], keep: tuple[Card, tuple[Card, ...]] | None,
              seed: int | None) -> Weighing:
    """The sequential weighing of ``hand``'s options (``keep``: the play whose cost is asked)."""
    game, base, seat, unseen, sizes, choices = _setting(deal, hand)
    coded = [(INDEX[c], tuple(sorted(INDEX[t] for t in tk))) for c, tk in choices]
    return Weighing(game, base, seat, [INDEX[c] for c in hand], unseen, sizes, coded,
                    random.Random(0 if seed is None else seed), None if keep is None else choices.index(keep))


def _still_held(deal: Deal, plays: list[PlayAction], k: int) -> list[Card]:
    """The hand of the player of play ``k`` (the deal's plays so far): the cards they play from now
    to the end of this hand."""
    n = len(deal.players)
    end = (k // (4 * n) + 1) * 4 * n
    return sorted((plays[j].card for j in range(k, end, n)), key=ORDER)


def _deal_actions(match: Match, number: int) -> tuple[list[Action], list[PlayAction]]:
    """The actions before deal ``number``'s first play (through its table), and its plays."""
    if match.start:
        raise IllegalPlayError("deal {deal} is not in this match's log (it was read from a snapshot):"
                               " replay the whole log to review it.", deal=number)
    before: list[Action] = []
    plays: list[PlayAction] = []
    belongs = 0
    for action in match.log:
        if not isinstance(action, PlayAction):
            belongs += 1
        if belongs > number:
            break
        if belongs == number and isinstance(action, PlayAction):
            plays.append(action)
        else:
            before.append(action)
    return before, plays


def quick(match: Match, hand: Iterable[Card | str]) -> tuple[Card, tuple[Card, ...]]:
    """The playout policy's own choice for ``hand`` (no search): what the engine's guessed deals
    assume every player does. Raises as ``advise``."""
    to_move(match)
    deal = match.deal
    assert deal is not None  # to_move raised otherwise
    cards = _hand(deal, hand)
    game, pos, seat, unseen, sizes, _ = _setting(deal, cards)
    pos.hands, pos.stock = sim.deal_hidden(random.Random(0), unseen, sizes)  # the policy never looks at them
    pos.hands[seat] = [INDEX[c] for c in cards]
    card, move = sim.policy(pos, game)
    return DECK[card], tuple(DECK[c] for c in move[0])


# -- whole deals played by a policy for each seat (``play_deal``: a bot's or bench/strength.py's arena) --
Option = tuple[Card, tuple[Card, ...]]
Policy = Callable[["Turn"], Option]


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
