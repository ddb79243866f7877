"""A compact Pasur simulator for the analysis engine: cards as small ints, a deal as a few lists.

The referee (``Deal``, ``legal_captures``) is written to explain: every play is checked and
recorded with its facts. The engine that weighs a hand plays hundreds of guessed deals on for every
decision, so it needs the same rules without the explanations. Here a card is its index in
``DECK`` (``(rank - 1) * 4 + suit``, suits C D H S: the canonical order, so sorting ints sorts cards),
a table is a list of ints, and a side's pile is reduced to what scores: its clubs and its points.
Captures by sum are found from the table's value counts (a table holds at most four cards of a
value) with the referee's own search (``engine.captures``), and the value shapes of the
captures are cached per table shape.

The rules are RULES.md's, every option; tests replay playouts through the real ``Deal`` and
compare the legal captures with ``legal_captures`` on random positions.
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from itertools import combinations, product
from math import comb

from pasur_cli.engine.captures import Counts, _maximal_shapes, _sets, _splits  # the referee's search
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.values import Memo

RANK = tuple(i // 4 + 1 for i in range(52))  # 1 (A) .. 13 (K)
VALUE = tuple(r if r <= 10 else 0 for r in RANK)
CLUB = tuple(i % 4 == 0 for i in range(52))
JACK, QUEEN, KING = 11, 12, 13
TWO_CLUBS, SEVEN_DIAMONDS, TEN_DIAMONDS = 4, 25, 37
HANDS = {2: 6, 3: 4, 4: 3}
MEMO = 100_000  # entries each of a rule set's memos keeps (``Memos``)
# the playout policy's weights (chosen with bench/strength.py): the share of
# the worth left on the table counted against a play, the share of it the next player takes when
# it holds a card that clears the table, and what keeping a wild J for later is worth
LEFT_SHARE, TAKE_SHARE, KEEP_JACK = 0.3, 0.5, 1.0
DEPTH = 4  # plays at least beyond the decision (to the end of that hand) a guessed deal is played; -1: all
EXACT = 4  # unseen cards at most (all in the one other hand) for the deal to be played out by minimax

Take = tuple[int, ...]
# take, points and clubs brought in, clears the table, the table left, its points and clubs, the ranks
# that clear it and those that would make a sur of it (bits)
Move = tuple[Take, int, int, bool, tuple[int, ...], int, int, int, int]


class Game:
    """What stays fixed during one deal: the rules, the seats' sides, the dealer, and which sides
    can score a sur at all (``sur_limit`` against the match totals at the start of the deal)."""

    __slots__ = (
        "clubs_min",
        "clubs_points",
        "clubs_value",
        "court_all",
        "dealer",
        "hands",
        "jack_sur",
        "jack_wild",
        "keep_jack",
        "last_hand_sur",
        "left_share",
        "memo",
        "mode",
        "multi",
        "players",
        "points",
        "rules",
        "seat_side",
        "shaped",
        "sides",
        "sur_cancel",
        "sur_open",
        "sur_points",
        "take_share",
        "third",
        "total_plays",
    )

    def __init__(self, rules: Rules, seat_side: list[int], dealer: int, sur_open: list[bool]) -> None:
        self.rules = rules
        self.players = len(seat_side)
        self.seat_side = tuple(seat_side)
        self.sides = max(seat_side) + 1
        self.dealer = dealer
        self.hands = HANDS[self.players]
        self.total_plays = self.hands * 4 * self.players
        self.sur_open = tuple(sur_open)
        self.sur_points = rules.sur_points
        self.jack_sur = rules.jack_sur
        self.last_hand_sur = rules.last_hand_sur
        self.sur_cancel = rules.sur_cancel
        self.mode = rules.capture_mode
        self.multi = rules.multi_capture
        self.court_all = rules.court_capture == "all"
        self.jack_wild = rules.jack_capture == "wild"
        self.clubs_points, self.clubs_min = rules.clubs_points, rules.clubs_min
        self.third = rules.three_player_clubs == "third"
        points = [0] * 52
        for i in range(52):
            points[i] = (RANK[i] == 1) + (RANK[i] == JACK)
        points[TWO_CLUBS] += 2
        points[TEN_DIAMONDS] += 3
        points[SEVEN_DIAMONDS] += rules.seven_diamonds
        self.points = tuple(points)
        self.clubs_value = _clubs_table(self.clubs_min, self.clubs_points)
        # the last table ``captures`` looked at: its numerals' value counts and the cards by value
        self.shaped: tuple[object, Counts, list[list[int]]] = ((), (0,) * 11, [[] for _ in range(11)])
        self.left_share, self.take_share = LEFT_SHARE, TAKE_SHARE
        self.keep_jack = KEEP_JACK if self.jack_wild and self.mode == "sum11" else 0.0
        self.memo = memos_of(rules)


class Memos:
    """What the simulator remembers for one rule set, shared by every ``Game`` of those rules: the
    policy's view of each play (``moves``, by card and table), the legal captures (``takes``, by
    rank and table) and which ranks clear a table (``sweeps``, by its ranks)."""

    __slots__ = ("moves", "sweeps", "takes")

    def __init__(self) -> None:
        self.moves: Memo[tuple[int, tuple[int, ...]], list[Move]] = Memo(MEMO)
        self.takes: Memo[tuple[int, tuple[int, ...]], list[Take]] = Memo(MEMO)
        self.sweeps: Memo[tuple[int, ...], tuple[int, int]] = Memo(MEMO)


@lru_cache(maxsize=16)
def memos_of(rules: Rules) -> Memos:
    """The memos of ``rules``, made when a game of them is first played."""
    return Memos()


class Position:
    """A deal in the simulator: the table, every seat's hand, the stock still to be dealt (in the
    order it will be dealt), the plays made so far, and per side the clubs, points and surs held;
    ``last`` is the seat that captured last (-1: nobody yet)."""

    __slots__ = ("clubs", "hands", "last", "live", "played", "points", "stock", "surs", "table")

    def __init__(self, table: tuple[int, ...], hands: list[list[int]], stock: list[int], played: int,
                 clubs: list[int], points: list[int], surs: list[int], last: int,
                 live: list[int] | None = None) -> None:
        self.table, self.hands, self.stock, self.played = table, hands, stock, played  # table: sorted
        self.clubs, self.points, self.surs, self.last = clubs, points, surs, last
        self.live = live  # cards of each rank in a hand or the stock (``live``), counted when first needed

    def copy(self) -> Position:
        return Position(self.table, [h[:] for h in self.hands], self.stock[:], self.played, self.clubs[:],
                        self.points[:], self.surs[:], self.last, None if self.live is None else self.live[:])


# -- captures ------------------------------------------------------------------------------------
@lru_cache(maxsize=1 << 16)
def sum_shapes(t: int, counts: Counts, multi: bool) -> tuple[Counts, ...]:
    """The value shapes a capture by sum ``t`` can take from a table of numerals ``counts``: one set
    (``multi`` false), or every maximal union of disjoint sets (``multi`` true), found as the
    referee finds them (engine.captures), cached."""
    if not multi:
        return tuple(_sets(t, counts))
    return tuple(_maximal_shapes(t, counts)[0])


def captures(card: int, table: tuple[int, ...] | list[int], game: Game) -> list[Take]:
    """Every legal capture of ``card`` on ``table`` (each a sorted tuple of cards); empty: a trail."""
    return _captures(RANK[card], table, game)


def _captures(rank: int, table: tuple[int, ...] | list[int], game: Game) -> list[Take]:
    """``captures`` of a card of ``rank``."""
    found = _whole_captures(rank, table, game)
    if found is not None:
        return found
    shape, groups = _shaped(table, game)
    shapes = sum_shapes(11 if rank == JACK else 11 - rank, shape, game.multi)
    found = []
    for shape in shapes:
        parts = [combinations(groups[v], k) for v, k in enumerate(shape) if k]
        if len(parts) == 1:
            found.extend(parts[0])  # each already sorted
            continue
        for pick in product(*parts):  # the parts by value, each sorted: sorted as they come
            found.append(tuple(c for part in pick for c in part))
    return found


def _whole_captures(rank: int, table: tuple[int, ...] | list[int], game: Game) -> list[Take] | None:
    """The captures of a card of ``rank`` that takes cards by kind (by rank, a Q or K, a wild J);
    None for a capture by sum."""
    if game.mode == "rank":
        same = tuple(sorted(c for c in table if RANK[c] == rank))
        return [same] if same else []
    if rank >= QUEEN:
        courts = sorted(c for c in table if RANK[c] == rank)
        if not courts:
            return []
        return [tuple(courts)] if game.court_all else [(c,) for c in courts]
    if rank == JACK and game.jack_wild:
        taken = tuple(sorted(c for c in table if RANK[c] <= JACK))
        return [taken] if taken else []
    return None


def _shaped(table: tuple[int, ...] | list[int], game: Game) -> tuple[Counts, list[list[int]]]:
    """The value counts of ``table``'s numerals and its numerals by value, kept for the last
    table asked (the policy asks for every card of a hand on one table)."""
    if table is game.shaped[0]:
        return game.shaped[1], game.shaped[2]
    counts = [0] * 11
    groups: list[list[int]] = [[] for _ in range(11)]
    for c in sorted(table):
        counts[VALUE[c]] += 1
        if RANK[c] <= 10:
            groups[VALUE[c]].append(c)
    counts[0] = 0
    shape = tuple(counts)
    if isinstance(table, tuple):  # a list could change under the same identity
        game.shaped = (table, shape, groups)
    return shape, groups


# -- playing ---------------------------------------------------------------------------------------
def turn(pos: Position, game: Game) -> int:
    """The seat to play."""
    return (game.dealer + 1 + pos.played) % game.players


def can_sur(pos: Position, game: Game, seat: int, card: int) -> bool:
    """Whether a capture that clears the table made now by ``seat`` with ``card`` is a sur."""
    if RANK[card] == JACK and not game.jack_sur:
        return False
    if not game.last_hand_sur and pos.played // (4 * game.players) + 1 >= game.hands:
        return False
    return game.sur_open[game.seat_side[seat]]


def play(pos: Position, game: Game, card: int, take: Take) -> None:
    """Play ``card`` (from the hand of the seat to play) capturing ``take``; deal the next hand
    when this one is played out, and give the table to the last capturer after the last card."""
    seat = (game.dealer + 1 + pos.played) % game.players
    pos.hands[seat].remove(card)
    if pos.live is not None:
        pos.live[RANK[card]] -= 1
    table = pos.table
    if take:
        side = game.seat_side[seat]
        if len(take) == len(table):
            if can_sur(pos, game, seat, card):
                surs = pos.surs
                for other in range(game.sides):
                    if game.sur_cancel and other != side and surs[other]:
                        surs[other] -= 1
                        break
                else:
                    surs[side] += 1
            pos.table = ()
        else:
            pos.table = tuple(c for c in table if c not in take)
        points = game.points
        pos.points[side] += points[card] + sum(points[c] for c in take)
        pos.clubs[side] += CLUB[card] + sum(CLUB[c] for c in take)
        pos.last = seat
    else:
        pos.table = tuple(sorted((*table, card)))
    _next(pos, game)


def _next(pos: Position, game: Game) -> None:
    """Count the play made; deal the next hand, or end the deal."""
    pos.played += 1
    if pos.played >= game.total_plays:
        taker = pos.last if pos.last >= 0 else game.dealer
        side = game.seat_side[taker]
        pos.points[side] += sum(game.points[c] for c in pos.table)
        pos.clubs[side] += sum(CLUB[c] for c in pos.table)
        pos.table = ()
    elif not pos.played % (4 * game.players) and pos.stock:
        stock = pos.stock
        for hand in pos.hands:
            hand.extend(stock[-4:])
            del stock[-4:]


def clubs_winners(clubs: list[int], game: Game) -> list[int]:
    """The sides that score the clubs points (as ``scoring.clubs_winners``)."""
    top = max(clubs)
    leaders = [s for s, n in enumerate(clubs) if n == top]
    if top >= game.clubs_min and len(leaders) == 1:
        return leaders
    if len(clubs) == 3 and game.third and top < game.clubs_min:
        for side, n in enumerate(clubs):
            others = [m for s, m in enumerate(clubs) if s != side]
            if others[0] == others[1] and clubs.count(n) == 1:
                return [side]
    return []


def scores(pos: Position, game: Game) -> list[int]:
    """Each side's deal score (the deal must be over)."""
    out = [pos.points[s] + pos.surs[s] * game.sur_points for s in range(game.sides)]
    for side in clubs_winners(pos.clubs, game):
        out[side] += game.clubs_points
    return out


def margin(result: list[int], side: int) -> float:
    """``side``'s score less the average of the other sides'."""
    others = [r for s, r in enumerate(result) if s != side]
    return result[side] - sum(others) / len(others)


# -- the playout policy ----------------------------------------------------------------------------
@cache
def _clubs_table(clubs_min: int, clubs_points: int) -> list[list[list[float]]]:
    """``[mine][theirs][k]``: the clubs points' expected share in the margin (clubs points times the
    chance of scoring them, less the other side's) once ``k`` more clubs are the player's, every
    club not yet taken going to either side alike."""
    need, points = clubs_min, clubs_points

    def chance(have: int, rest: int) -> float:  # P(at least need - have of rest fair coins)
        want = need - have
        if want <= 0:
            return 1.0
        if want > rest:
            return 0.0
        return sum(comb(rest, j) for j in range(want, rest + 1)) / 2.0 ** rest

    table = []
    for mine in range(14):
        row = []
        for theirs in range(14):
            values = []
            for k in range(14):
                m = min(13, mine + k)
                rest = max(0, 13 - m - theirs)
                values.append(points * (chance(m, rest) - chance(theirs, rest)))
            row.append(values)
        table.append(row)
    return table


def _clearers(ranks: tuple[int, ...], game: Game) -> tuple[int, int]:
    """Which ranks (bits) clear a table of these ranks with one capture, and which of those make a
    sur (a J under ``jack_sur=false`` clears without one)."""
    kinds = set(ranks)
    clear = 0
    if game.mode == "rank":
        if len(kinds) == 1:
            clear = 1 << ranks[0]
    elif QUEEN in kinds or KING in kinds:
        if len(kinds) == 1 and (game.court_all or len(ranks) == 1):
            clear = 1 << ranks[0]
    elif JACK in kinds:
        if game.jack_wild:
            clear = 1 << JACK
    else:
        if game.jack_wild:
            clear = 1 << JACK
        counts = [0] * 11
        for r in ranks:
            counts[r] += 1
        shape = tuple(counts)
        total = sum(ranks)
        for rank in range(1, 11 if game.jack_wild else 12):
            t = 11 - rank if rank <= 10 else 11
            if (total == t or (game.multi and not total % t and _splits(t, shape))) and t:
                clear |= 1 << rank
    surs = clear & ~(1 << JACK) if not game.jack_sur else clear
    return clear, surs


def clearers(table: tuple[int, ...], game: Game) -> tuple[int, int]:
    """``_clearers`` of ``table``, remembered per rules by its ranks."""
    ranks = tuple([RANK[c] for c in table])  # the table is sorted, so are its ranks
    if not ranks:
        return 0, 0
    sweeps = game.memo.sweeps
    return sweeps.get(ranks) or sweeps.keep(ranks, _clearers(ranks, game))


def moves(card: int, table: tuple[int, ...], game: Game) -> list[Move]:
    """What the policy needs of each legal play of ``card`` on ``table`` (remembered per rules):
    the take, the points and clubs the play brings in (the card and the take), whether it clears
    the table, the table left, its points and clubs, and the ranks that could clear it (bits)."""
    memo = game.memo.moves
    return memo.get((card, table)) or memo.keep((card, table), _moves(card, table, game))


def _moves(card: int, table: tuple[int, ...], game: Game) -> list[Move]:
    """``moves``, worked out."""
    points = game.points.__getitem__
    club = CLUB.__getitem__
    found: list[Move] = []
    takes = game.memo.takes.get((RANK[card], table))
    if takes is None:  # (an empty list is remembered too: a trail)
        takes = game.memo.takes.keep((RANK[card], table), captures(card, table, game))
    for take in takes or [()]:
        if take:
            left = tuple([c for c in table if c not in take])
            gain = points(card) + sum(map(points, take))
            clubs = club(card) + sum(map(club, take))
        else:
            left = tuple(sorted((*table, card)))
            gain = clubs = 0
        clear, surs = clearers(left, game)
        found.append((take, gain, clubs, bool(take) and not left, left, sum(map(points, left)),
                      sum(map(club, left)), clear, surs))
    return found


def _miss(unseen: int, sweepers: int, held: int) -> float:
    """The chance that ``held`` cards dealt from ``unseen`` include none of ``sweepers`` of them."""
    p = 1.0
    for i in range(held):
        if unseen - i <= 0:
            break
        p *= max(0, unseen - sweepers - i) / (unseen - i)
    return p


def _hit(ranks: int, counts: list[int], mine: list[int], unseen: int, held: int) -> float:
    """The chance that the next player, holding ``held`` of the ``unseen`` cards, has one of these
    ranks (bits), counting the cards of them still unseen by the player to move."""
    n = 0
    for r in range(1, 14):
        if ranks >> r & 1:
            n += counts[r] - mine[r]
    return 1.0 - _miss(unseen, n, held) if n else 0.0


def live(pos: Position) -> list[int]:
    """How many cards of each rank are still in a hand or the stock (counted once, then kept)."""
    found = pos.live
    if found is None:
        found = [0] * 14
        for hand in pos.hands:
            for c in hand:
                found[RANK[c]] += 1
        for c in pos.stock:
            found[RANK[c]] += 1
        pos.live = found
    return found


def policy(pos: Position, game: Game) -> tuple[int, Move]:
    """The playout policy's play for the seat to move, from what that seat can know (its hand, the
    table, the cards seen): the points and clubs a play brings in (a club worth its share of the
    clubs points by how the clubs stand), a sur's points, less a share of what the table it leaves
    holds, and, by the chance that the next player holds a card that clears it (counted from the
    unseen cards), the sur and the table that player would take. A J (when wild) is kept for a
    better table unless it brings in enough."""
    seat = (game.dealer + 1 + pos.played) % game.players
    hand = pos.hands[seat]
    table = pos.table
    known = game.memo.moves.get
    if len(hand) == 1:
        found = known((hand[0], table)) or moves(hand[0], table, game)
        if len(found) == 1:
            return hand[0], found[0]  # nothing to decide
    side = game.seat_side[seat]
    row, base, club, lost = _clubs_terms(pos.clubs, side, game)
    held, sur_next = _next_holds(pos, game, seat, side)
    threat: Threat | None = None  # made when a play leaves a table that the next player's card may clear
    my_sur = -1.0
    keep_jack = game.keep_jack
    share = game.left_share
    best_card, best, best_score = -1, None, -1e9
    for card in hand:
        for move in known((card, table)) or moves(card, table, game):
            _, gain, cl, clears, left, lpts, lcl, clear, surs = move
            score = gain + (row[cl] - base if cl > 1 else club * cl)
            if clears:
                if my_sur < 0:
                    my_sur = game.sur_points if can_sur(pos, game, seat, card) else 0.0
                score += my_sur
            elif left:
                worth = lpts + lost * lcl
                score -= share * worth
                if clear and held:
                    threat = threat or Threat(pos, game, seat, held, sur_next)
                    score = threat.after(score, worth, clear, surs)
            if keep_jack and RANK[card] == JACK and not clears:
                score -= keep_jack
            if score > best_score:
                best_card, best, best_score = card, move, score
    assert best is not None
    return best_card, best


def _clubs_terms(clubs: list[int], side: int, game: Game) -> tuple[list[float], float, float, float]:
    """How the clubs stand for ``side``: the row of ``game.clubs_value`` for its clubs and the
    most any other side holds, its first entry, what one more club is worth, and what one more
    club of the other side's costs."""
    mine = clubs[side]
    theirs = clubs[1 - side] if game.sides == 2 else max(clubs[s] for s in range(game.sides) if s != side)
    row = game.clubs_value[mine][theirs]
    base = row[0]
    return row, base, row[1] - base, base - game.clubs_value[mine][min(13, theirs + 1)][0]


class Threat:
    """What the player after a play, holding ``held`` cards, may take from the table the play
    leaves: the chance that it holds a card that clears that table (from the cards the seat to
    move has not seen, counted once they matter), the table's worth and the sur it would make."""

    __slots__ = ("counts", "hand", "held", "mine", "misses", "pos", "sur_next", "take_share", "unseen")

    def __init__(self, pos: Position, game: Game, seat: int, held: int, sur_next: float) -> None:
        self.pos, self.hand, self.take_share = pos, pos.hands[seat], game.take_share
        self.held, self.sur_next = held, sur_next
        self.counts: list[int] = []
        self.mine: list[int] = []
        self.unseen = 0
        self.misses: dict[int, float] = {}

    def after(self, score: float, worth: float, clear: int, surs: int) -> float:
        """``score`` less what the next player takes, by its chance, from a table worth ``worth``
        that the ranks ``clear`` (not none) clear (``surs``: those making a sur of it)."""
        p = self.misses.get(clear)
        if p is None:
            p = self.misses[clear] = self.hit(clear)
        score -= p * self.take_share * worth
        if surs and self.sur_next:
            q = p if surs == clear else self.hit(surs)
            score -= q * self.sur_next
        return score

    def hit(self, ranks: int) -> float:
        """The chance that the next player holds a card of ``ranks`` (bits)."""
        if not self.counts:  # what the seat has not seen, counted once it matters
            self.counts = live(self.pos)
            self.mine = [0] * 14
            for c in self.hand:
                self.mine[RANK[c]] += 1
            self.unseen = sum(self.counts) - len(self.hand)
        return _hit(ranks, self.counts, self.mine, self.unseen, self.held)


def _next_holds(pos: Position, game: Game, seat: int, side: int) -> tuple[int, float]:
    """How many cards the next player holds for its play after this one (0: there is none this
    deal, it holds none, or it is a partner), and the sur points a clearing capture brings it."""
    after = pos.played + 1
    if after >= game.total_plays:
        return 0, 0.0
    nxt = (seat + 1) % game.players
    if (after % (4 * game.players) == 0 and not pos.stock) or game.seat_side[nxt] == side:
        return 0, 0.0
    last_hand = after // (4 * game.players) + 1 >= game.hands
    if (game.last_hand_sur or not last_hand) and game.sur_open[game.seat_side[nxt]]:
        return len(pos.hands[nxt]) or 4, game.sur_points
    return len(pos.hands[nxt]) or 4, 0.0


def play_move(pos: Position, game: Game, card: int, move: Move) -> None:
    """``play`` with what ``moves`` found: the table left is known."""
    take = move[0]
    if not take or len(take) < len(pos.table):
        seat = (game.dealer + 1 + pos.played) % game.players
        pos.hands[seat].remove(card)
        if pos.live is not None:
            pos.live[RANK[card]] -= 1
        if take:
            side = game.seat_side[seat]
            pos.points[side] += move[1]
            pos.clubs[side] += move[2]
            pos.last = seat
        pos.table = move[4]
        _next(pos, game)
    else:
        play(pos, game, card, take)


def rollout(pos: Position, game: Game, side: int, stop: int) -> float:
    """Play on with the policy for every seat up to play number ``stop`` (the end of a hand, or of
    the deal); ``side``'s deal margin: exact at the end of the deal, else ``judge``'s estimate."""
    while pos.played < stop:
        card, move = policy(pos, game)
        play_move(pos, game, card, move)
    if pos.played >= game.total_plays:
        return margin(scores(pos, game), side)
    return judge(pos, game, side)


def judge(pos: Position, game: Game, side: int) -> float:
    """``side``'s expected deal margin as a hand begins: the points and surs held, the clubs points
    by how the clubs stand (``clubs_value``), and the table, which the hand's leader clears by the
    chance that one of its four cards (any of the cards not yet played) does so (a sur when the
    rules allow it then)."""
    held = [pos.points[s] + pos.surs[s] * game.sur_points for s in range(game.sides)]
    clubs = pos.clubs
    theirs = max(clubs[s] for s in range(game.sides) if s != side)
    value = margin(held, side) + game.clubs_value[clubs[side]][theirs][0]
    table = pos.table
    if table:
        counts = live(pos)
        clear, surs = clearers(table, game)
        if clear:
            leader = (game.dealer + 1) % game.players
            n = 0
            for r in range(1, 14):
                if clear >> r & 1:
                    n += counts[r]
            p = 1.0 - _miss(sum(counts), n, 4)
            gain = sum(game.points[c] for c in table)
            last_hand = pos.played // (4 * game.players) + 1 >= game.hands
            if surs and (game.last_hand_sur or not last_hand) and game.sur_open[game.seat_side[leader]]:
                gain += game.sur_points
            sign = 1.0 if game.seat_side[leader] == side else -1.0 / (game.sides - 1)
            value += sign * p * gain
    return value


def horizon(game: Game, played: int, depth: int = DEPTH) -> int:
    """Where a guessed deal is played to from play number ``played``: the end of the hand of play
    ``played + depth`` (the end of the deal at most); depth < 0: the end of the deal."""
    if depth < 0:
        return game.total_plays
    per_hand = 4 * game.players
    return min(game.total_plays, ((played + depth) // per_hand + 1) * per_hand)


def deal_hidden(rng: random.Random, unseen: list[int], sizes: list[int]) -> tuple[list[list[int]], list[int]]:
    """One honest guess at the hidden cards: ``unseen`` shuffled into hands of ``sizes`` (in seat
    order), the rest the stock."""
    pool = unseen[:]
    rng.shuffle(pool)
    hands = []
    for size in sizes:
        hands.append(pool[-size:] if size else [])
        del pool[len(pool) - size:]
    return hands, pool


class Guesses:
    """Honest guesses at the hidden cards, spread out: one shuffle of the unseen cards is dealt
    into the other hands a slice at a time, so over a run of guesses each unseen card is in
    someone's hand about equally often (sampling without replacement: less noise than shuffling
    afresh each time); the stock is the rest, shuffled. A new shuffle when the slices run out."""

    def __init__(self, rng: random.Random, unseen: list[int], sizes: list[int]) -> None:
        self.rng, self.unseen, self.sizes = rng, unseen, sizes
        self.held = sum(sizes)
        self.order: list[int] = []
        self.at = len(unseen) + 1

    def next(self) -> tuple[list[list[int]], list[int]]:
        if self.at + self.held > len(self.order):
            self.order = self.unseen[:]
            self.rng.shuffle(self.order)
            self.at = 0
        dealt = self.order[self.at:self.at + self.held]
        stock = self.order[:self.at] + self.order[self.at + self.held:]
        self.rng.shuffle(stock)
        self.at += self.held
        hands, k = [], 0
        for size in self.sizes:
            hands.append(dealt[k:k + size])
            k += size
        return hands, stock


def samples(game: Game, base: Position, seat: int, mine: list[int], unseen: list[int], sizes: list[int],
            options: list[tuple[int, Take]], rng: random.Random, guesses: int,
            dealt: list[tuple[list[list[int]], list[int]]] | None = None) -> list[list[float]]:
    """Determinized Monte Carlo: for each option (card, take) of ``seat``, holding ``mine``, at
    ``base`` (whose hands and stock are ignored), the deal margin of the seat's side in each of
    ``guesses`` guesses at the hidden cards (``unseen`` dealt into hands of ``sizes``, the rest
    the stock). Every option is played in the same guesses and the deal played on by the policy
    to ``horizon`` (``rollout``). With nothing hidden one guess is all there is, and only one is made.
    Each guess (the hands, the stock) is added to ``dealt`` when given (``engine.parts`` replays them)."""
    side = game.seat_side[seat]
    stop = horizon(game, base.played)
    found: list[list[float]] = [[] for _ in options]
    guess = Guesses(rng, unseen, sizes)
    for _ in range(guesses if unseen else 1):
        hands, stock = guess.next()
        hands[seat] = mine
        if dealt is not None:
            dealt.append(([h[:] for h in hands], stock[:]))
        counts = live(Position((), hands, stock, 0, [], [], [], -1))
        for k, (card, take) in enumerate(options):
            pos = Position(base.table, [h[:] for h in hands], stock[:], base.played, base.clubs[:],
                           base.points[:], base.surs[:], base.last, counts[:])
            play(pos, game, card, take)
            found[k].append(rollout(pos, game, side, stop))
    return found


def exact(game: Game, base: Position, seat: int, mine: list[int], unseen: list[int], sizes: list[int],
          options: list[tuple[int, Take]]) -> list[float]:
    """The value of each option with nothing hidden that matters (two sides, the stock empty, every
    unseen card in the other hands): the deal played out by minimax (alpha-beta), every seat's best
    play, rather than by the policy. When the unseen cards could be split between several other
    hands, each split is one guess; this is only called when there is one other hand."""
    side = game.seat_side[seat]
    hands: list[list[int]] = []
    k = 0
    for size in sizes:
        hands.append(unseen[k:k + size])
        k += size
    hands[seat] = mine
    values = []
    for card, take in options:
        pos = Position(base.table, [h[:] for h in hands], [], base.played, base.clubs[:], base.points[:],
                       base.surs[:], base.last)
        play(pos, game, card, take)
        values.append(minimax(pos, game, side, -1e9, 1e9))
    return values


def minimax(pos: Position, game: Game, side: int, alpha: float, beta: float, stop: int | None = None) -> float:
    """The deal margin of ``side`` with best play by every seat from ``pos`` (everything known),
    alpha-beta; with ``stop``, judged once that many plays of the deal are made."""
    if pos.played >= game.total_plays:
        return margin(scores(pos, game), side)
    if stop is not None and pos.played >= stop:
        return judge(pos, game, side)
    seat = (game.dealer + 1 + pos.played) % game.players
    mine = game.seat_side[seat] == side
    best = -1e9 if mine else 1e9
    for card in pos.hands[seat]:
        for move in moves(card, pos.table, game):
            child = pos.copy()
            play_move(child, game, card, move)
            value = minimax(child, game, side, alpha, beta, stop)
            if mine:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                return best
    return best


def search(game: Game, base: Position, seat: int, mine: list[int], unseen: list[int], sizes: list[int],
           options: list[tuple[int, Take]], rng: random.Random, effort: int) -> list[float]:
    """The value of each option (``searched``'s values)."""
    return searched(game, base, seat, mine, unseen, sizes, options, rng, effort)[0]


def searched(game: Game, base: Position, seat: int, mine: list[int], unseen: list[int], sizes: list[int],
             options: list[tuple[int, Take]], rng: random.Random,
             effort: int) -> tuple[list[float], list[list[float]]]:
    """The value of each option: its mean deal margin over guesses at the hidden cards, spending
    ``effort`` playouts per option in all by successive halving: every option is played in the
    same first guesses, the better half goes on to more guesses, and so on, so the guesses go to
    the options that could be best. An option dropped early is valued against the best one on the
    guesses both were played in (common random numbers): the best's mean, less their mean
    difference there. With nothing hidden that matters (two sides, the stock empty, the unseen
    cards all in the one other hand) the deal is played out by minimax (``exact``) instead.
    Also each option's margins guess by guess (the first guesses are common to all options)."""
    n = len(options)
    if (n > 1 and game.sides == 2 and len(unseen) == sum(sizes) <= EXACT
            and sum(1 for size in sizes if size) == 1):
        values = exact(game, base, seat, mine, unseen, sizes, options)
        return values, [[v] for v in values]
    if n == 1 or not unseen or effort <= 1:
        found = samples(game, base, seat, mine, unseen, sizes, options, rng, max(effort, 1))
        return [sum(values) / len(values) for values in found], found
    side = game.seat_side[seat]
    stop = horizon(game, base.played)
    guess = Guesses(rng, unseen, sizes)
    guesses: list[tuple[list[list[int]], list[int], list[int]]] = []
    played: list[list[float]] = [[] for _ in options]
    alive = list(range(n))
    rounds = max(1, (n - 1).bit_length())
    budget = effort * n
    for round_ in range(rounds):
        share = budget // (rounds - round_)
        more = max(1, share // len(alive))
        budget -= more * len(alive)
        upto = len(played[alive[0]]) + more
        while len(guesses) < upto:
            hands, stock = guess.next()
            hands[seat] = mine
            guesses.append((hands, stock, live(Position((), hands, stock, 0, [], [], [], -1))))
        for k in alive:
            card, take = options[k]
            values = played[k]
            for hands, stock, counts in guesses[len(values):upto]:
                pos = Position(base.table, [h[:] for h in hands], stock[:], base.played, base.clubs[:],
                               base.points[:], base.surs[:], base.last, counts[:])
                play(pos, game, card, take)
                values.append(rollout(pos, game, side, stop))
        if round_ < rounds - 1:
            alive.sort(key=lambda k: (-sum(played[k]), k))
            alive = alive[:(len(alive) + 1) // 2]
    best = max(alive, key=lambda k: (sum(played[k]), -k))
    top = played[best]
    mean = sum(top) / len(top)
    return [mean - (sum(top[:len(v)]) - sum(v)) / len(v) for v in played], played
