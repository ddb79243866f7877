"""`pasur undo`: take back the last recorded actions."""

from __future__ import annotations

import click

from pasur_cli import actions, render
from pasur_cli.cli import PasurCommand, current, json_option, look, look_options, open_store, store_options


@click.command(cls=PasurCommand)
@click.argument("count", type=click.IntRange(min=1), default=1)
@json_option
@store_options
@look_options
@click.pass_context
def undo(ctx, count, as_json):
    """Take back the last COUNT recorded actions (default 1), then show the position it returns to."""
    store = open_store(ctx, write=True)
    mid = current(ctx, store)[0]
    dropped, match = actions.take_back(store, mid, count)
    if as_json:
        click.echo(render.dumps({"match": mid, "undone": dropped}))
    else:
        for action in reversed(dropped):
            click.echo(f"Took back {render.describe_action(look(ctx), action)}.")
        click.echo(render.position_text(look(ctx), match))
