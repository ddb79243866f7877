"""`pasur stats`: every player's record across the matches in the database."""

from __future__ import annotations

import os

import click

from pasur_cli.cli.app import (
    PasurCommand,
    complete_known_player,
    db_option,
    json_option,
    look,
    look_options,
    open_store,
)
from pasur_cli.cli.screen import echo_csv, terminal_width
from pasur_cli.store.paths import check_path, default_path
from pasur_cli.text.i18n import _


@click.command(cls=PasurCommand)
@click.option("--player", metavar="NAME", shell_complete=complete_known_player,
              help="Only this player (any case): their row, partnerships and"
              " head-to-head.")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (UTF-8, a header row): one row per player and"
              " partnership.")
@click.option("--ratings", is_flag=True, help="Every player's rating from every finished match (OpenSkill),"
              " with its uncertainty, best first.")
@click.option("--chart", is_flag=True, help="With --player: draw the player's rating over their matches.")
@db_option
@look_options
@click.pass_context
def stats(ctx: click.Context, player: str | None, as_json: bool, as_csv: bool, ratings: bool, chart: bool) -> None:
    """Every player across all matches: matches played and won, win rate, deals, points and surs
    per deal, how often they took the clubs, the 2♣ and the 10♦, their best deal, and the
    head-to-head wins. In a team match a player's figures are their side's; partnerships get
    their own rows. Unfinished matches are counted apart (their deals count). With --ratings:
    each player's rating instead."""
    if as_json + as_csv + chart > 1:
        raise click.UsageError(_("choose one of --json, --csv and --chart."))
    if chart and player is None:
        raise click.UsageError(_("--chart draws one player's rating: give --player NAME."))
    from pasur_cli.engine.stats import Standing, book_of
    from pasur_cli.text import render_stats, shapes
    found: list[Standing] = []
    damaged: list[int] = []
    given = ctx.meta.get("pasur.db")
    if os.path.exists(check_path(given if given is not None else default_path())):  # no database yet: no matches
        for mid, read in open_store(ctx).standings():
            if isinstance(read, Standing):
                found.append(read)
            else:
                damaged.append(mid)
    if ratings or chart:
        from pasur_cli.cli.ratings import show_ratings
        show_ratings(ctx, found, player, as_json, as_csv, chart)
        return
    book = book_of(found, damaged)
    if player is not None:
        book = book.of_player(player)
    if as_json:
        click.echo(shapes.dumps(book.as_json()))
    elif as_csv:
        echo_csv(*render_stats.stats_csv_rows(book))
    else:
        from pasur_cli.cli.screen import page
        page(render_stats.stats_text(look(ctx), book, terminal_width()))

