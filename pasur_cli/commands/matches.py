"""`pasur matches`: every match in the database; one that cannot be replayed is listed as damaged."""

from __future__ import annotations

import os

import click

from pasur_cli import render
from pasur_cli.cli import PasurCommand, json_option, open_store, store_options
from pasur_cli.store import DamagedError, check_path, default_path


@click.command(cls=PasurCommand)
@json_option
@store_options
@click.pass_context
def matches(ctx, as_json):
    """Every match in the database: players, rules, deals played, totals, status (or why it is damaged)."""
    rows = []
    given = ctx.meta.get("pasur.db")
    if os.path.exists(check_path(given if given is not None else default_path())):  # no database yet: no matches
        store = open_store(ctx)
        for mid in store.match_ids():
            try:
                rows += render.matches_rows([(mid, store.match(mid)[1])])
            except DamagedError as err:
                rows.append(render.damaged_row(mid, store.summary(mid)[0], err.reason))
    click.echo(render.dumps(rows) if as_json else render.matches_text(rows))
