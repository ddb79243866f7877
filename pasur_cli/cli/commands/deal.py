"""`pasur deal`: enter the face-up table of the next deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pasur_cli.cli.app import PasurCommand, current, expect_option, look, look_options, open_store, store_options
from pasur_cli.cli.screen import echo
from pasur_cli.engine.typos import read_cards
from pasur_cli.store import actions
from pasur_cli.text import render

if TYPE_CHECKING:
    from pasur_cli.store.database import Expected


@click.command(cls=PasurCommand)
@click.argument("cards", nargs=-1, required=True)
@expect_option
@store_options
@look_options
@click.pass_context
def deal(ctx: click.Context, cards: tuple[str, ...], expect: Expected | None) -> None:
    """Enter the face-up table of the next deal: four CARDS (checked for misdeals)."""
    table_cards = read_cards(cards)
    store = open_store(ctx, write=True)
    match = actions.enter_table(store, current(ctx, store, change=True)[0], table_cards, expect)
    echo(render.deal_text(look(ctx), match))
