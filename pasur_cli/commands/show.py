"""`pasur show`: the deal in progress."""

from __future__ import annotations

import click

from pasur_cli import render
from pasur_cli.cli import PasurCommand, current, json_option, look, look_options, open_store, store_options


@click.command(cls=PasurCommand)
@json_option
@store_options
@look_options
@click.pass_context
def show(ctx, as_json):
    """The deal in progress: table, whose turn, piles, surs, last capture, unseen cards."""
    store = open_store(ctx)
    mid, match = current(ctx, store)
    click.echo(render.dumps(render.show_json(mid, match)) if as_json else render.show_text(look(ctx), mid, match))
