"""`pasur score`: the score table of every deal and of the match."""

from __future__ import annotations

import click

from pasur_cli import render
from pasur_cli.cli import PasurCommand, current, json_option, look, look_options, open_store, store_options


@click.command(cls=PasurCommand)
@json_option
@store_options
@look_options
@click.pass_context
def score(ctx, as_json):
    """One score table per deal and the match table with running totals."""
    store = open_store(ctx)
    mid, match = current(ctx, store)
    click.echo(render.dumps(render.score_json(mid, match)) if as_json else render.score_text(look(ctx), match))
