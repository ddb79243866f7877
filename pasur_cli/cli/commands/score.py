"""`pasur score`: the score table of every deal and of the match."""

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
from pasur_cli.cli.screen import echo, echo_csv, fit, terminal_width
from pasur_cli.text import render, shapes
from pasur_cli.text.i18n import _


@click.command(cls=PasurCommand)
@json_option
@click.option("--csv", "as_csv", is_flag=True,
              help="Print CSV (UTF-8, a header row): one row per deal and side, every score column and the"
              " running total.")
@click.option("--chart", is_flag=True, help="Draw the running totals after each deal as a chart, sized to the"
              " terminal, with the target as a line.")
@click.option("--all", "whole", is_flag=True, help="Every deal's table even when they do not fit the terminal"
              " (through the pager there).")
@store_options
@look_options
@click.pass_context
def score(ctx: click.Context, as_json: bool, as_csv: bool, chart: bool, whole: bool) -> None:
    """One score table per deal and the match table with running totals. At a terminal too short
    for every deal's table: the last deal's and the match's (--all for all of them)."""
    if as_json + as_csv + chart > 1:
        raise click.UsageError(_("choose one of --json, --csv and --chart."))
    store = open_store(ctx)
    mid, match = current(ctx, store)
    if not (as_json or as_csv):  # JSON and CSV name their match themselves
        say_which(ctx, store, mid)
    if as_json:
        click.echo(shapes.dumps(shapes.score_json(mid, match)))
    elif as_csv:
        from pasur_cli.text.render_stats import score_csv_rows
        echo_csv(*score_csv_rows(shapes.score_json(mid, match), match.running_totals()))
    elif chart:
        from pasur_cli.cli.screen import terminal_size
        from pasur_cli.text.render_stats import chart_text
        size = terminal_size()
        height = max(12, min(size.lines - 2, 30))
        click.echo(chart_text(look(ctx), mid, match, min(size.columns, 400), height))  # bounded: COLUMNS may be huge
    else:
        import sys

        from pasur_cli.cli.screen import is_terminal, page, rows
        text = render.score_text(look(ctx), match, width=terminal_width())
        if not is_terminal(sys.stdout) or text.count("\n") + 2 <= rows():
            echo(text)
        elif whole:
            page(fit(text, terminal_width()))
        else:
            echo(render.score_text(look(ctx), match, width=terminal_width(), brief="pasur score --all"))
