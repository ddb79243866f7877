"""`pasur tally`: score a deal played without play-by-play entry."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import click

from pasur_cli.cli.app import (
    PasurCommand,
    Refused,
    complete_side,
    current,
    expect_option,
    json_option,
    look,
    look_options,
    open_store,
    store_options,
)
from pasur_cli.cli.questions import ask_tally
from pasur_cli.cli.screen import echo, terminal_width
from pasur_cli.cli.terminal import Terminal, at_terminal
from pasur_cli.engine.errors import NotationError
from pasur_cli.store import actions
from pasur_cli.store.errors import StaleError
from pasur_cli.text import render, shapes
from pasur_cli.text.i18n import _
from pasur_cli.text.tally_input import build_action

if TYPE_CHECKING:
    from pasur_cli.store.database import Expected

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
          partial: bool, expect: Expected | None, as_json: bool) -> None:
    """Score a deal played without play-by-play entry, from what each side captured.

    A side may be named by its name or any of its players. At a terminal with no options, asks
    side by side.
    """
    store = open_store(ctx, write=True)
    mid, match = current(ctx, store, change=True)
    given = list(piles), list(counts), list(surs)
    if not (piles or counts or surs):
        if not at_terminal():  # piped, or closed
            raise NotationError("give --pile or --count for every side (and --surs), or run at a terminal to be asked.")
        match.check_tally_allowed()  # before the terminal is taken and the first question is asked
        if expect is None:  # recorded only if the match has not moved while the questions were answered
            expect = store.expected(mid)
        try:
            with Terminal() as terminal:
                given = ask_tally(match, terminal, look(ctx), partial, width=terminal_width())
        except (KeyboardInterrupt, EOFError):  # Ctrl-C or Ctrl-D at a question: as the session says it
            click.echo()
            click.echo(_("Cancelled: nothing was recorded."), err=True)
            ctx.exit(1)
    try:
        result, match = actions.enter_tally(store, mid, build_action(match, *given, partial), expect=expect)
    except StaleError as err:
        if piles or counts or surs:
            raise
        raise Refused(render.stale_text(look(ctx), err)) from None  # said to the person who answered
    if as_json:
        data = shapes.score_json(mid, match)
        click.echo(shapes.dumps({"match": mid, "deal": data["deals"][result.number - 1], "totals": data["totals"],
                                 "finished": data["finished"], "winner": data["winner"]}))
    else:
        echo(render.score_text(look(ctx), match, only_last=True, width=terminal_width()))
