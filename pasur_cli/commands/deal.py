"""`pasur deal`: enter the face-up table of the next deal."""

from __future__ import annotations

import click

from pasur_cli import render
from pasur_cli.cards import parse_cards
from pasur_cli.cli import PasurCommand, current, expect_option, look, look_options, open_store, store_options
from pasur_cli.errors import NotationError


@click.command(cls=PasurCommand)
@click.argument("cards", nargs=-1, required=True)
@expect_option
@store_options
@look_options
@click.pass_context
def deal(ctx, cards, expect):
    """Enter the face-up table of the next deal: four CARDS (checked for misdeals)."""
    table_cards = parse_cards(cards, "table")
    if len(table_cards) != 4:
        raise NotationError(f"the initial table is 4 cards; {len(table_cards)} were given.")
    store = open_store(ctx, write=True)
    with store.changing(current(ctx, store)[0], expect) as change:
        change.match.start_deal(table_cards)
        change.append({"type": "deal", "table": [c.code for c in table_cards]})
    click.echo(render.deal_text(look(ctx), change.match))
