"""`pasur matches`: every match in the database."""

from __future__ import annotations

import os

import click

from pasur_cli import render
from pasur_cli.cli import PasurCommand, db_option, json_option, open_store
from pasur_cli.store import default_path


@click.command(cls=PasurCommand)
@click.option("--player", metavar="NAME", help="Only matches with this player (any case).")
@click.option("--unfinished", is_flag=True, help="Only matches that are not finished.")
@json_option
@db_option
@click.pass_context
def matches(ctx: click.Context, player: str | None, unfinished: bool, as_json: bool) -> None:
    """Every match in the database: date, players, rules, deals played, totals, status."""
    rows: list[dict[str, object]] = []
    if os.path.exists(ctx.meta.get("pasur.db") or default_path()):  # no database yet: no matches
        store = open_store(ctx)
        found = store.every_match()
        if player is not None:
            name = player.strip().casefold()
            found = [(r, m) for r, m in found if any(p.casefold() == name for p in m.players)]
        if unfinished:
            found = [(r, m) for r, m in found if not m.finished]
        rows = render.matches_rows([(r.id, r.created, m) for r, m in found])
    click.echo(render.dumps(rows) if as_json else render.matches_text(rows, filtered=bool(player or unfinished)))
