"""`pasur matches`: every match in the database."""

from __future__ import annotations

import os

import click

from pasur_cli import render
from pasur_cli.cli import PasurCommand, json_option, open_store, store_options
from pasur_cli.store import default_path


@click.command(cls=PasurCommand)
@json_option
@store_options
@click.pass_context
def matches(ctx, as_json):
    """Every match in the database: players, rules, deals played, totals, status."""
    rows = []
    if os.path.exists(ctx.meta.get("pasur.db") or default_path()):  # no database yet: no matches
        store = open_store(ctx)
        rows = render.matches_rows([(mid, store.match(mid)[1]) for mid in store.match_ids()])
    click.echo(render.dumps(rows) if as_json else render.matches_text(rows))
