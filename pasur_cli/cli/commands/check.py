"""`pasur check`: which captures a card can make on a table, or whether one is legal."""

from __future__ import annotations

import click

from pasur_cli.cli.app import PasurCommand, json_option, look, look_options, rule_options
from pasur_cli.cli.screen import echo
from pasur_cli.engine.captures import capture_problem, legal_captures
from pasur_cli.engine.cards import DECK, parse_card, parse_cards, split_tokens
from pasur_cli.engine.errors import NotationError, Words
from pasur_cli.engine.rules import parse_rules
from pasur_cli.text import render, shapes
from pasur_cli.text.i18n import english


@click.command(cls=PasurCommand)
@click.argument("card")
@click.option("--table", "table_text", default="", metavar="CARDS",
              help='The table cards, e.g. "4H 7C 10D" (empty for an empty table).')
@click.option("--take", "take_text", default=None, metavar="CARDS",
              help="Ask whether this exact capture is legal (table cards only, not the played card).")
@rule_options
@json_option
@look_options
@click.pass_context
def check(ctx: click.Context, card: str, table_text: str, take_text: str | None, preset: str,
          overrides: tuple[str, ...], as_json: bool) -> None:
    """Which captures CARD can make on a table, or whether --take is legal.

    Exit 0 when answered (and --take is legal), 1 when --take is illegal, 2 for bad input.
    """
    rules = parse_rules(preset, overrides)
    table_cards = parse_cards(table_text, Words("table"))
    try:
        played = parse_card(card)
    except NotationError:  # what was meant, among the cards not on the table (as `pasur play` says)
        tokens = split_tokens(card)
        from pasur_cli.engine import typos
        if not tokens or all(typos.is_card(t) for t in tokens):  # nothing typed, or several cards: not one card
            raise
        raise typos.problem(tokens, [c for c in DECK if c not in table_cards]) from None
    if played in table_cards:
        raise NotationError("{card} is both the played card and on the table: a card exists once.", card=played)
    take = None if take_text is None else parse_cards(take_text, Words("--take list"))
    stray = [c for c in take or () if c not in table_cards]
    if stray and table_cards:
        raise NotationError("--take names {cards}, not on the table ({table}).", cards=stray, table=table_cards)
    if stray:
        raise NotationError("--take names {cards}, not on the table (empty).", cards=stray)
    found = legal_captures(played, table_cards, rules)
    problem = None if take is None else capture_problem(played, table_cards, take, rules)
    legal = None if take is None else problem is None
    if as_json:
        reason = None
        if problem is not None:
            with english():  # JSON stays English, whatever the language
                reason = render.message(problem, render.Look(ascii=True))
        click.echo(shapes.dumps(shapes.check_json(played, table_cards, rules, found, legal, reason)))
    else:  # the problem is a fact, drawn by check_text's look (its colours kept)
        echo(render.check_text(look(ctx), played, table_cards, rules, found, take, problem))
    if legal is False:
        ctx.exit(1)
