"""`pasur stats`: every player's record across the matches in the database."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from pasur_cli.engine.stats import Accuracy


@click.command(cls=PasurCommand)
@click.option("--player", metavar="NAME", shell_complete=complete_known_player,
              help="Only this player (any case): their row, partnerships and"
              " head-to-head.")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (UTF-8, a header row): one row per player and"
              " partnership.")
@click.option("--ratings", is_flag=True, help="Every player's rating from every finished match (OpenSkill),"
              " with its uncertainty, best first.")
@click.option("--chart", is_flag=True, help="With --player: draw their accuracy (expected points lost per"
              " decision) in each reviewed match, in the order played; with --ratings too, their rating over"
              " their matches.")
@db_option
@look_options
@click.pass_context
def stats(ctx: click.Context, player: str | None, as_json: bool, as_csv: bool, ratings: bool, chart: bool) -> None:
    """Every player across all matches: matches played and won, win rate, deals, points and surs
    per deal, how often they took the clubs, the 2♣ and the 10♦, their best deal, and the
    head-to-head wins; and each player's accuracy over the reviewed deals (pasur review):
    expected points lost per decision with a choice. In a team match a player's figures are
    their side's; partnerships get their own rows. Unfinished matches are counted apart (their
    deals count). With --ratings: each player's rating instead."""
    if as_json + as_csv + chart > 1:
        raise click.UsageError(_("choose one of --json, --csv and --chart."))
    if chart and player is None:
        raise click.UsageError(_("--chart draws one player's rating: give --player NAME.") if ratings else
                               _("--chart draws one player's accuracy: give --player NAME, without --json or --csv."))
    from pasur_cli.engine.stats import Standing, book_of
    from pasur_cli.text import render_stats, shapes
    found: list[Standing] = []
    damaged: list[int] = []
    kept: dict[int, tuple[Accuracy, ...]] = {}
    given = ctx.meta.get("pasur.db")
    if os.path.exists(check_path(given if given is not None else default_path())):  # no database yet: no matches
        store = open_store(ctx)
        for mid, read in store.standings():
            if isinstance(read, Standing):
                found.append(read)
            else:
                damaged.append(mid)
        from pasur_cli.store.reviews import every_accuracy
        kept = {mid: figures for mid, figures in every_accuracy(store).items() if mid not in damaged}
    if ratings:
        from pasur_cli.cli.ratings import show_ratings
        show_ratings(ctx, found, player, as_json, as_csv, chart)
        return
    from pasur_cli.engine.stats import combined
    book = book_of(found, damaged).with_accuracy(combined(a for figures in kept.values() for a in figures))
    if player is not None:
        book = book.of_player(player)
    if chart:
        assert player is not None  # refused above
        from pasur_cli.cli.screen import terminal_size
        size = terminal_size()
        click.echo(render_stats.accuracy_chart(look(ctx), book.players[0].name, per_match(kept, player),
                                               min(size.columns, 400), max(12, min(size.lines - 2, 30))))
    elif as_json:
        click.echo(shapes.dumps(book.as_json()))
    elif as_csv:
        echo_csv(*render_stats.stats_csv_rows(book))
    else:
        from pasur_cli.cli.screen import page
        page(render_stats.stats_text(look(ctx), book, terminal_width()))



def per_match(kept: dict[int, tuple[Accuracy, ...]], player: str) -> list[tuple[int, float]]:
    """(match id, the player's expected points lost per decision there) for each match with a
    reviewed deal in which they decided, in match order."""
    from pasur_cli.engine.names import name_key
    return [(mid, a.per_decision) for mid in sorted(kept) for a in kept[mid]
            if name_key(a.player) == name_key(player) and a.per_decision is not None]
