"""`pasur review`: what each play of a finished deal cost, given what its player knew then."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

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
from pasur_cli.text.i18n import _

if TYPE_CHECKING:
    from pasur_cli.store.database import Store


@click.command(cls=PasurCommand)
@click.option("--deal", "deal_number", type=Count(1), metavar="N",
              help="Review deal N (default: the last finished deal; with --match alone, every finished deal).")
@click.option("--all", "every", is_flag=True,
              help="Review and keep every finished deal not reviewed yet (of every match, or of --match);"
              " Ctrl-C stops and keeps the deals done.")
@json_option
@store_options
@look_options
@click.pass_context
def review(ctx: click.Context, deal_number: int | None, every: bool, as_json: bool) -> None:
    """Review a finished deal: every play in order and, where the player had a choice, the
    expected points it cost against the best option given only what that player knew then (own
    hand, the table, every card seen), labelled inaccuracy (1 point or more), mistake (2) or
    blunder (4); then per player the choices made, the points lost and the two worst plays. With
    --match alone, every finished deal, then each player's accuracy: expected points lost per
    decision with a choice. Reviews are kept in the database, so a deal is reviewed once."""
    if every:
        if deal_number is not None:
            raise click.UsageError(_("--all and --deal cannot be used together."))
        from pasur_cli.cli.reviewing import review_every
        review_every(ctx, as_json)
        return
    from pasur_cli.cli.advice import reviewed
    from pasur_cli.engine.accuracy import accuracy
    from pasur_cli.engine.match import Match
    from pasur_cli.text.review import accuracy_text, damaged_line, review_json, review_text
    from pasur_cli.text.shapes import dumps
    store = open_store(ctx)
    named = ctx.meta.get("pasur.match_id")
    mid = named if named is not None else store.current()[0]
    whole = named is not None and deal_number is None

    def numbers(match: Match) -> list[int]:
        if deal_number is not None:
            return [deal_number]
        if whole:  # with --match alone, every finished deal
            return [r.number for r in match.results if not r.tallied] or [match.results[-1].number]
        return [match.results[-1].number]

    reviews, damaged = reviewed(store, mid, numbers, writer(ctx))
    for number in damaged:
        click.echo(damaged_line(look(ctx), mid, number), err=True)
    if as_json:
        document = review_json(mid, reviews)
        document["accuracy"] = [a.as_json() for a in accuracy(reviews)]
        click.echo(dumps(document))
        return
    text = review_text(look(ctx), reviews)
    if whole:
        text += "\n\n" + accuracy_text(look(ctx), accuracy(reviews))
    from pasur_cli.cli.screen import echo_long  # some fifty lines a deal: through the pager at a terminal, as log
    echo_long(text)


def writer(ctx: click.Context) -> Callable[[], Store | None]:
    """The store that keeps new reviews, opened for writing when the first is made (once): None
    when the file may only be read (the reviews are shown, not kept)."""
    from pasur_cli.store.errors import StoreError
    opened: list[Store | None] = []

    def open_once() -> Store | None:
        if not opened:
            try:
                opened.append(open_store(ctx, write=True))
            except StoreError:
                opened.append(None)
        return opened[0]
    return open_once
