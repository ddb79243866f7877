"""`pasur new`: start a match."""

from __future__ import annotations

import click

from pasur_cli.cli.app import PasurCommand, complete_known_player, look_options, open_store, rule_options, store_options
from pasur_cli.cli.screen import echo
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import check_players, check_table_name
from pasur_cli.engine.rules import parse_rules
from pasur_cli.text import render


@click.command(cls=PasurCommand)
@click.argument("players", nargs=-1, required=True)
@rule_options
@click.option("--dealer", metavar="NAME", shell_complete=complete_known_player,
              help="Who deals the first deal (default: the first player named).")
@click.option("--solo", is_flag=True, help="With 4 players, everyone plays for themselves (no teams).")
@click.option("--table", "table", metavar="NAME", help="The table it is played at: a number or a name (at most"
              " 20 characters), shown wherever the match is named.")
@store_options
@look_options
@click.pass_context
def new(ctx: click.Context, players: tuple[str, ...], preset: str, overrides: tuple[str, ...],
        dealer: str | None, solo: bool, table: str | None) -> None:
    """Start a match: PLAYERS in playing order (2-4; 4 play as teams 1+3 against 2+4)."""
    names = [p.strip() for p in players]
    rules = parse_rules(preset, [*overrides, *(["teams=false"] if solo else [])])
    names = check_players(names)
    if solo and len(names) != 4:
        raise NotationError("--solo is for 4 players; with 2 or 3 everyone plays for themselves anyway.")
    table = None if table is None else check_table_name(table)
    seat = 0
    if dealer is not None:
        match = Match(names, rules)
        seat = names.index(match.player_named(dealer))
    store = open_store(ctx, create=True)
    mid = store.create(names, rules, seat, table=table)
    echo(render.new_text(mid, Match(names, rules, seat), table))
