"""The questions the command line asks, shared by the commands and the session: the capture
question (which capture, when the engine says a play has a choice). The engine decides; this only
asks, and checks each answer by asking the engine.

Ctrl-C at a question is KeyboardInterrupt, Ctrl-D EOFError: the caller decides what they cancel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pasur_cli.engine.errors import PasurError
from pasur_cli.engine.typos import read_cards
from pasur_cli.text import render
from pasur_cli.text.i18n import _, whole_number

if TYPE_CHECKING:
    from pasur_cli.cli.terminal import Reader
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.deal import Deal
    from pasur_cli.text.render import Look


def ask_capture(card: Card, deal: Deal, read: Reader, look: Look, echo: Callable[[str], None],
                refuse: Callable[[Exception], None], prompted: bool = True) -> list[Card] | None:
    """The capture to play ``card`` with: None when the engine has the answer (``Deal.capture_choice``
    gives no question), else the typist's choice among the captures it lists (a number, or the
    cards), each typed capture checked by the engine; a wrong answer is refused (``refuse``) and
    asked again. ``prompted``: the question is the prompt (at a terminal); else it is written
    first with ``echo`` and lines are read without a prompt. Raises IllegalPlayError for a card
    nobody can play now; KeyboardInterrupt or EOFError as the reader does."""
    found = deal.capture_choice(card)
    if found is None:
        return None
    question = render.choice_text(look, card, found.options, found.count, found.truncated)
    if not prompted:
        echo(question.rstrip())
    while True:
        answer = read(question if prompted else "").strip()
        number = whole_number(answer)
        if number is not None and 1 <= number <= len(found.options):
            return list(found.options[number - 1])
        if answer and not answer.isdecimal():
            try:
                take = read_cards(answer.replace(",", " ").split(), deal.table)
                deal.verify_play(card, take)  # the engine says whether, and why not
            except PasurError as err:
                refuse(err)
            else:
                return take
        echo(look.say("Type a number from 1 to {n}, or the cards it takes; Ctrl-C cancels the play.",
                      n=len(found.options)))
        question = _("Which one? ")
