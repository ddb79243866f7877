"""`pasur undo`: take back the last recorded actions."""

from __future__ import annotations

import click

from pasur_cli import render
from pasur_cli.cli import (
    BIGGEST,
    PasurCommand,
    current,
    expect_option,
    json_option,
    look,
    look_options,
    open_store,
    store_options,
)
from pasur_cli.errors import IllegalPlayError
from pasur_cli.i18n import _, ngettext


@click.command(cls=PasurCommand)
@click.argument("count", type=click.IntRange(1, BIGGEST), default=1)
@expect_option
@json_option
@store_options
@look_options
@click.pass_context
def undo(ctx: click.Context, count: int, expect: int | None, as_json: bool) -> None:
    """Take back the last COUNT recorded actions (default 1)."""
    store = open_store(ctx, write=True)
    mid = current(ctx, store)[0]
    with store.changing(mid, expect) as change:
        have = change.count
        if count > have:
            raise IllegalPlayError(ngettext("match {match} has {have} recorded action; cannot undo {count}.",
                                            "match {match} has {have} recorded actions; cannot undo {count}.", have),
                                   match=mid, have=have, count=count)
        dropped = change.drop(count)
        # the words are made before the commit: a failure here takes nothing back
        lines = [_("Took back {action}.").format(action=render.describe_action(look(ctx), action))
                 for action in reversed(dropped)]
    if as_json:
        click.echo(render.dumps({"match": mid, "undone": dropped}))
    else:
        for line in lines:
            click.echo(line)
