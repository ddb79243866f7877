"""`pasur play`: record a card played, with the capture it makes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pasur_cli.cli.app import (
    PasurCommand,
    Refused,
    current,
    expect_option,
    look,
    look_options,
    open_store,
    store_options,
    terminal_width,
)
from pasur_cli.engine.cards import DECK, parse_card, parse_cards, split_tokens
from pasur_cli.engine.errors import AmbiguousPlayError, NotationError, PasurError, Words
from pasur_cli.store import actions
from pasur_cli.store.database import Store
from pasur_cli.text import render

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


def complete_cards(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """For a played card: the cards still unseen in the current deal; for --take: the table's cards."""
    try:
        match = _current_match(ctx)
    except Exception:  # completion must never fail loudly; no match means nothing to offer
        return []
    deal = match.deal
    if deal is None:
        return []
    cards = deal.table if param.name == "take_text" else [c for c in DECK if c not in deal.where]
    return [c.code for c in cards if c.code.startswith(incomplete.upper())]


def complete_players(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    try:
        players = _current_match(ctx).players
    except Exception:  # as above
        return []
    from pasur_cli.engine.names import name_key
    return [p for p in players if name_key(p).startswith(name_key(incomplete))]


@click.command(cls=PasurCommand)
@click.argument("card", nargs=-1, required=True, metavar="CARD", shell_complete=complete_cards)
@click.option("--take", "take_text", default=None, metavar="CARDS", shell_complete=complete_cards,
              help='The table cards the play captures, e.g. "4D 3H" (not the played card); "" to trail.')
@click.option("--by", metavar="NAME", shell_complete=complete_players, help="Refuse unless it is NAME's turn.")
@expect_option
@store_options
@look_options
@click.pass_context
def play(ctx: click.Context, card: tuple[str, ...], take_text: str | None, by: str | None,
         expect: Expected | None) -> None:
    """Record CARD played by whoever's turn it is, with the capture it makes."""
    try:
        played = _one_card(card)
    except NotationError:  # say what was meant among the cards that can still be played
        deal = _deal_now(ctx)
        if deal is None:
            raise
        played = _one_card(card, deal.unseen_cards, deal.table)
    take = None if take_text is None else parse_cards(take_text, Words("--take list"))
    store = open_store(ctx, write=True)
    try:
        record, match = actions.enter_play(store, current(ctx, store)[0], played, take, by, expect)
    except AmbiguousPlayError as err:
        raise Refused(render.options_text(look(ctx), played, err.options, err.count)) from None
    click.echo(render.play_text(look(ctx), record, match, width=terminal_width()))


def _one_card(words: tuple[str, ...], candidates: Sequence[Card] | None = None,
              later: Sequence[Card] | None = None) -> Card:
    """The played card from the words typed after `pasur play`: one card; several words are
    refused saying what they probably mean (``1O D`` is 10♦, ``7C 4D`` wants --take), among the
    ``candidates`` (the cards that can be played) and ``later`` (the table's) when given."""
    tokens = split_tokens(list(words))
    if not tokens:
        return parse_card(" ".join(words))
    if len(tokens) == 1:
        try:
            return parse_card(tokens[0])
        except NotationError:
            pass
    from pasur_cli.engine.typos import problem, repair  # only for a mistyped card
    fixed = repair(tokens)
    if fixed is not None and len(fixed) > 1 and len(tokens) > 1:
        raise NotationError(
            "play takes one card; to name what it captures use --take: pasur play {card} --take \"{take}\"",
            card=fixed[0], take=" ".join(fixed[1:]))
    raise problem(tokens, candidates, later)
