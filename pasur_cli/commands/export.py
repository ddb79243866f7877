"""`pasur export`: write a match as a self-describing JSON record."""

from __future__ import annotations

import click

from pasur_cli import render
from pasur_cli.cli import PasurCommand, current, open_store, store_options
from pasur_cli.record import write_record


@click.command(cls=PasurCommand)
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-", metavar="FILE",
              help="Where to write the record (default or -: standard output).")
@store_options
@click.pass_context
def export(ctx, output):
    """Write the match as a self-describing JSON record (players, rules, every action with its time)."""
    store = open_store(ctx)
    record = store.load(current(ctx, store)[0], full=True)
    output.write(render.dumps(write_record(record)) + "\n")
