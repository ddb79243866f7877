"""`pasur review`: what each play of a finished deal cost, given what its player knew then."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

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
from pasur_cli.cli.screen import is_terminal
from pasur_cli.engine.errors import IllegalPlayError
from pasur_cli.store.errors import DamagedError
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
    decision with a choice. Reviews are kept in the database, so a deal is reviewed once.

    Each marked play gets its reason: the loss split into the deal's scoring parts (surs, clubs, 2♣,
    10♦, aces, jacks, the table left), which add up to it, and a sentence naming the cards behind the
    largest part, counted in the same guessed deals that weighed the play. Values are the expected
    margin of the deal's points: a swing between the sides, not points lost from one's own score."""
    if every:
        if deal_number is not None:
            raise click.UsageError(_("--all and --deal cannot be used together."))
        review_every(ctx, as_json)
        return
    from pasur_cli.cli.advice import reviewed
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.stats import accuracy
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
        document = review_json(mid, reviews, look(ctx))
        document["accuracy"] = [a.as_json() for a in accuracy(reviews)]
        click.echo(dumps(document))
        return
    text = review_text(look(ctx), reviews)
    if whole:
        text += "\n\n" + accuracy_text(look(ctx), accuracy(reviews))
    # some fifty lines a deal: through the pager at a terminal, as log is; fitted to the terminal's
    # width, or to 80 columns piped or redirected (as log is)
    from pasur_cli.cli.screen import echo_long, fit, terminal_width
    echo_long(fit(text, terminal_width()))


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


# -- review --all: every finished deal not reviewed yet, reviewed and kept, each deal in a transaction of its
# own, so that Ctrl-C keeps the deals done
class Tally:
    """What `review --all` did: deals reviewed and kept now, deals kept already, kept reviews
    refused as damaged (match, deal), matches left out as damaged."""

    def __init__(self) -> None:
        self.done = 0
        self.already = 0
        self.damaged: list[tuple[int, int]] = []
        self.left_out: list[int] = []

    def as_json(self) -> dict[str, Any]:
        return {"reviewed": self.done, "kept_already": self.already,
                "damaged": [{"match": m, "deal": d} for m, d in self.damaged], "left_out": self.left_out}


def waiting(store: Store, ids: list[int], tally: Tally) -> list[tuple[int, list[int]]]:
    """Each match's finished deals (not tallied) without a trusted kept review, counting in
    ``tally`` the deals kept already, the damaged rows and the damaged matches."""
    from pasur_cli.store.reviews import kept
    todo = []
    for mid in ids:
        try:
            record = store.load(mid, full=True)
            match = record.replay()
        except DamagedError:
            tally.left_out.append(mid)
            continue
        found = kept(store, mid, record.texts, match.completed_at)
        tally.damaged.extend((mid, n) for n in found.damaged)
        numbers = [r.number for r in match.results if not r.tallied and r.number not in found.reviews]
        tally.already += sum(1 for r in match.results if not r.tallied) - len(numbers)
        if numbers:
            todo.append((mid, numbers))
    return todo


def reviewing(store: Store, todo: list[tuple[int, list[int]]], tally: Tally) -> Iterator[None]:
    """Review and keep each deal of ``todo``, counting it in ``tally``; yields after each one. On
    KeyboardInterrupt the deal in hand counts when its row was committed, then it goes on."""
    from pasur_cli.engine.advice import review
    from pasur_cli.store.reviews import is_kept, keep, review_row
    for mid, numbers in todo:
        try:
            record = store.load(mid, full=True)
            match = record.replay()
        except DamagedError:  # damaged since it was counted
            tally.left_out.append(mid)
            yield from (None for _ in numbers)
            continue
        for number in numbers:
            row = None
            try:
                row = review_row(mid, review(match, number), record.texts, match.completed_at)
                keep(store, row)
                tally.done += 1
            except IllegalPlayError:  # the log changed since it was counted: no longer a finished deal
                pass
            except KeyboardInterrupt:
                if row is not None and is_kept(store, row):
                    tally.done += 1
                raise
            yield None


def review_every(ctx: click.Context, as_json: bool) -> None:
    """`pasur review --all` (with --match: that match's deals): a progress bar on a terminal
    (standard error), none in a pipe; then what was done. Ctrl-C says how many deals were kept
    and leaves with code 130. Raises PasurError as ``Store.load``."""
    from pasur_cli.text.review import damaged_line
    store = open_store(ctx, write=True)
    named = ctx.meta.get("pasur.match_id")
    tally = Tally()
    try:
        ids = [named] if named is not None else sorted(store.match_ids())
        todo = waiting(store, ids, tally)
        count = sum(len(numbers) for _, numbers in todo)
        bar = (click.progressbar(length=count, label=_("Reviewing"), file=sys.stderr)
               if is_terminal(sys.stderr) and count else nullcontext())
        with bar as shown:
            for _step in reviewing(store, todo, tally):
                if shown is not None:
                    shown.update(1)
    except KeyboardInterrupt:
        click.echo(look(ctx).say_count("Stopped: {count} deal reviewed and kept; pasur review --all goes on from"
                                       " the next.", "Stopped: {count} deals reviewed and kept; pasur review --all"
                                       " goes on from the next.", tally.done, count=tally.done), err=True)
        ctx.exit(130)
    for mid, number in tally.damaged:
        click.echo(damaged_line(look(ctx), mid, number), err=True)
    if tally.left_out:
        click.echo(look(ctx).say("Left out, damaged (see pasur matches): {matches}.",
                                 matches=", ".join(map(str, tally.left_out))), err=True)
    if as_json:
        from pasur_cli.text.shapes import dumps
        click.echo(dumps(tally.as_json()))
    else:
        click.echo(look(ctx).say_count("{count} deal reviewed and kept; {already} kept already.",
                                       "{count} deals reviewed and kept; {already} kept already.", tally.done,
                                       count=tally.done, already=tally.already))
