"""`pasur review`: what each play of a finished deal cost, given what its player knew then."""

from __future__ import annotations

import click

from pasur_cli.cli.app import (
    Count,
    PasurCommand,
    json_option,
    look,
    look_options,
    open_store,
    store_options,
)


@click.command(cls=PasurCommand)
@click.option("--deal", "deal_number", type=Count(1), metavar="N",
              help="Review deal N (default: the last finished deal; with --match alone, every finished deal).")
@json_option
@store_options
@look_options
@click.pass_context
def review(ctx: click.Context, deal_number: int | None, as_json: bool) -> None:
    """Review a finished deal: every play in order and, where the player had a choice, the
    expected points it cost against the best option given only what that player knew then (own
    hand, the table, every card seen), labelled inaccuracy (1 point or more), mistake (2) or
    blunder (4); then per player the choices made, the points lost and the two worst plays."""
    from pasur_cli.cli.advice import reviewed
    from pasur_cli.engine.match import Match
    from pasur_cli.text.review import review_json, review_text
    from pasur_cli.text.shapes import dumps
    store = open_store(ctx)
    named = ctx.meta.get("pasur.match_id")
    mid = named if named is not None else store.current()[0]

    def numbers(match: Match) -> list[int]:
        if deal_number is not None:
            return [deal_number]
        if named is not None:  # with --match alone, every finished deal
            return [r.number for r in match.results if not r.tallied] or [match.results[-1].number]
        return [match.results[-1].number]

    reviews = reviewed(store, mid, numbers)
    if as_json:
        click.echo(dumps(review_json(mid, reviews, look(ctx))))
    else:  # a deal's review is some fifty lines: through the pager at a terminal, as log is; fitted to
        # the terminal's width, or to 80 columns piped or redirected (as log is)
        from pasur_cli.cli.screen import echo_long, fit, terminal_width
        echo_long(fit(review_text(look(ctx), reviews), terminal_width()))
