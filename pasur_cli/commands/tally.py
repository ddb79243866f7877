"""`pasur tally`: score a deal played without play-by-play entry."""

from __future__ import annotations

import sys

import click

from pasur_cli import render
from pasur_cli.cli import (
    PasurCommand,
    current,
    expect_option,
    json_option,
    look,
    look_options,
    open_store,
    store_options,
)
from pasur_cli.errors import NotationError
from pasur_cli.tally import build_action


@click.command(cls=PasurCommand)
@click.option("--pile", "piles", multiple=True, metavar="SIDE=CARDS",
              help='A side\'s captured cards, e.g. "Ali=AS 2C 10D ..." (repeat for each side).')
@click.option("--count", "counts", multiple=True, metavar="SIDE: K=V ...",
              help='A side\'s counts instead of its cards: "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes ten_diamonds=no".')
@click.option("--surs", multiple=True, metavar="SIDE=N", help='Surs a side holds at the end of the deal, e.g. "Ali=2".')
@click.option("--partial", is_flag=True, help="The piles need not hold all 52 cards (and counts need not add up).")
@expect_option
@json_option
@store_options
@look_options
@click.pass_context
def tally(ctx, piles, counts, surs, partial, expect, as_json):
    """Score a deal played without play-by-play entry, from what each side captured.

    A side may be named by its name or any of its players. At a terminal with no options, asks
    side by side.
    """
    store = open_store(ctx, write=True)
    mid, match = current(ctx, store)
    if not (piles or counts or surs):
        if not sys.stdin.isatty():
            raise NotationError("give --pile or --count for every side (and --surs), or run at a terminal to be asked.")
        piles, counts, surs = _ask_tally(match)
    with store.changing(mid, expect) as change:
        action = build_action(change.match, list(piles), list(counts), list(surs), partial)
        result = change.match.apply(action)
        change.append(change.match.last_action)  # the canonical form, as it replays
    match = change.match
    if as_json:
        data = render.score_json(mid, match)
        click.echo(render.dumps({"match": mid, "deal": data["deals"][result.number - 1], "totals": data["totals"],
                                 "finished": data["finished"], "winner": data["winner"]}))
    else:
        click.echo(render.score_text(look(ctx), match, only_last=True))


def _ask_tally(match) -> tuple[list[str], list[str], list[str]]:
    """Ask side by side at a terminal; returns the same texts the options would hold."""
    piles, counts, surs = [], [], []
    click.echo(f"Tally of deal {match.deal_number} ({match.dealer} dealt). For each side, type its pile's cards\n"
               "or its counts, like: clubs=8 aces=2 jacks=1 two_clubs=yes ten_diamonds=no")
    for side in match.sides:
        answer = click.prompt(f"{side}: pile or counts").strip()
        if "=" in answer:
            counts.append(f"{side}: {answer}")
        else:
            piles.append(f"{side}={answer}")
        held = click.prompt(f"{side}: surs held", default=0, type=click.IntRange(min=0))
        surs.append(f"{side}={held}")
    return piles, counts, surs
