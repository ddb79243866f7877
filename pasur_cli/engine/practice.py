"""Practice on one's own mistakes: the marked decisions of reviewed deals, each rebuilt as it stood,
an answer judged against the best option, and the order they come back in.

A decision is a play of a reviewed deal that cost its player ``MISTAKE`` expected points or more
(``advice.review``). Its position is the match replayed through the engine up to that play: the
hand is the cards the player went on to play in that hand (the log knows them; the engine says how
many they held), the table, the piles and the deal's score are the replayed deal's own.

The order is a simple spaced repetition: positions missed the last time they were practised come
first (the longest unseen first), then the ones never practised, then the ones found, the longest
unseen first (``practice_order``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from pasur_cli.engine.action import PlayAction
from pasur_cli.engine.advice import MISTAKE, Advice, DealReview, PlayReview
from pasur_cli.engine.cards import ORDER, Card
from pasur_cli.engine.errors import IllegalPlayError
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import name_key
from pasur_cli.engine.values import Value

CLOSE = 0.5  # an answer within this many expected points of the best option is found too
MARKED = MISTAKE  # a play that cost this many expected points or more is practised
Key = tuple[int, int, int]  # a position in the record book: the match, the deal, the play (from 1)
DealKey = tuple[int, int]  # a deal: the match, the deal's number


class Decision(Value):
    """A marked play of a reviewed deal: play ``play`` (from 1) of deal ``deal`` of match
    ``match_id``, as its review weighed it (``review``: the play made, the best option, the loss)."""

    match_id: int
    deal: int
    play: int
    review: PlayReview

    @property
    def key(self) -> Key:
        """What names the position in the record book: the match, the deal, the play."""
        return self.match_id, self.deal, self.play


class Practised(Value):
    """How a position went the last time it was practised: ``found`` the best option (or one
    within ``CLOSE`` of it), ``tries`` in all, ``seen`` a counter (higher: practised more recently),
    ``card`` the card that was played there in the match (another card: the match was changed
    since, and it is another position)."""

    card: Card
    found: bool
    tries: int
    seen: int


class Answer(Value):
    """An answer judged: the option ``chosen`` and the ``best`` one, with their values (the
    expected margin of the deal's points, ``advice``), and whether it is ``found``."""

    chosen: Advice
    best: Advice

    @property
    def found(self) -> bool:
        """The best option, or one within ``CLOSE`` expected points of it."""
        return self.chosen.value >= self.best.value - CLOSE


def marked(match_id: int, review: DealReview, player: str | None = None) -> list[Decision]:
    """The plays of ``review`` (of match ``match_id``) that cost ``MARKED`` points or more, of
    ``player`` (any spelling ``name_key`` reads as the name) or of everyone, in order."""
    key = None if player is None else name_key(player)
    return [Decision(match_id, review.deal, k, p) for k, p in enumerate(review.plays, 1)
            if p.loss >= MARKED and (key is None or name_key(p.player) == key)]


def position(match: Match, deal: int, play: int) -> tuple[Match, list[Card]]:
    """``match`` (replayed from its whole log) replayed again up to play ``play`` (from 1) of deal
    ``deal``, and the hand of the player to move there: the cards they played from there to the
    end of that hand, as many as the replayed deal says they held. Raises IllegalPlayError when the
    match's log has no such play (a match rebuilt from a snapshot, or a play taken back)."""
    board = Match(match.players, match.rules, match.first_dealer)
    log = match.log
    number, made, at = 0, 0, None
    for i, action in enumerate(log):
        if not isinstance(action, PlayAction):
            number += 1
        elif number == deal:
            made += 1
            if made == play:
                at = i
                break
        board.apply(action)
    current = board.deal
    if at is None or match.start or current is None or current.turn is None:
        raise IllegalPlayError("deal {deal} of this match has no play {play} to practise.", deal=deal, play=play)
    seats = len(board.players)
    held = current.cards_left()[current.turn]
    later = log[at:at + seats * held:seats]
    hand = [a.card for a in later if isinstance(a, PlayAction)]
    return board, sorted(hand, key=ORDER)


def judge(options: Iterable[Advice], card: Card, take: tuple[Card, ...]) -> Answer:
    """The answer ``card`` taking ``take`` (the referee's form of a legal play) among ``options``
    (every legal option with its value). Raises IllegalPlayError when it is none of them."""
    listed = sorted(options, key=lambda a: -a.value)
    chosen = next((a for a in listed if a.card == card and set(a.take) == set(take)), None)
    if chosen is None or not listed:
        raise IllegalPlayError("{card} is not in this hand.", card=card)
    return Answer(chosen, listed[0])


def practice_order(deals: Iterable[DealKey], decisions: Callable[[DealKey], list[Decision]],
                   practised: Mapping[Key, Practised]) -> Iterator[Decision]:
    """The decisions of ``deals`` (each (match, deal), in the book's order) in the order they are
    practised: missed the last time first, the longest unseen first; then never practised, in the
    book's order; then found, the longest unseen first. ``decisions(deal)`` gives a deal's
    decisions; it is asked lazily, at most once a deal, so the first positions come before every
    deal is reviewed. A stored result whose card is not the decision's card is of another
    position (the match was changed since): never practised."""
    listed = list(deals)
    known: dict[DealKey, list[Decision]] = {}

    def of(deal: DealKey) -> list[Decision]:
        if deal not in known:
            known[deal] = decisions(deal)
        return known[deal]

    def last(d: Decision) -> Practised | None:
        kept = practised.get(d.key)
        return kept if kept is not None and kept.card == d.review.card else None

    def seen(d: Decision) -> int:
        kept = last(d)
        return kept.seen if kept is not None else 0

    def kept(found: bool) -> list[Decision]:
        wanted = {key[:2] for key, p in practised.items() if p.found == found}
        return sorted((d for deal in listed if deal in wanted for d in of(deal)
                       if (p := last(d)) is not None and p.found == found), key=seen)

    yield from kept(False)
    for deal in listed:
        yield from (d for d in of(deal) if last(d) is None)
    yield from kept(True)
