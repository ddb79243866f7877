"""`pasur review --all`: every finished deal not reviewed yet, reviewed and kept, each deal in a
transaction of its own, so that Ctrl-C keeps the deals done.

Imported only by that option: no other command pays for the analysis engine.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

import click

from pasur_cli.cli.app import look, open_store
from pasur_cli.cli.screen import is_terminal
from pasur_cli.engine.errors import IllegalPlayError
from pasur_cli.store.errors import DamagedError
from pasur_cli.text.i18n import _

if TYPE_CHECKING:
    from pasur_cli.store.database import Store


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
