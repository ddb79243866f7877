"""`pasur tally`: score a deal played without play-by-play entry."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click

from pasur_cli.cli.app import (
    PasurCommand,
    complete_side,
    current,
    expect_option,
    fit,
    json_option,
    look,
    look_options,
    open_store,
    store_options,
    terminal_width,
)
from pasur_cli.cli.terminal import Reader, Terminal
from pasur_cli.engine.errors import NotationError, PasurError
from pasur_cli.engine.names import find_name
from pasur_cli.engine.tally import check_surs
from pasur_cli.engine.typos import read_cards
from pasur_cli.store import actions
from pasur_cli.text import render
from pasur_cli.text.i18n import _, whole_number
from pasur_cli.text.tally_input import build_action, counts_example, merge_counts, parse_counts

if TYPE_CHECKING:
    from pasur_cli.engine.match import Match
    from pasur_cli.text.render import Look

T = TypeVar("T")


@click.command(cls=PasurCommand)
@click.option("--pile", "piles", multiple=True, metavar="SIDE=CARDS", shell_complete=complete_side,
              help='A side\'s captured cards, e.g. "Ali=AS 2C 10D ..." (repeat for each side).')
@click.option("--count", "counts", multiple=True, metavar="SIDE: K=V ...", shell_complete=complete_side,
              help='A side\'s counts instead of its cards: "Ali: clubs=8 aces=2 jacks=1 2c=yes 10d=no"'
                   ' (2c, 10d, 7d: whether the side holds that card).')
@click.option("--surs", multiple=True, metavar="SIDE=N", shell_complete=complete_side,
              help='Surs a side holds at the end of the deal, e.g. "Ali=2".')
@click.option("--partial", is_flag=True, help="The piles need not hold all 52 cards (and counts need not add up).")
@expect_option
@json_option
@store_options
@look_options
@click.pass_context
def tally(ctx: click.Context, piles: tuple[str, ...], counts: tuple[str, ...], surs: tuple[str, ...],
          partial: bool, expect: int | None, as_json: bool) -> None:
    """Score a deal played without play-by-play entry, from what each side captured.

    A side may be named by its name or any of its players. At a terminal with no options, asks
    side by side.
    """
    store = open_store(ctx, write=True)
    mid, match = current(ctx, store)
    given = list(piles), list(counts), list(surs)
    if not (piles or counts or surs):
        if sys.stdin is None or not sys.stdin.isatty():  # piped, or closed
            raise NotationError("give --pile or --count for every side (and --surs), or run at a terminal to be asked.")
        match.check_tally_allowed()  # before the terminal is taken and the first question is asked
        try:
            with Terminal() as terminal:
                given = ask_tally(match, terminal, look(ctx), partial, width=terminal_width())
        except (KeyboardInterrupt, EOFError):  # Ctrl-C or Ctrl-D at a question: as the session says it
            click.echo()
            click.echo(_("Cancelled: nothing was recorded."), err=True)
            ctx.exit(1)
    result, match = actions.enter_tally(store, mid, build_action(match, *given, partial), expect=expect)
    if as_json:
        data = render.score_json(mid, match)
        click.echo(render.dumps({"match": mid, "deal": data["deals"][result.number - 1], "totals": data["totals"],
                                 "finished": data["finished"], "winner": data["winner"]}))
    else:
        click.echo(render.score_text(look(ctx), match, only_last=True, width=terminal_width()))


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
        if number is None and ("=" in text or _cards(text)):  # the pile or counts, typed a question late
            raise NotationError("{text!r} is a pile or counts; this question asks only how many surs {side} holds"
                                " (0, 1, 2 ...). To change the pile or counts, answer this, then name {side} when"
                                " asked which side to correct.", text=text, side=side)
        if number is None:
            raise NotationError("{text!r} is not a number of surs: type 0, 1, 2 ...", text=text)
        check_surs(side, number)
        return number
    return parse


def _cards(text: str) -> bool:
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
    click.echo(fit(look.say("Tally of deal {number} ({dealer} dealt). For each side, type its pile's cards",
                            number=match.deal_number, dealer=match.dealer), width))
    click.echo(fit(look.say("or its counts, like: {example}", example=counts_example()), width))
    answers: dict[str, tuple[tuple[str, str], int]] = {}

    def ask(side: str) -> None:
        """Ask for ``side``'s answer; when correcting, its earlier answer is offered (Enter keeps
        it; counts typed replace only those counts)."""
        earlier = answers.get(side)
        before = None if earlier is None else earlier[0][1].partition(":" if earlier[0][0] == "counts" else "=")[2]
        given = _ask(read, look, look.say("{side}: pile or counts", side=side),
                     _pile_or_counts(side, before and before.strip()), default=before and before.strip(), width=width)
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
