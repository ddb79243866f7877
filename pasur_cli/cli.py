"""The thin click layer: parse options, call the engine and the store, print what render draws.

Engine errors become exit codes here: bad notation or input 2, an illegal or ambiguous play 1.
"""

from __future__ import annotations

import click

from pasur_cli.errors import NotationError, PasurError


class Refused(click.ClickException):
    """An error for the player; exit 2 for bad input, 1 for a refused play."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def refuse(err: PasurError) -> Refused:
    return Refused(str(err), 2 if isinstance(err, NotationError) else 1)


class PasurGroup(click.Group):
    """Turns every PasurError raised by a command into a clean message and exit code."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except PasurError as err:
            raise refuse(err) from None


def _remember(ctx: click.Context, param: click.Parameter, value):
    if value is not None and value is not False:
        ctx.meta[f"pasur.{param.name}"] = value
    return value


def look_options(f):
    """--ascii and --no-color, accepted on the group and on every command that prints cards."""
    f = click.option("--ascii", is_flag=True, expose_value=False, callback=_remember,
                     help="Write suits as letters (10D) instead of symbols (10♦).")(f)
    f = click.option("--no-color", is_flag=True, expose_value=False, callback=_remember,
                     help="No colour even at a terminal (NO_COLOR=1 does the same).")(f)
    return f


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")(f)


def rule_options(f):
    f = click.option("--rule", "overrides", multiple=True, metavar="NAME=VALUE",
                     help="Override one rule option (repeatable); see `pasur rules`.")(f)
    f = click.option("--rules", "preset", default="standard", show_default=True, metavar="PRESET",
                     help="Rule preset: standard or pagat.")(f)
    return f


def look(ctx: click.Context):
    from pasur_cli.render import Look
    return Look.detect(ascii=ctx.meta.get("pasur.ascii", False), no_color=ctx.meta.get("pasur.no_color", False))


@click.group(cls=PasurGroup, context_settings={"help_option_names": ["-h", "--help"]})
@look_options
@click.version_option(package_name="pasur", prog_name="pasur")
def main() -> None:
    """Referee and scorekeeper for Pasur, the Iranian fishing card game."""


@main.command()
@click.argument("card")
@click.option("--table", "table_text", default="", metavar="CARDS",
              help='The table cards, e.g. "4H 7C 10D" (empty for an empty table).')
@click.option("--take", "take_text", default=None, metavar="CARDS",
              help="Ask whether this exact capture is legal (table cards only, not the played card).")
@rule_options
@json_option
@look_options
@click.pass_context
def check(ctx, card, table_text, take_text, preset, overrides, as_json):
    """Which captures CARD can make on a table, or whether --take is legal.

    Exit 0 when answered (and --take is legal), 1 when --take is illegal, 2 for bad input.
    """
    from pasur_cli import render
    from pasur_cli.captures import capture_problem, legal_captures
    from pasur_cli.cards import parse_card, parse_cards
    from pasur_cli.rules import parse_rules

    rules = parse_rules(preset, overrides)
    played = parse_card(card)
    table_cards = parse_cards(table_text, "table")
    if played in table_cards:
        raise NotationError(f"{played.code} is both the played card and on the table: a card exists once.")
    take = None if take_text is None else parse_cards(take_text, "--take list")
    stray = [c.code for c in take or () if c not in table_cards]
    if stray:
        raise NotationError(f"--take names {' '.join(stray)}, not on the table ({' '.join(c.code for c in table_cards) or 'empty'}).")
    found = legal_captures(played, table_cards, rules)
    reason = None if take is None else capture_problem(played, table_cards, take, rules, ascii=as_json or look(ctx).ascii)
    legal = None if take is None else reason is None
    if as_json:
        click.echo(render.dumps(render.check_json(played, table_cards, rules, found, legal, reason)))
    else:
        click.echo(render.check_text(look(ctx), played, table_cards, rules, found, take, reason))
    if legal is False:
        ctx.exit(1)


@main.command()
@click.argument("preset", required=False)
@json_option
def rules(preset, as_json):
    """Every rule option with its value in each preset (or in PRESET) and what it means."""
    from pasur_cli import render
    from pasur_cli.rules import PRESETS

    if preset is not None and preset.lower() not in PRESETS:
        raise NotationError(f"{preset!r} is not a preset; choose one of {', '.join(PRESETS)}.")
    names = [preset.lower()] if preset else list(PRESETS)
    click.echo(render.dumps(render.rules_json(names)) if as_json else render.rules_text(names))
