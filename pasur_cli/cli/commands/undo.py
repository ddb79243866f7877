"""`pasur undo`: take back the last recorded actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pasur_cli.cli.app import (
    Count,
    PasurCommand,
    current,
    expect_option,
    json_option,
    look,
    look_options,
    open_store,
    store_options,
)
from pasur_cli.cli.screen import echo
from pasur_cli.store import actions
from pasur_cli.text import render, shapes
from pasur_cli.text.i18n import _

if TYPE_CHECKING:
    from pasur_cli.store.database import Expected


@click.command(cls=PasurCommand)
@click.argument("count", type=Count(1), default=1)
@expect_option
@json_option
@store_options
@look_options
@click.pass_context
def undo(ctx: click.Context, count: int, expect: Expected | None, as_json: bool) -> None:
    """Take back the last COUNT recorded actions (default 1), then show the position it returns to."""
    store = open_store(ctx, write=True)
    mid = current(ctx, store, change=True)[0]
    dropped, words, match = actions.take_back(
        store, mid, count, expect,
        describe=lambda action: _("Took back {action}.").format(action=render.describe_action(look(ctx), action)),
        reopened=lambda winner: render.reopened_text(mid, winner))
    if as_json:
        click.echo(shapes.dumps({"match": mid, "undone": [action.as_dict() for action in dropped]}))
    else:
        for line in words:
            echo(line)
        echo(render.position_text(look(ctx), match))
