"""What `pasur practice` prints: a position as it stood, the options to choose from, the judgement
of an answer with the values of the answer and the best option and the review's reason, and the
summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pasur_cli.text.layout import Drawn
from pasur_cli.text.render import show_text
from pasur_cli.text.review import option_words, play_line, points

if TYPE_CHECKING:
    from pasur_cli.engine.advice import Advice
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.practice import Answer, Decision
    from pasur_cli.text.render import Look


def opening_text(look: Look, player: str | None) -> str:
    """What the practice holds, and what its values mean."""
    if player is None:
        head = look.say("The positions of the reviewed deals where a play cost 2 points or more, missed ones first.")
    else:
        head = look.say("The positions of the reviewed deals where a play of {player} cost 2 points or more,"
                        " missed ones first.", player=player)
    return "\n".join([head, look.say("Each value is the expected margin of the deal's points over the other side"
                                     " (a swing, not points of one's own score). Type a play as in the session"
                                     " (7c 4d) or an option's number; q leaves.")])


def nothing_text(look: Look, player: str | None) -> str:
    """There is no position to practise."""
    if player is None:
        return look.say("No position to practise: no play of a reviewed deal cost 2 points or more.")
    return look.say("No position to practise: no play of {player} in a reviewed deal cost 2 points or more.",
                    player=player)


def position_text(look: Look, number: int, decision: Decision, board: Match, hand: list[Card],
                  options: list[tuple[Card, tuple[Card, ...]]], width: int) -> str:
    """Position ``number``: where the match stood (``show``'s view of ``board``), the
    hand of the player to move and its legal options, numbered."""
    deal = board.deal
    assert deal is not None and deal.turn is not None
    lines = [look.say("Position {number}: match {match}, deal {deal}, hand {hand}; {player} to play.",
                      number=number, match=decision.match_id, deal=decision.deal, hand=deal.hand,
                      player=deal.turn),
             show_text(look, decision.match_id, board, width=width),
             look.say("{player} holds {hand}.", player=deal.turn, hand=tuple(hand)),
             look.say("Options:")]
    lines.extend(f"  {n}) {look.fact(option_words(card, take))}" for n, (card, take) in enumerate(options, 1))
    return "\n".join(lines)


def prompt_text(look: Look) -> str:
    return look.say("Your play (cards or a number; q leaves): ")


def _valued(look: Look, advice: Advice) -> str:
    return look.say("{option} ({value})", option=option_words(advice.card, advice.take), value=points(advice.value))


def answer_text(look: Look, answer: Answer, decision: Decision) -> str:
    """Whether the answer is the best option, or within half a point of it, or neither; the values
    of both; and the reason the review gives for the play made in the match."""
    chosen, best = _valued(look, answer.chosen), _valued(look, answer.best)
    if answer.chosen == answer.best:
        head = look.say("Found: {chosen} is the best option.", chosen=chosen)
    elif answer.found:
        head = look.say("Found: {chosen} is within half a point of the best option, {best}.", chosen=chosen,
                        best=best)
    else:
        head = look.say("Not found: {chosen}; the best option is {best}.", chosen=chosen, best=best)
    return "\n".join([head, look.say("In the match: {review}", review=reason_text(look, decision))])


def reason_text(look: Look, decision: Decision) -> str:
    """The review's word on the play made in the match: its label, its cost and the better option
    (the review's reason sentence, when its values carry one)."""
    return Drawn(play_line(look, decision.review))  # drawn: its isolates are not escaped again


def summary_text(look: Look, found: int, count: int) -> str:
    """How many of the positions answered were found."""
    if not count:
        return look.say("No position answered.")
    return look.say_count("{found} of {count} found.", "{found} of {count} found.", count, found=found, count=count)


def done_text(look: Look) -> str:
    return look.say("Every position has been practised.")
