"""`pasur delete`: remove a match (a finished one, a mistake, or one that is damaged)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pasur_cli.cli.app import PasurCommand, expect_option, look, open_store, store_options
from pasur_cli.cli.questions import confirm
from pasur_cli.cli.screen import echo
from pasur_cli.engine.errors import NotationError, Words
from pasur_cli.store.errors import DamagedError, StoreError

if TYPE_CHECKING:
    from pasur_cli.store.database import Expected


def at_terminal() -> bool:
    """Whether a person can be asked (pasur_cli.cli.terminal says; loaded only when asked)."""
    from pasur_cli.cli import terminal
    return terminal.at_terminal()


@click.command(cls=PasurCommand)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (for scripts).")
@expect_option
@store_options
@click.pass_context
def delete(ctx: click.Context, yes: bool, expect: Expected | None) -> None:
    """Remove the match given by --match, with its whole log, for good.

    Asks for confirmation at a terminal; a script gives --yes. Works on a damaged match too.
    """
    mid = ctx.meta.get("pasur.match_id")
    if mid is None:
        raise NotationError("name the match to delete with --match ID (`pasur matches` lists them).")
    store = open_store(ctx, write=True)
    players, count = store.summary(mid)
    if not players:
        raise StoreError("there is no match {match}; `pasur matches` lists them.", match=mid)
    if not yes:
        if not at_terminal():
            raise NotationError("deleting match {match} needs --yes when not at a terminal; nothing was changed.",
                                match=mid)
        state: object = ""
        try:
            store.match(mid)
        except DamagedError as err:
            state = Words(" (damaged: {reason})", reason=err.reason)
        question = look(ctx).say_count("Delete match {match} ({players}, {count} action){state} for good?",
                                       "Delete match {match} ({players}, {count} actions){state} for good?", count,
                                       match=mid, players=", ".join(players), count=count, state=state)
        if expect is None:  # what the question showed: a match that moves while it is asked is not deleted
            expect = store.stored_revision(mid)
        if not confirm(question):
            raise StoreError("match {match} was not deleted; nothing was changed.", match=mid)
    store.delete(mid, expect)
    echo(look(ctx).say("Deleted match {match} ({players}).", match=mid, players=", ".join(players)))
