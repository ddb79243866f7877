"""`pasur show`: the deal in progress."""

from __future__ import annotations

import click

from pasur_cli.cli.app import (
    PasurCommand,
    current,
    json_option,
    look,
    look_options,
    open_store,
    say_which,
    store_options,
)
from pasur_cli.cli.screen import echo, terminal_width
from pasur_cli.store.tables import table_name
from pasur_cli.text import render, shapes


@click.command(cls=PasurCommand)
@json_option
@store_options
@look_options
@click.pass_context
def show(ctx: click.Context, as_json: bool) -> None:
    """The deal in progress: table, whose turn, piles, surs, last capture, unseen cards."""
    store = open_store(ctx)
    mid, match = current(ctx, store)
    if as_json:
        data = shapes.show_json(mid, match)
        data["length"] = store.length(mid)  # how many actions the log holds
        data["revision"] = store.expected(mid).token  # the match and its revision: what --expect takes
        data["table_name"] = table_name(store, mid)  # "table" is the cards on it
        click.echo(shapes.dumps(data))
    else:
        say_which(ctx, store, mid)  # JSON names its match itself
        echo(render.show_text(look(ctx), mid, match, width=terminal_width(), table=table_name(store, mid)))
