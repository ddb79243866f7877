"""`pasur undo`: take back the last recorded actions."""

from __future__ import annotations

import click

from pasur_cli import render
from pasur_cli.cli import PasurCommand, current, json_option, look, look_options, open_store, store_options
from pasur_cli.errors import IllegalPlayError


@click.command(cls=PasurCommand)
@click.argument("count", type=click.IntRange(min=1), default=1)
@json_option
@store_options
@look_options
@click.pass_context
def undo(ctx, count, as_json):
    """Take back the last COUNT recorded actions (default 1)."""
    store = open_store(ctx, write=True)
    mid = current(ctx, store)[0]
    with store.changing(mid) as change:
        have = change.count
        if count > have:
            raise IllegalPlayError(f"match {mid} has {have} recorded action{'s' * (have != 1)}; cannot undo {count}.")
        dropped = change.drop(count)
    if as_json:
        click.echo(render.dumps({"match": mid, "undone": dropped}))
    else:
        for action in reversed(dropped):
            click.echo(f"Took back {render.describe_action(look(ctx), action)}.")
