"""`pasur play`: record a card played, with the capture it makes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from pasur_cli.cli.app import (
    PasurCommand,
    Refused,
    complete_cards,
    complete_player,
    current,
    expect_option,
    look,
    look_options,
    open_store,
    store_options,
)
from pasur_cli.cli.screen import fit, terminal_width
from pasur_cli.engine.cards import parse_card, parse_cards, split_tokens
from pasur_cli.engine.errors import AmbiguousPlayError, NotationError, PasurError, Words
from pasur_cli.store import actions
from pasur_cli.store.database import Store
from pasur_cli.store.errors import StaleError
from pasur_cli.text import render
from pasur_cli.text.i18n import _

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.deal import Deal
    from pasur_cli.engine.match import Match
    from pasur_cli.store.database import Expected


def _current_match(ctx: click.Context) -> Match:
    store = Store(ctx.meta.get("pasur.db"))
    try:
        return current(ctx, store)[1]
    finally:
        store.close()


def _deal_now(ctx: click.Context) -> Deal | None:
    """The deal being played, or None (no deal, no match, no database)."""
    try:
        return _current_match(ctx).deal
    except PasurError:
        return None


@click.command(cls=PasurCommand)
@click.argument("card", nargs=-1, required=True, metavar="CARD", shell_complete=complete_cards)
@click.option("--take", "take_text", default=None, metavar="CARDS", shell_complete=complete_cards,
              help='The table cards the play captures, e.g. "4D 3H" (not the played card); "" to trail.')
@click.option("--by", metavar="NAME", shell_complete=complete_player, help="Refuse unless it is NAME's turn.")
@click.option("--no-input", is_flag=True, help="Never ask which capture: refuse, listing the --take options"
              " (as when not at a terminal).")
@expect_option
@store_options
@look_options
@click.pass_context
def play(ctx: click.Context, card: tuple[str, ...], take_text: str | None, by: str | None, no_input: bool,
         expect: Expected | None) -> None:
    """Record CARD played by whoever's turn it is, with the capture it makes: `pasur play 7C 4D`
    (or `--take 4D`) names the cards it takes. At a terminal, when it can capture in several ways,
    asks which one (Ctrl-C cancels, recording nothing)."""
    try:
        played, named = _typed_cards(card)
    except NotationError:  # say what was meant among the cards that can still be played
        deal = _deal_now(ctx)
        if deal is None:
            raise
        played, named = _typed_cards(card, deal.unseen_cards, deal.table)
    take = None if take_text is None else parse_cards(take_text, Words("--take list"))
    if named:  # `7H 2C 2D` is the session's "7h 2c 2d"; `7H --take 2C 2D` takes both
        take = [*(take or []), *(c for c in named if c not in (take or []))]
    store = open_store(ctx, write=True)
    mid, match = current(ctx, store, change=True)
    asked = take is None and not no_input and _at_terminal()
    if asked:
        if expect is None:  # what the question was drawn from: a play recorded meanwhile refuses this one
            expect = store.expected(mid)
        take = _ask(ctx, match, played, by)
    try:
        record, match = actions.enter_play(store, mid, played, take, by, expect)
    except AmbiguousPlayError as err:
        raise Refused(render.options_text(look(ctx), played, err.options, err.count)) from None
    except StaleError as err:
        if not asked:
            raise
        raise Refused(render.stale_text(look(ctx), err)) from None  # someone played while the question was open
    click.echo(fit(render.play_text(look(ctx), record, match, width=terminal_width()), _width()))


def _typed_cards(words: tuple[str, ...], candidates: Sequence[Card] | None = None,
           later: Sequence[Card] | None = None) -> tuple[Card, list[Card]]:
    """The played card and the cards it takes from the words typed after `pasur play`; a word
    that is not a card is refused saying what it probably is (``1O D`` is 10♦), among the
    ``candidates`` (the cards that can be played) and ``later`` (the table's) when given."""
    tokens = split_tokens(list(words))
    if not tokens:
        return parse_card(" ".join(words)), []
    try:
        played, *take = parse_cards(tokens)
    except NotationError:
        from pasur_cli.engine.typos import read_cards  # only for a mistyped card: says what it probably is
        played, *take = read_cards(tokens, candidates, later)
    return played, take


class Said(click.ClickException):
    """Exit 1 with a sentence that is not an error (a question cancelled)."""

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


def _at_terminal() -> bool:
    import sys

    from pasur_cli.cli.screen import is_terminal
    return is_terminal(sys.stdin) and is_terminal(sys.stdout)


def _width() -> int | None:
    """The width prose is broken at: the terminal's, when output goes to one."""
    return terminal_width() if _at_terminal() else None


def _ask(ctx: click.Context, match: Match, played: Card, by: str | None) -> list[Card] | None:
    """The capture chosen at the terminal (None: the engine's own answer). The question is the
    session's (pasur_cli.cli.questions); Ctrl-C or Ctrl-D there cancels, recording nothing."""
    from pasur_cli.cli.questions import ask_capture
    from pasur_cli.cli.terminal import lines
    deal = match.deal
    if deal is None or deal.capture_choice(played, by and match.player_named(by)) is None:
        return None  # no question: the engine decides, or refuses as it would without one
    width = _width()

    def show(text: str) -> None:
        click.echo(fit(text, width))

    def refuse(err: Exception) -> None:
        show(_("Error: {message}").format(message=render.error_text(look(ctx), err)))
    try:
        with lines() as (read, _terminal):
            try:
                take = ask_capture(played, deal, read, look(ctx), show, refuse)
            except (KeyboardInterrupt, EOFError):
                show("")  # the question's line ends first
                raise Said(_("Cancelled: nothing was recorded.")) from None
    except KeyboardInterrupt:  # a Ctrl-C as the terminal was being given back
        raise Said(_("Cancelled: nothing was recorded.")) from None
    return take
