"""`pasur import`: replay a match record and store it as a new match."""

from __future__ import annotations

import click

from pasur_cli import render
from pasur_cli.cli import PasurCommand, look, look_options, open_store, store_options
from pasur_cli.errors import NotationError
from pasur_cli.record import read_record


@click.command(name="import", cls=PasurCommand)
@click.argument("file", type=click.File("r", encoding="utf-8"))
@store_options
@look_options
@click.pass_context
def import_(ctx, file):
    """Replay a match record (from `pasur export`) through the rules and store it as a new match."""
    try:
        text = file.read()
    except UnicodeDecodeError:
        raise NotationError(f"{file.name} is not a text file; a match record is JSON.") from None
    players, rules, dealer, actions, times, match = read_record(text)
    store = open_store(ctx, create=True)
    mid = store.create(players, rules, dealer, actions, times, match)
    click.echo(f"Imported as match {mid}: {len(actions)} actions replayed.")
    click.echo(render.show_text(look(ctx), mid, match))
