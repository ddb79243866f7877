"""Why an option is worth what it is: its value split into the scoring parts of the deal.

An option's value is the mean deal margin of the player's side over the guessed deals it was
played in (``engine.weighing``). ``outcome`` plays the option again in the very same guesses, by
the very same policy (or, with nothing hidden, along the minimax line), and keeps what each side
took: the margin of each guess is then split into the parts of RULES.md's scoring (surs for and
against, the clubs points, 2♣, 10♦, 7♦, aces, jacks, and the cards left on the table: the last
capturer's at the deal's end, or their estimated worth where a guess stops before the end), and
the parts of a guess add up to its margin. So the mean parts add up to the option's value, and
the parts of one option less another's to the difference of their values: a play's loss.

It also keeps the play that answered the option in each guess (the next player's capture), so a
reason can say which reply punished a play and in how many guesses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pasur_cli.engine import playout as sim

PARTS = ("surs_for", "surs_against", "clubs", "two_clubs", "ten_diamonds", "seven_diamonds", "aces", "jacks",
         "leftover")
SURS_FOR, SURS_AGAINST, CLUBS, TWO_CLUBS, TEN_DIAMONDS, SEVEN_DIAMONDS, ACES, JACKS, LEFTOVER = range(len(PARTS))
Guess = tuple[list[list[int]], list[int]]  # the hands (in seat order) and the stock of one guessed deal
Play = tuple[int, int, sim.Take, bool]  # seat, card, take, a sur


def card_parts(card: int, game: sim.Game) -> list[tuple[int, int]]:
    """The parts a card's points count in, with its points in each (none for a card without points)."""
    found = []
    if card == sim.TWO_CLUBS:
        found.append((TWO_CLUBS, 2))
    elif card == sim.TEN_DIAMONDS:
        found.append((TEN_DIAMONDS, 3))
    elif card == sim.SEVEN_DIAMONDS and game.rules.seven_diamonds:
        found.append((SEVEN_DIAMONDS, game.rules.seven_diamonds))
    if sim.RANK[card] == 1:
        found.append((ACES, 1))
    elif sim.RANK[card] == sim.JACK:
        found.append((JACKS, 1))
    return found


def taken(piles: Sequence[Sequence[int]], game: sim.Game) -> list[list[float]]:
    """Per side, the points of its cards (``piles``: each side's captured cards) by part."""
    found = [[0.0] * len(PARTS) for _ in piles]
    for side, pile in enumerate(piles):
        for card in pile:
            for part, points in card_parts(card, game):
                found[side][part] += points
    return found


class Outcome:
    """An option played in a run of guessed deals: the mean of each part of the deal margin
    (``parts``, in PARTS's order), the replies the next player made to it (``replies``: per guess
    its take and whether it was a sur, None for a play that took nothing) and the guesses made."""

    def __init__(self, parts: list[float], replies: list[tuple[sim.Take, bool] | None], guesses: int) -> None:
        self.parts, self.replies, self.guesses = parts, replies, guesses

    def reply(self) -> tuple[sim.Take, bool, int] | None:
        """The reply that came most often (the take, a sur, in how many guesses); a sur before a
        capture of the same count. None when the next player never captured."""
        counts = Counter(r for r in self.replies if r is not None)
        if not counts:
            return None
        (take, sur), count = max(counts.items(), key=lambda kv: (kv[1], kv[0][1], len(kv[0][0])))
        return take, sur, count

    def swept(self) -> int:
        """In how many guesses the next player answered with a sur."""
        return sum(1 for r in self.replies if r is not None and r[1])


def outcome(game: sim.Game, base: sim.Position, seat: int, option: tuple[int, sim.Take], guesses: list[Guess],
            held: list[list[float]], exact: bool) -> Outcome:
    """``option`` of ``seat`` at ``base`` played again in each of ``guesses`` as the search played
    it (the policy to ``playout.horizon``; ``exact``: the minimax line to the deal's end), its
    margin split into parts; ``held``: each side's points by part before the option."""
    side = game.seat_side[seat]
    stop = game.total_plays if exact else sim.horizon(game, base.played)
    sums = [0.0] * len(PARTS)
    replies: list[tuple[sim.Take, bool] | None] = []
    for hands, stock in guesses:
        counts = None if exact else sim.live(sim.Position((), hands, stock, 0, [], [], [], -1))
        pos = sim.Position(base.table, [h[:] for h in hands], stock[:], base.played, base.clubs[:], base.points[:],
                           base.surs[:], base.last, None if counts is None else counts[:])
        took = [row[:] for row in held]
        plays: list[Play] = []
        step(pos, game, option, took, plays)
        if exact:
            for move in line(pos, game, side):
                step(pos, game, move, took, plays)
        else:
            while pos.played < stop:
                card, chosen = sim.policy(pos, game)
                step(pos, game, (card, chosen[0]), took, plays)
        for k, value in enumerate(split(pos, game, side, took)):
            sums[k] += value
        replies.append((plays[1][2], plays[1][3]) if len(plays) > 1 and plays[1][2] else None)
    n = max(len(guesses), 1)
    return Outcome([s / n for s in sums], replies, len(guesses))


def step(pos: sim.Position, game: sim.Game, move: tuple[int, sim.Take], took: list[list[float]],
         plays: list[Play]) -> None:
    """Play ``move`` (``playout.play``), counting the cards the side takes by part in ``took`` (and
    after the deal's last card, the table left in LEFTOVER of the last capturer's side)."""
    card, take = move
    seat = sim.turn(pos, game)
    table, surs = pos.table, pos.surs[:]
    sim.play(pos, game, card, take)
    if take:
        row = took[game.seat_side[seat]]
        for c in (card, *take):
            for part, points in card_parts(c, game):
                row[part] += points
    if pos.played >= game.total_plays:
        left = [c for c in table if c not in take] if take else [*table, card]
        taker = pos.last if pos.last >= 0 else game.dealer
        took[game.seat_side[taker]][LEFTOVER] += sum(game.points[c] for c in left)
    plays.append((seat, card, take, pos.surs != surs))


def split(pos: sim.Position, game: sim.Game, side: int, took: list[list[float]]) -> list[float]:
    """``side``'s margin at ``pos`` (the deal over, or a hand's start where ``playout.judge`` values
    it) by part: the parts add up to the margin."""
    others = [s for s in range(game.sides) if s != side]
    n = len(others)
    out = [took[side][k] - sum(took[s][k] for s in others) / n for k in range(len(PARTS))]
    out[SURS_FOR] = pos.surs[side] * game.sur_points
    out[SURS_AGAINST] = -sum(pos.surs[s] for s in others) * game.sur_points / n
    if pos.played >= game.total_plays:
        winners = sim.clubs_winners(pos.clubs, game)
        out[CLUBS] = sim.margin([game.clubs_points if s in winners else 0 for s in range(game.sides)], side)
        return out
    theirs = max(pos.clubs[s] for s in others)
    out[CLUBS] = game.clubs_value[pos.clubs[side]][theirs][0]
    held = sim.margin([pos.points[s] + pos.surs[s] * game.sur_points for s in range(game.sides)], side)
    out[LEFTOVER] += sim.judge(pos, game, side) - held - out[CLUBS]  # the table's estimated worth
    return out


def line(pos: sim.Position, game: sim.Game, side: int) -> list[tuple[int, sim.Take]]:
    """The plays from ``pos`` to the deal's end with best play by every seat (everything known):
    the line whose margin ``playout.minimax`` gives, each play the first of the best."""
    found: list[tuple[int, sim.Take]] = []
    pos = pos.copy()
    while pos.played < game.total_plays:
        seat = sim.turn(pos, game)
        sign = 1.0 if game.seat_side[seat] == side else -1.0
        best: tuple[float, int, sim.Move] | None = None
        for card in pos.hands[seat]:
            for move in sim.moves(card, pos.table, game):
                child = pos.copy()
                sim.play_move(child, game, card, move)
                value = sign * sim.minimax(child, game, side, -1e9, 1e9)
                if best is None or value > best[0]:
                    best = (value, card, move)
        assert best is not None
        found.append((best[1], best[2][0]))
        sim.play_move(pos, game, best[1], best[2])
    return found
