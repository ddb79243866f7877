"""The concrete facts behind a reason, from the guesses that weighed the play and the better option
(``weighing.Outcome.fates``): the sur that made the surs part, the cards whose fate made a card part
(the clubs, 2♣, 10♦, aces, ...), the table left to the other side. Facts, never sentences: the
presentation (text/review.py) says them.
"""

from __future__ import annotations

from typing import Any

from pasur_cli.engine import playout as sim
from pasur_cli.engine.cards import DECK, Card
from pasur_cli.engine.values import Value
from pasur_cli.engine.weighing import CLUBS, LEFTOVER, PARTS, Outcome, card_parts

FATES = 2  # the cards a reason names at most for a card part


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


def facts(players: tuple[str, ...] | list[str], largest: str, gain: float, made: Outcome,
          better: Outcome) -> dict[str, Any]:
    """The facts a reason whose ``largest`` part is ``gain`` (the better option's less the play's)
    needs, as Reason's fields: ``own_sur`` (the sur of the player's side the better play led to),
    ``their_sur`` (the other side's after the play), ``fates`` (the cards of a card part that the
    better play took more often), ``led`` (guesses the side ended with the most clubs, after the
    better play and after the play), ``clubs`` (the side's mean clubs where the guesses ended, after
    each) and ``table`` (the table the play left to the other side)."""
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
        found["clubs"] = (round(better.fates.clubs / n, 1), round(made.fates.clubs / n, 1))
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
