"""`pasur hint`: the options of the hand of the player to move, best first."""

from __future__ import annotations

import click

from pasur_cli.cli.app import (
    PasurCommand,
    complete_cards,
    current,
    json_option,
    look,
    look_options,
    open_store,
    store_options,
)
from pasur_cli.engine.cards import parse_cards
from pasur_cli.engine.errors import Words


@click.command(cls=PasurCommand)
@click.argument("cards", nargs=-1, required=True, metavar="CARD...", shell_complete=complete_cards)
@json_option
@store_options
@look_options
@click.pass_context
def hint(ctx: click.Context, cards: tuple[str, ...], as_json: bool) -> None:
    """Weigh the hand of the player to move (CARD...: the 1 to 4 cards they hold): every legal
    play of it, best first, each with the deal points it is expected to gain over the other side,
    knowing only that hand, the table and the cards seen. Reads the match; changes nothing."""
    from pasur_cli.engine.advice import hint as weigh_hand
    from pasur_cli.engine.advice import to_move
    from pasur_cli.text.review import hint_json, hint_text
    from pasur_cli.text.shapes import dumps
    hand = parse_cards(list(cards), Words("hand"))
    store = open_store(ctx)
    mid, match = current(ctx, store)
    player = to_move(match)
    advice = weigh_hand(match, hand)
    if as_json:
        click.echo(dumps(hint_json(mid, player, advice)))
    else:
        click.echo(hint_text(look(ctx), player, advice))
