"""The questions the command line asks, shared by the commands and the session: the capture
question (which capture, when the engine says a play has a choice) and the tally questions (each
side's pile or counts and surs). The engine decides; these only ask, and check each answer by
asking the engine.

Ctrl-C at a question is KeyboardInterrupt, Ctrl-D EOFError: the caller decides what they cancel.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click

from pasur_cli.cli.screen import fit
from pasur_cli.engine.errors import NotationError, PasurError
from pasur_cli.engine.names import find_name
from pasur_cli.engine.reading import whole_number
from pasur_cli.engine.typos import read_cards
from pasur_cli.text import i18n, render
from pasur_cli.text.i18n import _, answer

if TYPE_CHECKING:
    from pasur_cli.cli.terminal import Reader
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.deal import Deal
    from pasur_cli.engine.match import Match
    from pasur_cli.text.render import Look

T = TypeVar("T")


def confirm(question: str) -> bool:
    """Ask ``question`` (a sentence in the chosen language) at the terminal until the answer is yes or
    no in that language or in English; an empty answer, Ctrl-C and the end of input are no."""
    suffix = _("[y/N]")
    while True:
        try:
            typed = click.prompt(question + " " + suffix, default="", show_default=False, prompt_suffix=": ")
        except click.Abort:  # Ctrl-C or the end of input
            click.echo()
            return False
        said = answer(typed, i18n.language())
        if said is not None:
            return said
        click.echo(_("Please answer y (yes) or n (no)."))


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


def _ask(read: Reader, look: Look, question: str, parse: Callable[[str], T], default: str | None = None,
         width: int | None = None) -> T:
    """Ask until ``parse`` accepts the answer; each refusal is shown and the question asked again
    (both broken between words to fit ``width`` columns, as the session's lines are)."""
    shown = fit(f"{question} [{default}]: " if default else f"{question}: ", width)
    while True:
        text = read(shown).strip()
        if not text and default is not None:
            text = default
        try:
            return parse(text)
        except PasurError as err:
            _refuse(look, err, width)


def _refuse(look: Look, err: PasurError, width: int | None) -> None:
    click.echo(fit(_("Error: {message}").format(message=render.error_text(look, err)), width))


def _pile_or_counts(side: str, earlier: str | None = None) -> Callable[[str], tuple[str, str]]:
    """Read one side's answer as `--pile` or `--count` reads it, refusing what they would refuse;
    counts typed to correct ``earlier`` counts replace only the counts typed."""
    def parse(text: str) -> tuple[str, str]:
        if "=" in text:
            from pasur_cli.text.tally_input import merge_counts, parse_counts  # loaded only when a tally is asked
            if earlier and "=" in earlier:
                text = merge_counts(earlier, text)
            parse_counts(text, side)
            return "counts", f"{side}: {text}"
        if not text:
            raise NotationError("type the pile's cards, or its counts like clubs=8 aces=2.")
        read_cards(text.replace(",", " ").split())
        return "pile", f"{side}={text}"
    return parse


def _surs(side: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        number = whole_number(text)
        if number is None and ("=" in text or _names_cards(text)):  # the pile or counts, typed a question late
            raise NotationError("{text!r} is a pile or counts; this question asks only how many surs {side} holds"
                                " (0, 1, 2 ...). To change the pile or counts, answer this, then name {side} when"
                                " asked which side to correct.", text=text, side=side)
        if number is None:
            raise NotationError("{text!r} is not a number of surs: type 0, 1, 2 ...", text=text)
        from pasur_cli.engine.action import check_surs
        check_surs(side, number)
        return number
    return parse


def _names_cards(text: str) -> bool:
    """Whether ``text`` is a list of cards."""
    try:
        return bool(read_cards(text.replace(",", " ").split()))
    except PasurError:
        return False


def ask_tally(match: Match, read: Reader, look: Look, partial: bool = False,
              width: int | None = None) -> tuple[list[str], list[str], list[str]]:
    """Ask side by side, checking each answer as it is given (a wrong one is asked again with the
    sentence the options' refusal gives); when the answers together do not add up, ask which side
    to correct, keeping the rest. Returns the same texts the options would hold. Raises the
    match's refusal before the first question when no tally can be entered now (a deal being
    played card by card, the match over). Ctrl-C is KeyboardInterrupt, Ctrl-D EOFError. Lines
    wider than ``width`` break between words (None: as they are)."""
    match.check_tally_allowed()
    from pasur_cli.text.tally_input import counts_example
    click.echo(fit(look.say("Tally of deal {number} ({dealer} dealt). For each side, type its pile's cards or its"
                            " counts, like: {example}", number=match.deal_number, dealer=match.dealer,
                            example=counts_example()), width))
    answers: dict[str, tuple[tuple[str, str], int]] = {}

    def ask(side: str) -> None:
        """Ask for ``side``'s answer; when correcting, its earlier answer is offered (Enter keeps
        it; counts typed replace only those counts)."""
        earlier = answers.get(side)
        before = None if earlier is None else earlier[0][1].partition(":" if earlier[0][0] == "counts" else "=")[2]
        before = before and before.strip()
        offer = getattr(read, "offer", None)
        offered = bool(before and offer is not None and offer(before))  # on the line, to edit (readline)
        given = _ask(read, look, look.say("{side}: pile or counts", side=side), _pile_or_counts(side, before),
                     default=None if offered else before, width=width)
        held = _ask(read, look, look.say("Surs held by {side} at the end of the deal", side=side), _surs(side),
                    default=str(earlier[1]) if earlier else "0", width=width)
        answers[side] = (given, held)

    for side in match.sides:
        ask(side)
    while True:
        piles = [text for (kind, text), _held in answers.values() if kind == "pile"]
        counts = [text for (kind, text), _held in answers.values() if kind == "counts"]
        surs = [f"{side}={held}" for side, (_given, held) in answers.items()]
        try:
            from pasur_cli.text.tally_input import build_action
            action = build_action(match, piles, counts, surs, partial)
            match.verify_tally(action["piles"], action["counts"], action["surs"], partial)
            return piles, counts, surs
        except PasurError as err:
            _refuse(look, err, width)
        choice = _ask(read, look, look.say("Which side's answer to correct? ({sides}; Enter gives up)",
                                           sides=", ".join(match.sides)),
                      functools.partial(_known, match=match), default="", width=width)
        if not choice:
            raise NotationError("tally given up; nothing was recorded.")
        ask(choice)


def _known(text: str, match: Match) -> str:
    """The side ``text`` names (the side's name or one of its players'), "" for nothing typed."""
    if not text:
        return ""
    side = find_name(match.sides, text)
    if side is None:
        player = find_name(match.players, text)
        if player is None:
            raise NotationError("{name!r} is not a side or player here.", name=text)
        side = match.side_of(player)
    return side
