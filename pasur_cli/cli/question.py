"""The capture question: when a card can capture in several ways, which one the player made.

One question for the session and for `pasur play` at a terminal, asked from what the engine says
of the play (one capture it makes by itself, or a choice among legal ones): by number or by its
cards, asked again with why not until it is one of them; Ctrl-C or the end of input cancels the
play (``Cancelled``), and nothing is recorded then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pasur_cli.cli.terminal import Reader
from pasur_cli.engine.captures import capture_problem, is_legal_capture, legal_captures
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.typos import read_cards
from pasur_cli.text import render
from pasur_cli.text.i18n import _, whole_number

if TYPE_CHECKING:
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.deal import Deal
    from pasur_cli.text.render import Look


class Cancelled(Exception):
    """The typist cancelled a question (Ctrl-C or Ctrl-D at it)."""


def ask_capture(card: Card, deal: Deal, look: Look, read: Reader, echo: Callable[[str], None],
                at_terminal: bool = True, handled: Callable[[], None] | None = None,
                width: int = 80) -> list[Card] | None:
    """The capture ``card`` makes in ``deal``: None when the engine has its one answer (a forced
    capture or a trail), else the one the typist chooses, asked with ``read`` (the prompt shown
    only ``at_terminal``) and answered in lines written with ``echo``. ``handled`` tells the
    reader a Ctrl-C was acted on. Raises Cancelled at Ctrl-C or the end of input."""
    found = legal_captures(card, deal.table, deal.rules)
    if found.forced is not None:  # the engine's answer, as Deal.resolve gives it
        return None
    question = render.choice_text(look, card, found.options, found.count, found.truncated, width)
    if not at_terminal:
        echo(question.rstrip())
    while True:
        try:
            answer = read(question if at_terminal else "").strip()
        except KeyboardInterrupt:
            if handled is not None:
                handled()
            echo("")
            raise Cancelled from None
        except EOFError:
            if at_terminal:  # the line the question was on ends first
                echo("")
            raise Cancelled from None
        number = whole_number(answer)
        if number is not None and 1 <= number <= len(found.options):
            return list(found.options[number - 1])
        if answer and not answer.isdecimal():
            try:
                take = read_cards(answer.replace(",", " ").split(), deal.table)
            except NotationError as err:
                echo(_("Error: {message}").format(message=render.error_text(look, err)))
            else:
                if tuple(sorted(take)) in found.options or (
                        found.truncated and is_legal_capture(card, deal.table, take, deal.rules)):
                    return take
                problem = capture_problem(card, deal.table, take, deal.rules)  # why not, when it can say
                if problem is not None:
                    echo(_("Error: {message}").format(message=render.error_text(look, problem)))
                else:
                    echo(_("{card} cannot take {cards}.").format(card=look.card(card), cards=look.cards(take)))
        echo(look.say("Type a number from 1 to {n}, or the cards it takes; Ctrl-C cancels the play.",
                      n=len(found.options)))
        question = _("Which one? ")
