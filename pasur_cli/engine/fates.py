"""What became of the cards in the guessed deals an option was played in: the facts a reason names.

``weighing.outcome`` plays an option again in every guess that weighed it; ``Fates`` keeps, per
guess, what a reason needs beyond the parts' means: the surs made after the option (by which seat,
with which card), which side took each card, whether the side deciding held the most clubs at the
end, and the table at the end with the seat that takes it (the last capturer at the deal's end;
where a guess stops at a hand's end, the next hand's leader, who clears it first). Counts are of
guesses, so a reason can say "in 4 guessed deals of 10". Plain numbers (the simulator's card
indices and seats): ``engine.advice`` turns them into cards and names.
"""

from __future__ import annotations

from collections import Counter

from pasur_cli.engine import playout as sim

Play = tuple[int, int, sim.Take, bool]  # seat, card, take, a sur (as weighing.step records it)


class Fates:
    """The facts of each guess an option was played in, added one guess at a time (``add``)."""

    def __init__(self, game: sim.Game, side: int) -> None:
        self.game, self.side = game, side
        self.guesses = 0
        self.surs: Counter[tuple[int, int]] = Counter()  # (seat, card): guesses with that sur
        self.sur_sides: Counter[bool] = Counter()  # True: the surs of the side in all guesses, False: of another
        self.taken: Counter[tuple[int, int]] = Counter()  # (card, seat): guesses in which that seat took it
        self.led = 0  # guesses that ended with the side holding more clubs than any other
        self.clubs = 0  # the side's clubs where the guesses ended, summed
        self.tables: Counter[tuple[tuple[int, ...], int, bool]] = Counter()  # (table, taker, at the deal's end)

    def add(self, pos: sim.Position, plays: list[Play], left: tuple[int, ...] | None) -> None:
        """One guess played from the option (``plays``, the option first) to ``pos``; ``left``: the
        table the last capturer took after the deal's last card (None: the guess stopped before)."""
        game, mine = self.game, self.side
        self.guesses += 1
        surs = [(seat, card) for seat, card, _, sur in plays if sur]
        self.surs.update(set(surs))
        self.sur_sides.update(game.seat_side[seat] == mine for seat, _ in surs)
        self.taken.update({(c, seat) for seat, card, take, _ in plays if take for c in (card, *take)})
        if left is not None:  # the last capturer takes what is left
            taker = pos.last if pos.last >= 0 else game.dealer
            self.taken.update({(c, taker) for c in left})
            if left:
                self.tables[(left, taker, True)] += 1
        elif pos.table:
            self.tables[(pos.table, (game.dealer + 1) % game.players, False)] += 1
        others = [pos.clubs[s] for s in range(game.sides) if s != mine]
        self.led += pos.clubs[mine] > max(others)
        self.clubs += pos.clubs[mine]

    def sur(self, ours: bool) -> tuple[int, int, int] | None:
        """The sur made most often by the side (``ours``) or by another: its seat, its card and in how
        many guesses; None when none came."""
        found = [(n, seat, card) for (seat, card), n in self.surs.items()
                 if (self.game.seat_side[seat] == self.side) == ours]
        if not found:
            return None
        n, seat, card = max(found, key=lambda f: (f[0], -f[1], -f[2]))
        return seat, card, n

    def surs_by(self, ours: bool) -> int:
        """How many surs the side (``ours``) or another made in all the guesses."""
        return self.sur_sides[ours]

    def ours(self, card: int) -> int:
        """In how many guesses the side took ``card`` after the option."""
        return sum(n for (c, seat), n in self.taken.items() if c == card and self.game.seat_side[seat] == self.side)

    def taker(self, card: int) -> tuple[int, int] | None:
        """The seat of another side that took ``card`` most often, and in how many guesses (None: none)."""
        found = [(n, seat) for (c, seat), n in self.taken.items()
                 if c == card and self.game.seat_side[seat] != self.side]
        if not found:
            return None
        n, seat = max(found, key=lambda f: (f[0], -f[1]))
        return seat, n

    def table(self, ours: bool) -> tuple[tuple[int, ...], int, bool, int] | None:
        """The table most often left at a guess's end for the side (``ours``) or another: its cards,
        the seat that takes it, whether at the deal's end, in how many guesses (None: none was)."""
        found = [(n, key) for key, n in self.tables.items() if (self.game.seat_side[key[1]] == self.side) == ours]
        if not found:
            return None
        n, (cards, seat, end) = max(found, key=lambda f: (f[0], len(f[1][0]), f[1]))
        return cards, seat, end, n
