"""`pasur export`: write a match as a self-describing JSON record."""

from __future__ import annotations

import click

from pasur_cli.cli.app import PasurCommand, current, look, open_store, store_options
from pasur_cli.cli.files import write_atomically
from pasur_cli.cli.screen import echo
from pasur_cli.engine.record import dump_record


@click.command(cls=PasurCommand)
@click.option("-o", "--output", default="-", metavar="FILE",
              help="Where to write the record (default or -: standard output).")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@store_options
@click.pass_context
def export(ctx: click.Context, output: str, force: bool) -> None:
    """Write the match as a self-describing JSON record (players, rules, every action with its time).

    A file is written whole or not at all, and an existing one is replaced only with --force.
    """
    store = open_store(ctx)
    mid = current(ctx, store)[0]
    record = store.load(mid, full=True)
    text = dump_record(record)
    if output == "-":
        click.echo(text, nl=False)
    else:
        write_atomically(output, text, force)
        echo(look(ctx).say("Wrote match {match} to {file}.", match=mid, file=output))
