"""One decision's options weighed until what a review or a hint says of it is settled.

``advise`` plays every option in a fixed number of guessed deals. A review says two things about
each play with a choice: its label (what it cost against the best option, against the thresholds
1, 2 and 4 points) and the best option; both should come out the same whatever the seed. The same
few guesses everywhere cannot do that within the time: most decisions are clear after a dozen
guesses and some need hundreds. ``Weighing`` plays the options in batches of the same guesses and
decides after each batch whether another is worth its cost:

- Every option is played in the same guesses (common random numbers), and options are compared
  by their paired differences, which carry far less noise than their values.
- The risk of the answer: the chance that another seed gives the play (and the leader, were it
  played) another label, summed over the other options, plus ``WEIGHT`` times the chance
  that one seed says the best option leads the second by more than a point while the other names
  another. Each difference is taken as normal about its estimate with its standard error. Another
  batch is made while the risk it removes (its standard errors shrink as the square root of the
  guesses) is worth at least ``PRICE`` a play simulated (a guessed deal is played on to
  ``playout.horizon``; with 4 players that is twice as far): the guesses go where a label sits
  near a threshold or the best two options are close, and none where the answer is clear or
  where it sits so near a threshold that even many more guesses would not settle it;
- and never more than ``most`` guesses.

Options far behind are still played in every guess (dropping them saved too little to be worth
it: bench/README.md), and with every option in every guess the values are plain means
over the same guesses, and a hint's best option, reviewed, is weighed in exactly the same guesses.

A standard deviation from a few guesses is itself noisy, and a handful of equal results would
stop the weighing at once: each is estimated with ``PRIOR_WEIGHT`` prior guesses of spread
``PRIOR`` points. When the stock is out and the unseen cards can lie in the other hands in at most
``SPLITS`` ways, each way is played once and their mean is exact (one way with two sides: the deal
played out by minimax, as ``advise`` does).

Why an option is worth what it is (``outcome``): its value is its mean deal margin over the
guesses it was played in; ``outcome`` plays the option again in the very same guesses, by
the very same policy (or, with nothing hidden, along the minimax line), and keeps what each side
took: the margin of each guess is then split into the parts of RULES.md's scoring (surs for and
against, the clubs points, 2♣, 10♦, 7♦, aces, jacks, and the cards left on the table: the last
capturer's at the deal's end, or their estimated worth where a guess stops before the end), and
the parts of a guess add up to its margin. So the mean parts add up to the option's value, and
the parts of one option less another's to the difference of their values: a play's loss.

It also keeps the play that answered the option in each guess (the next player's capture), so a
reason can say which reply punished a play and in how many guesses, and what became of the cards
(``Fates``: the surs made later, who took each card, the clubs, the table left at the end), so it
can name the cards behind any part.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import MutableSequence, Sequence
from typing import Any

from pasur_cli.engine import playout as sim

PRIOR, PRIOR_WEIGHT = 3.0, 2  # each difference's spread starts from this many guesses of this spread
EDGES = (1.0, 2.0, 4.0)  # the labels' thresholds (advice's INACCURACY, MISTAKE, BLUNDER)
WEIGHT = 10.0  # a best option named differently, where it leads by more than a point, against a label
SPLITS = 200  # the most ways the unseen cards can lie in the other hands (the stock out) to play them all
PRICE = 2.4e-5  # the least risk a play simulated must remove (measured with bench/strength.py --stability)
PARTS = ("surs_for", "surs_against", "clubs", "two_clubs", "ten_diamonds", "seven_diamonds", "aces", "jacks",
         "leftover")
SURS_FOR, SURS_AGAINST, CLUBS, TWO_CLUBS, TEN_DIAMONDS, SEVEN_DIAMONDS, ACES, JACKS, LEFTOVER = range(len(PARTS))
Guess = tuple[list[list[int]], list[int]]  # the hands (in seat order) and the stock of one guessed deal
Play = tuple[int, int, sim.Take, bool]  # seat, card, take, a sur


def _normal(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _split(distance: float, se: float) -> float:
    """The chance two independent estimates (standard error ``se``) of a figure ``distance`` from a
    threshold fall on different sides of it."""
    if se <= 0.0:
        return 0.0
    p = _normal(distance / se)
    return 2.0 * p * (1.0 - p)


def _claimed_and_split(lead: float, se: float) -> float:
    """The chance that of two independent estimates (standard error ``se``) of a lead, one is above
    zero, the other below, and one of them more than a point from zero."""
    if se <= 0.0:
        return 0.0
    ahead, behind = _normal(lead / se), _normal(-lead / se)
    near_ahead = ahead - _normal((lead - 1.0) / se)  # 0 < estimate <= 1
    near_behind = behind - _normal((-lead - 1.0) / se)  # -1 <= estimate < 0
    return 2.0 * (ahead * behind - near_ahead * near_behind)


class _Dealt(random.Random):
    """A generator whose shuffle puts the cards in the order given (sorted when none is): one
    chosen guess, for a position whose every guess is played (``playout.Guesses`` deals the
    other hands from the front of the shuffled unseen cards, in seat order)."""

    def __init__(self, order: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.order = list(order)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        x[:] = self.order if sorted(self.order) == sorted(x) else sorted(x)


def splits(unseen: list[int], sizes: list[int], most: int) -> list[list[int]] | None:
    """Every way the ``unseen`` cards can lie in hands of ``sizes`` (the stock out), each as the
    cards hand after hand in seat order; None when there are more than ``most``."""
    count, left = 1, len(unseen)
    for size in sizes:
        count *= math.comb(left, size)
        left -= size
    if left or count > most:
        return None
    found: list[list[int]] = []

    def deal(rest: list[int], k: int, so_far: list[int]) -> None:
        if k == len(sizes):
            found.append(so_far)
            return
        for hand in itertools.combinations(rest, sizes[k]):
            deal([c for c in rest if c not in hand], k + 1, so_far + list(hand))
    deal(sorted(unseen), 0, [])
    return found


class Weighing:
    """The options of one decision played in growing batches of the same guessed deals.

    ``keep`` is the option whose cost is asked (the play made; None: a hint's). ``values``,
    ``best``, ``lead`` and ``loss`` read the guesses made so far; ``run`` makes them until the
    answer is settled.
    """

    def __init__(self, game: sim.Game, base: sim.Position, seat: int, mine: list[int], unseen: list[int],
                 sizes: list[int], options: Sequence[tuple[int, sim.Take]], rng: random.Random,
                 keep: int | None = None) -> None:
        self.game, self.base, self.seat, self.mine = game, base, seat, mine
        self.unseen, self.sizes, self.options, self.rng, self.keep = unseen, sizes, list(options), rng, keep
        # the stock out and few ways the unseen cards can lie in the other hands: each way is played,
        # once, and the mean over them is the truth (one way: nothing left to guess)
        self.splits = splits(unseen, sizes, SPLITS) if unseen else [[]]
        self.exact = self.splits is not None
        m = len(self.options)
        self.sums = [0.0] * m  # per option: the sum of its results
        # per pair (i, j), i < j: the sum of i's result less j's, and of its square
        self.pairs = [[[0.0, 0.0] for _ in range(m)] for _ in range(m)]
        self.guesses = 0
        self.dealt: list[Guess] = []  # every guess played, for ``outcome``
        self.minimax = False  # played out by minimax (``sample``)

    # -- the figures so far ---------------------------------------------------------------------
    def diff(self, i: int, j: int) -> tuple[float, float]:
        """Option i's value less option j's, and its standard error."""
        n = self.guesses
        if i == j or not n:
            return 0.0, 0.0 if n else float("inf")
        s, ss = self.pairs[min(i, j)][max(i, j)]
        mean = s / n
        if self.exact:
            se = 0.0
        else:
            spread = (max(0.0, ss - s * mean) + PRIOR_WEIGHT * PRIOR ** 2) / (n - 1 + PRIOR_WEIGHT)
            se = (spread / n) ** 0.5
        return (mean if i < j else -mean), se

    def values(self) -> list[float]:
        """Each option's value: its mean result."""
        return [total / max(self.guesses, 1) for total in self.sums]

    def best(self) -> int:
        """The option with the highest value (the first listed of equals)."""
        return max(range(len(self.options)), key=lambda k: (self.sums[k], -k))

    def lead(self) -> float:
        """How far the best option's value leads the second's (0 with one option)."""
        ranked = sorted(self.values(), reverse=True)
        return ranked[0] - ranked[1] if len(ranked) > 1 else 0.0

    def loss(self) -> float:
        """What playing ``keep`` cost against the best option (0 without ``keep``)."""
        return 0.0 if self.keep is None else max(0.0, self.diff(self.best(), self.keep)[0])

    def risk(self, more: int = 0) -> float:
        """How likely another seed would say otherwise, were ``more`` guesses added: the chance two
        seeds' labels differ, of the play made and of the best option were it played (as a hint's
        is: so a deal played by the hint's choices reviews without a label), summed over the other
        options; plus ``WEIGHT`` times the chance that one seed says the best option leads the
        second by more than a point and the other names another best option. Each difference is
        taken as normal about its estimate with its standard error (shrunk for the guesses added)."""
        top = self.best()
        shrink = (self.guesses / (self.guesses + more)) ** 0.5
        label = best = 0.0
        for mine in sorted({top, top if self.keep is None else self.keep}):
            for k in range(len(self.options)):
                if k != mine:
                    d, se = self.diff(k, mine)
                    label += _split(min(abs(d - edge) for edge in EDGES), se * shrink)
        for k in range(len(self.options)):
            if k != top:
                d, se = self.diff(top, k)
                best += _claimed_and_split(d, se * shrink)
        return label + WEIGHT * best

    def settled(self, batch: int) -> bool:
        """Whether another ``batch`` guesses are not worth their playouts: the risk they would
        remove is under ``PRICE`` a play simulated."""
        if self.exact or len(self.options) < 2:
            return bool(self.guesses)
        gain = self.risk() - self.risk(batch)
        plays = max(1, sim.horizon(self.game, self.base.played) - self.base.played)
        return gain < PRICE * batch * len(self.options) * plays

    # -- guessing -----------------------------------------------------------------------------------
    def more(self, guesses: int) -> None:
        """Play every option in ``guesses`` more guesses (the same ones for all)."""
        found = self.sample(guesses)
        self.guesses += len(found[0])
        m = len(found)
        for i in range(m):
            self.sums[i] += sum(found[i])
            for j in range(i + 1, m):
                pair = self.pairs[i][j]
                for x, y in zip(found[i], found[j], strict=True):
                    pair[0] += x - y
                    pair[1] += (x - y) ** 2

    def sample(self, guesses: int) -> list[list[float]]:
        """Each option's results in ``guesses`` new guesses; when exact, its mean over every way
        the unseen cards can lie (one way, with two sides: the deal played out by minimax, as
        ``advise`` does)."""
        if self.splits is None:
            return sim.samples(self.game, self.base, self.seat, self.mine, self.unseen, self.sizes, self.options,
                               self.rng, guesses, self.dealt)
        if len(self.splits) == 1 and self.unseen and self.game.sides == 2:
            values = sim.exact(self.game, self.base, self.seat, self.mine, self.unseen, self.sizes, self.options)
            self.minimax = True
            hands: list[list[int]] = []
            k = 0
            for size in self.sizes:  # as ``playout.exact`` deals them
                hands.append(self.mine if len(hands) == self.seat else self.unseen[k:k + size])
                k += size
            self.dealt.append((hands, []))
            return [[value] for value in values]
        totals = [0.0] * len(self.options)
        for order in self.splits:
            found = sim.samples(self.game, self.base, self.seat, self.mine, self.unseen, self.sizes,
                                self.options, _Dealt(order), 1, self.dealt)
            for k, values in enumerate(found):
                totals[k] += values[0]
        return [[total / len(self.splits)] for total in totals]

    def outcome(self, k: int, held: list[list[float]]) -> Outcome:
        """Option ``k`` played again in every guess made so far, its value split into the scoring
        parts (``engine.parts``; ``held``: each side's points by part before the decision)."""
        return outcome(self.game, self.base, self.seat, self.options[k], self.dealt, held, self.minimax)

    def run(self, first: int, most: int) -> Weighing:
        """Batches of about ``first`` guesses until ``settled`` or ``most`` guesses. A batch is a
        whole number of ``playout.Guesses`` rounds (one shuffle of the unseen cards dealt into the
        other hands a slice at a time, so each card is in a hand once a round): a round cut short
        would leave some cards out of the hands more often than others."""
        held = sum(self.sizes)
        round_ = len(self.unseen) // held if held else 1
        step = round_ * max(1, round(first / round_)) if round_ <= first else first
        self.more(min(step, most))
        while self.guesses < most and not self.settled(min(step, most - self.guesses)):
            self.more(min(step, most - self.guesses))
        return self


# -- the parts of a value -------------------------------------------------------------------------


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


# -- what became of the cards in the guesses an option was played in: the facts a reason names --------


class Fates:
    """The facts of each guess an option was played in (``outcome`` adds them one guess at a time),
    beyond the parts' means: the surs made after the option (by which seat, with which card), which
    seat took each card, whether the side deciding held the most clubs at the end and its clubs,
    and the table at the end with the seat that takes it (the last capturer at the deal's end;
    where a guess stops at a hand's end, the next hand's leader, who clears it first). Counts are of
    guesses, so a reason can say "in 4 guessed deals of 10"; cards and seats as the simulator's
    numbers (``engine.advice`` makes them cards and names)."""

    def __init__(self, game: sim.Game, side: int) -> None:
        self.game, self.side = game, side
        self.guesses = 0
        self.surs: Counter[tuple[int, int]] = Counter()  # (seat, card): guesses with that sur
        self.sur_sides: Counter[bool] = Counter()  # True: the surs of the side in all guesses, False: of another
        self.taken: Counter[tuple[int, int]] = Counter()  # (card, seat): guesses in which that seat took it
        self.led = 0  # guesses that ended with the side holding more clubs than any other
        self.clubs = [0, 0]  # the side's clubs where the guesses ended, and the most of another side's, summed
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
        self.clubs[0] += pos.clubs[mine]
        self.clubs[1] += max(others)

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


class Outcome:
    """An option played in a run of guessed deals: the mean of each part of the deal margin
    (``parts``, in PARTS's order), the replies the next player made to it (``replies``: per guess
    its take and whether it was a sur, None for a play that took nothing), the guesses made and
    what became of the cards in them (``fates``: the surs, who took which card, the table left)."""

    def __init__(self, parts: list[float], replies: list[tuple[sim.Take, bool] | None], guesses: int,
                 fates: Fates) -> None:
        self.parts, self.replies, self.guesses, self.fates = parts, replies, guesses, fates

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
    fates = Fates(game, side)
    for hands, stock in guesses:
        counts = None if exact else sim.live(sim.Position((), hands, stock, 0, [], [], [], -1))
        pos = sim.Position(base.table, [h[:] for h in hands], stock[:], base.played, base.clubs[:], base.points[:],
                           base.surs[:], base.last, None if counts is None else counts[:])
        took = [row[:] for row in held]
        plays: list[Play] = []
        left = step(pos, game, option, took, plays)
        if exact:
            for move in line(pos, game, side):
                left = step(pos, game, move, took, plays)
        else:
            while pos.played < stop:
                card, chosen = sim.policy(pos, game)
                left = step(pos, game, (card, chosen[0]), took, plays)
        for k, value in enumerate(split(pos, game, side, took)):
            sums[k] += value
        replies.append((plays[1][2], plays[1][3]) if len(plays) > 1 and plays[1][2] else None)
        fates.add(pos, plays, left)
    n = max(len(guesses), 1)
    return Outcome([s / n for s in sums], replies, len(guesses), fates)


def step(pos: sim.Position, game: sim.Game, move: tuple[int, sim.Take], took: list[list[float]],
         plays: list[Play]) -> tuple[int, ...] | None:
    """Play ``move`` (``playout.play``), counting the cards the side takes by part in ``took`` (and
    after the deal's last card, the table left in LEFTOVER of the last capturer's side). The table
    left to the last capturer when it was the deal's last card; None before."""
    card, take = move
    seat = sim.turn(pos, game)
    table, surs = pos.table, pos.surs[:]
    sim.play(pos, game, card, take)
    if take:
        row = took[game.seat_side[seat]]
        for c in (card, *take):
            for part, points in card_parts(c, game):
                row[part] += points
    plays.append((seat, card, take, pos.surs != surs))
    if pos.played < game.total_plays:
        return None
    left = tuple(c for c in table if c not in take) if take else tuple(sorted((*table, card)))
    taker = pos.last if pos.last >= 0 else game.dealer
    took[game.seat_side[taker]][LEFTOVER] += sum(game.points[c] for c in left)
    return left


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
