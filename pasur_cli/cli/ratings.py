"""`pasur stats --ratings` and `stats --player NAME --chart`: the ratings of the stored matches'
players, as a table, JSON, CSV or one player's chart."""

from __future__ import annotations

from collections.abc import Sequence

import click

from pasur_cli.cli.app import look
from pasur_cli.cli.screen import echo_csv, terminal_size, terminal_width
from pasur_cli.engine.ratings import rate
from pasur_cli.engine.stats import Standing
from pasur_cli.text import render_ratings, shapes


def show_ratings(ctx: click.Context, standings: Sequence[Standing], player: str | None, as_json: bool,
                 as_csv: bool, chart: bool) -> None:
    """Rate ``standings`` (``engine.ratings.rate``) and print them: every player, or ``player``
    alone (with ``chart``: their rating over their matches). Raises IllegalPlayError when no
    finished match has ``player``."""
    ratings = rate(standings)
    if chart and player is not None:
        rating, steps = ratings.of_player(player)
        size = terminal_size()
        click.echo(render_ratings.rating_chart_text(look(ctx), rating, steps, min(size.columns, 400),
                                                    max(12, min(size.lines - 2, 30))))
        return
    if player is not None:
        ratings.of_player(player)  # refused when no finished match has them
    if as_json:
        click.echo(shapes.dumps({"matches": ratings.matches, "model": "openskill PlackettLuce",
                                 "players": [{"rank": number, **r.as_json()}
                                             for number, r in render_ratings.ranked(ratings, player)]}))
    elif as_csv:
        echo_csv(*render_ratings.ratings_csv_rows(ratings, player))
    else:
        from pasur_cli.cli.screen import page
        page(render_ratings.ratings_text(look(ctx), ratings, terminal_width(), player))
