"""Why a reviewed play cost what it did, in a sentence: the largest scoring part of its loss named
with the cards the search found (``engine.advice.Reason``), then the parts that weigh most."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pasur_cli.engine.cards import Card
from pasur_cli.engine.errors import Plural, Words

if TYPE_CHECKING:
    from pasur_cli.engine.advice import PlayReview, Reason
    from pasur_cli.text.render import Look

SHOWN = 3  # the parts a reason lists at most
CARD_PARTS: dict[str, Callable[[Card], bool]] = {  # the cards that score in a part
    "two_clubs": lambda c: c == Card(2, "C"), "ten_diamonds": lambda c: c == Card(10, "D"),
    "seven_diamonds": lambda c: c == Card(7, "D"), "aces": lambda c: c.rank == 1,
    "jacks": lambda c: c.rank == 11, "clubs": lambda c: c.suit == "C"}


def part_words(name: str) -> Words | Card:
    """A scoring part of the deal (``engine.parts.PARTS``) as a reason names it."""
    if name == "surs_for":
        return Words("own surs")
    if name == "surs_against":
        return Words("surs against")
    if name == "clubs":
        return Words("clubs")
    if name == "aces":
        return Words("aces")
    if name == "jacks":
        return Words("jacks")
    if name == "leftover":
        return Words("the table left")
    rank, suit = {"two_clubs": (2, "C"), "ten_diamonds": (10, "D")}.get(name, (7, "D"))
    return Card(rank, suit)


def parts_text(look: Look, parts: dict[str, float], sign: float = -1.0) -> str:
    """The parts that weigh most, largest first, as ``surs against -6.1, 2♣ -1.9`` (``sign``: -1,
    a loss said from the play made's side)."""
    from pasur_cli.text.render import comma
    from pasur_cli.text.review import points
    ranked = sorted((p for p in parts if round(parts[p], 1)), key=lambda p: -abs(parts[p]))[:SHOWN]
    return comma().join(look.say("{part} {points}", part=part_words(p), points=points(sign * parts[p]))
                     for p in ranked)


def reason_text(look: Look, play: PlayReview) -> str:
    """The reason of a marked play: a sentence on its largest part with the cards, then its parts."""
    reason = play.reason
    assert reason is not None
    largest = reason.largest
    if largest in ("surs_for", "surs_against"):
        said = _surs(look, play, reason, largest)
    elif largest in CARD_PARTS:  # the clubs too: which clubs each play takes
        said = _cards(look, play, reason, largest)
    else:
        said = look.say("Most of the difference is in {part}.", part=part_words(largest))
    return said + " (" + parts_text(look, dict(reason.parts)) + ")"


def _surs(look: Look, play: PlayReview, reason: Reason, largest: str) -> str:
    """The sentence of a loss mostly in surs: the better play's sweep, or the reply's."""
    before = _table_before(play, reason)
    if largest == "surs_for" and reason.parts[largest] > 0:
        if play.best_take and set(play.best_take) == set(before):
            return look.say("{card} sweeps the table now: a sur.", card=play.best_card)
        return look.say("The better play leads to more surs of your own later.")
    reply = reason.reply
    if reply is None or not reply.sur:
        return look.say("The play leaves the other side more chances of a sur.")
    if reason.exact:
        said = look.say("The play leaves {left}, which {player} sweeps for a sur with best play.",
                        left=reason.left, player=reply.player)
    else:
        said = look.say(Plural("The play leaves {left}, which {player} swept for a sur in {count} guessed deal"
                               " of {guesses}.", "The play leaves {left}, which {player} swept for a sur in"
                               " {count} guessed deals of {guesses}.", "count"), left=reason.left,
                        player=reply.player, count=reply.count, guesses=reply.guesses)
    if not reason.swept:
        said += " " + look.say("After the better play, no sur came in the same guesses.")
    return said


def _cards(look: Look, play: PlayReview, reason: Reason, largest: str) -> str:
    """The sentence of a loss mostly in cards that score (2♣, 10♦, 7♦, aces, jacks, clubs): which
    ones the better play takes now, and which the play leaves to the reply."""
    kind = CARD_PARTS[largest]
    mine = {play.card, *play.take}
    gained = tuple(c for c in (play.best_card, *play.best_take) if kind(c) and c not in mine)
    said = []
    if gained and reason.parts[largest] > 0:
        said.append(look.say("The better play takes {cards} now.", cards=gained))
    reply = reason.reply
    lost = tuple(c for c in reply.take if kind(c)) if reply is not None else ()
    if reply is not None and lost:
        said.append(look.say(Plural("The play leaves {cards}, which {player} took in {count} guessed deal of"
                                    " {guesses}.", "The play leaves {cards}, which {player} took in {count} guessed"
                                    " deals of {guesses}.", "count"), cards=lost, player=reply.player,
                             count=reply.count, guesses=reply.guesses))
    if not said:
        said.append(look.say("Most of the difference is in {part}.", part=part_words(largest)))
    return " ".join(said)


def _table_before(play: PlayReview, reason: Reason) -> tuple[Card, ...]:
    """The table the play was made on (from the table it left)."""
    if play.take:
        return tuple(sorted((*reason.left, *play.take)))
    return tuple(c for c in reason.left if c != play.card)
