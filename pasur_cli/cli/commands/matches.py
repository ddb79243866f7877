"""`pasur matches`: every match in the database; one that cannot be replayed is listed as damaged."""

from __future__ import annotations

import os

import click

from pasur_cli.cli.app import PasurCommand, complete_known_player, db_option, json_option, open_store
from pasur_cli.cli.listing import filtered, listing
from pasur_cli.cli.screen import terminal_width
from pasur_cli.store.paths import check_path, default_path
from pasur_cli.text import render, shapes


@click.command(cls=PasurCommand)
@click.option("--player", metavar="NAME", shell_complete=complete_known_player,
              help="Only matches with this player (any case).")
@click.option("--unfinished", is_flag=True, help="Only matches that are not finished.")
@json_option
@db_option
@click.pass_context
def matches(ctx: click.Context, player: str | None, unfinished: bool, as_json: bool) -> None:
    """Every match in the database: date, players, rules, deals played, totals, status (or why it is
    damaged)."""
    rows: list[dict[str, object]] = []
    given = ctx.meta.get("pasur.db")
    if os.path.exists(check_path(given if given is not None else default_path())):  # no database yet: no matches
        every = listing(open_store(ctx))
        rows = every if not (player or unfinished) else filtered(every, player, unfinished)
    if as_json:
        click.echo(shapes.matches_json(rows))
    else:  # laid out as the whole list is: --unfinished and --player keep its columns
        click.echo(render.matches_text(rows, filtered=bool(player or unfinished), width=terminal_width(),
                                       every=every if rows else None))
