"""`pasur practice`: the positions where a player's play cost 2 points or more in reviewed deals,
one at a time, to find the better play; the results are kept, no match is changed."""

from __future__ import annotations

import itertools
import sys

import click

from pasur_cli.cli.app import PasurCommand, complete_known_player, look, look_options, open_store, store_options


@click.command(cls=PasurCommand)
@click.option("--player", metavar="NAME", shell_complete=complete_known_player,
              help="Only this player's positions (any case; default: every player's).")
@store_options
@look_options
@click.pass_context
def practice(ctx: click.Context, player: str | None) -> None:
    """Practise on your own mistakes: each position of a reviewed deal where a play cost 2
    expected points or more, as it stood (the hand, the table, the cards seen, the deal's score).
    Type a play as in the session (7c 4d) or an option's number; pasur says whether it is the best
    option (or within half a point of it), with both values and the review's reason. q leaves
    with a summary. Positions missed come back first next time; the results are kept in the
    record book and no match is changed. With --match, that match's deals only."""
    from pasur_cli.cli.practice import Practice, marked_decisions, matches_of, played_deals, player_named
    from pasur_cli.cli.screen import fit, is_terminal, terminal_width
    from pasur_cli.cli.terminal import lines
    from pasur_cli.engine.practice import Decision, practice_order
    from pasur_cli.store.practice import practised
    from pasur_cli.text.i18n import _
    from pasur_cli.text.practice import nothing_text, opening_text
    from pasur_cli.text.render import error_text
    store = open_store(ctx, write=True)
    named = ctx.meta.get("pasur.match_id")
    matches = matches_of(store, named)
    name = None if player is None else player_named(matches, player, named)
    shown = look(ctx)

    def decisions(deal: tuple[int, int]) -> list[Decision]:
        def making(number: int) -> None:  # a review takes a few seconds: say why nothing is shown yet
            if is_terminal(sys.stderr):
                click.echo(shown.say("Reviewing deal {deal} of match {match}…", deal=number, match=deal[0]), err=True)
        return marked_decisions(store, name, deal, making)
    order = practice_order(played_deals(matches, name), decisions, practised(store))
    first = next(order, None)  # the deals are reviewed until one has a position
    if first is None:
        click.echo(nothing_text(shown, name))
        return
    with lines() as (read, at_terminal):
        width = terminal_width() if at_terminal else 80

        def echo(text: str) -> None:
            click.echo(fit(text, width if at_terminal else None))

        def refuse(err: Exception) -> None:
            echo(_("Error: {message}").format(message=error_text(shown, err)))
        echo(opening_text(shown, name))
        Practice(store, matches, shown, read, at_terminal, echo, refuse, width).run(itertools.chain([first], order))
