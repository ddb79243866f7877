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


def refuse(err: PasurError, ctx: click.Context) -> Refused:
    """The refusal a player sees; suit letters instead of symbols under --ascii."""
    import sys
    from pasur_cli.render import Look
    message = str(err)
    if Look.detect(ascii=ctx.meta.get("pasur.ascii", False), stream=sys.stderr).ascii:
        from pasur_cli.cards import ascii_suits
        message = ascii_suits(message)
    return Refused(message, 2 if isinstance(err, NotationError) else 1)


def _help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


def help_param() -> click.Option:
    """-h/--help as a plain eager flag: click's built-in one looks up a translation (and imports
    locale) on every run, a noticeable part of start-up."""
    return click.Option(["-h", "--help"], is_flag=True, expose_value=False, is_eager=True, callback=_help,
                        help="Show this message and exit.")


class PasurCommand(click.Command):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **{**kwargs, "add_help_option": False})
        self.params.append(help_param())


class PasurGroup(click.Group):
    """Turns every PasurError raised by a command into a clean message and exit code."""

    command_class = PasurCommand

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **{**kwargs, "add_help_option": False})
        self.params.append(help_param())

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except PasurError as err:
            raise refuse(err, ctx) from None
        except Exception as err:
            import sqlite3  # already loaded whenever a database was touched
            if isinstance(err, sqlite3.Error):  # the store names the file; this is the last safety net
                raise Refused(f"pasur cannot use its database ({err}); nothing was changed.") from None
            raise


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


def store_options(f):
    """--db and --match, accepted on the group and on every command that uses the database."""
    f = click.option("--match", "match_id", type=int, expose_value=False, callback=_remember, metavar="ID",
                     help="The match to use (default: the most recently used unfinished match).")(f)
    f = click.option("--db", expose_value=False, callback=_remember,
                     metavar="PATH", help="The database file (default: $PASUR_DB, else the user data folder).")(f)
    return f


# -- shell completion (click's own mechanism; see the README) -------------------------------
def complete_presets(ctx, param, incomplete: str) -> list[str]:
    from pasur_cli.rules import PRESETS
    return [p for p in PRESETS if p.startswith(incomplete.lower())]


def complete_rule(ctx, param, incomplete: str) -> list[str]:
    """Option names with '=', then the values that option takes."""
    from pasur_cli.rules import BOOLS, CHOICES, OPTION_NAMES
    name, sep, _ = incomplete.partition("=")
    if not sep:
        return [f"{n}=" for n in OPTION_NAMES if n.startswith(name.lower())]
    values = CHOICES.get(name) or (("true", "false") if name in BOOLS else ())
    return [f"{name}={v}" for v in values if f"{name}={v}".startswith(incomplete)]


def _current_match(ctx):
    from pasur_cli.store import Store
    store = Store(ctx.meta.get("pasur.db"))
    try:
        return current(ctx, store)[1]
    finally:
        store.close()


def complete_cards(ctx, param, incomplete: str) -> list[str]:
    """For a played card: the cards still unseen in the current deal; for --take: the table's cards."""
    try:
        match = _current_match(ctx)
    except Exception:  # completion must never fail loudly; no match means nothing to offer
        return []
    deal = match.deal
    if deal is None:
        return []
    from pasur_cli.cards import DECK
    cards = deal.table if param.name == "take_text" else [c for c in DECK if c not in deal.where]
    return [c.code for c in cards if c.code.startswith(incomplete.upper())]


def complete_players(ctx, param, incomplete: str) -> list[str]:
    try:
        players = _current_match(ctx).players
    except Exception:  # as above
        return []
    return [p for p in players if p.casefold().startswith(incomplete.casefold())]


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")(f)


def rule_options(f):
    f = click.option("--rule", "overrides", multiple=True, metavar="NAME=VALUE", shell_complete=complete_rule,
                     help="Override one rule option (repeatable); see `pasur rules`.")(f)
    f = click.option("--rules", "preset", default="standard", show_default=True, metavar="PRESET",
                     shell_complete=complete_presets,
                     help="Rule preset: standard or pagat.")(f)
    return f


def look(ctx: click.Context):
    from pasur_cli.render import Look
    return Look.detect(ascii=ctx.meta.get("pasur.ascii", False), no_color=ctx.meta.get("pasur.no_color", False))


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from pasur_cli import __version__
        click.echo(f"pasur {__version__}")
        ctx.exit()


def run() -> None:
    """The `pasur` process (the console script and `python -m pasur_cli`): main(), then exit.

    Once a command has finished, every change is committed and its database closed, so the
    process leaves with os._exit after flushing its output instead of tearing the interpreter
    down: freeing the objects of every module click imports costs about 5 ms, an eighth of a
    command's run. A bug's traceback still takes Python's normal way out.
    """
    import os
    import sys
    try:
        main(prog_name="pasur")
        code = 0
    except SystemExit as stop:  # click's standalone mode always ends here, with a number
        if not isinstance(stop.code, int):
            raise
        code = stop.code
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None when pasur was started with that descriptor closed
                stream.flush()
    except OSError:  # the reader went away: nothing more can be said
        code = code or 1
    os._exit(code)


@click.group(cls=PasurGroup)
@store_options
@look_options
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and exit.")
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
@click.argument("preset", required=False, shell_complete=complete_presets)
@json_option
def rules(preset, as_json):
    """Every rule option with its value in each preset (or in PRESET) and what it means."""
    from pasur_cli import render
    from pasur_cli.rules import PRESETS

    if preset is not None and preset.lower() not in PRESETS:
        raise NotationError(f"{preset!r} is not a preset; choose one of {', '.join(PRESETS)}.")
    names = [preset.lower()] if preset else list(PRESETS)
    click.echo(render.dumps(render.rules_json(names)) if as_json else render.rules_text(names))


# -- the match ----------------------------------------------------------------------------
def open_store(ctx: click.Context, write: bool = False, create: bool = False):
    """The database named by --db / PASUR_DB / the data folder, closed when the command ends.
    Only ``create`` (new, import) makes the file when it does not exist."""
    from pasur_cli.store import Store
    store = Store(ctx.meta.get("pasur.db"), write=write, create=create)
    ctx.call_on_close(store.close)
    return store


def current(ctx: click.Context, store):
    """(id, replayed match) of --match, else of the most recently changed match that is not
    finished, else of the most recent one (so `pasur score` still shows a match just won)."""
    from pasur_cli.store import StoreError
    chosen = ctx.meta.get("pasur.match_id")
    if chosen is not None:
        return chosen, store.match(chosen)[1]
    ids = store.match_ids()
    for mid in ids:
        match = store.match(mid)[1]
        if not match.finished:
            return mid, match
    if ids:
        return ids[0], store.match(ids[0])[1]
    raise StoreError("there is no match yet: start one with `pasur new NAME NAME`.")


@main.command()
@click.argument("players", nargs=-1, required=True)
@rule_options
@click.option("--dealer", metavar="NAME", help="Who deals the first deal (default: the first player named).")
@click.option("--solo", is_flag=True, help="With 4 players, everyone plays for themselves (no teams).")
@store_options
@look_options
@click.pass_context
def new(ctx, players, preset, overrides, dealer, solo):
    """Start a match: PLAYERS in playing order (2-4; 4 play as teams 1+3 against 2+4)."""
    from pasur_cli import render
    from pasur_cli.match import Match, check_players
    from pasur_cli.rules import parse_rules

    names = [p.strip() for p in players]
    rules = parse_rules(preset, [*overrides, *(["teams=false"] if solo else [])])
    check_players(names)
    if solo and len(names) != 4:
        raise NotationError("--solo is for 4 players; with 2 or 3 everyone plays for themselves anyway.")
    seat = 0
    if dealer is not None:
        match = Match(names, rules)
        seat = names.index(match.player_named(dealer))
    store = open_store(ctx, create=True)
    mid = store.create(names, rules, seat)
    click.echo(render.new_text(mid, Match(names, rules, seat)))


@main.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--expect", type=int, hidden=True, help="Refuse unless the log holds this many actions.")
@store_options
@look_options
@click.pass_context
def deal(ctx, cards, expect):
    """Enter the face-up table of the next deal: four CARDS (checked for misdeals)."""
    from pasur_cli import render
    from pasur_cli.cards import parse_cards

    table_cards = parse_cards(cards, "table")
    if len(table_cards) != 4:
        raise NotationError(f"the initial table is 4 cards; {len(table_cards)} were given.")
    store = open_store(ctx, write=True)
    with store.changing(current(ctx, store)[0], expect) as change:
        change.match.start_deal(table_cards)
        change.append({"type": "deal", "table": [c.code for c in table_cards]})
    click.echo(render.deal_text(look(ctx), change.match))


@main.command()
@click.argument("card", shell_complete=complete_cards)
@click.option("--take", "take_text", default=None, metavar="CARDS", shell_complete=complete_cards,
              help='The table cards the play captures, e.g. "4D 3H" (not the played card); "" to trail.')
@click.option("--by", metavar="NAME", shell_complete=complete_players, help="Refuse unless it is NAME's turn.")
@click.option("--expect", type=int, hidden=True, help="Refuse unless the log holds this many actions.")
@store_options
@look_options
@click.pass_context
def play(ctx, card, take_text, by, expect):
    """Record CARD played by whoever's turn it is, with the capture it makes."""
    from pasur_cli import render
    from pasur_cli.cards import parse_card, parse_cards
    from pasur_cli.errors import AmbiguousPlayError

    played = parse_card(card)
    take = None if take_text is None else parse_cards(take_text, "--take list")
    store = open_store(ctx, write=True)
    with store.changing(current(ctx, store)[0], expect) as change:
        match = change.match
        deal_played = match.deal
        try:
            record = match.play(played, take, by)
        except AmbiguousPlayError as err:
            refused = Refused(render.options_text(look(ctx), played, err.options, err.count))
            refused.options = err.options  # the session offers them as numbered choices
            raise refused from None
        change.append({"type": "play", "card": played.code, "take": [c.code for c in record.taken],
                       "by": record.player})
    click.echo(render.play_text(look(ctx), record, deal_played, match))


@main.command()
@click.argument("count", type=click.IntRange(min=1), default=1)
@json_option
@store_options
@click.pass_context
def undo(ctx, count, as_json):
    """Take back the last COUNT recorded actions (default 1)."""
    from pasur_cli import render
    from pasur_cli.errors import IllegalPlayError

    store = open_store(ctx, write=True)
    mid = current(ctx, store)[0]
    with store.changing(mid) as change:
        have = change.count
        if count > have:
            raise IllegalPlayError(f"match {mid} has {have} recorded action{'s' * (have != 1)}; cannot undo {count}.")
        dropped = change.drop(count)
    if as_json:
        click.echo(render.dumps({"match": mid, "undone": dropped}))
    else:
        for action in reversed(dropped):
            click.echo(f"Took back {render.describe_action(action)}.")


@main.command()
@json_option
@store_options
@look_options
@click.pass_context
def show(ctx, as_json):
    """The deal in progress: table, whose turn, piles, surs, last capture, unseen cards."""
    from pasur_cli import render

    store = open_store(ctx)
    mid, match = current(ctx, store)
    click.echo(render.dumps(render.show_json(mid, match)) if as_json else render.show_text(look(ctx), mid, match))


@main.command()
@json_option
@store_options
@look_options
@click.pass_context
def score(ctx, as_json):
    """One score table per deal and the match table with running totals."""
    from pasur_cli import render

    store = open_store(ctx)
    mid, match = current(ctx, store)
    click.echo(render.dumps(render.score_json(mid, match)) if as_json else render.score_text(look(ctx), match))


@main.command()
@json_option
@store_options
@click.pass_context
def matches(ctx, as_json):
    """Every match in the database: players, rules, deals played, totals, status."""
    import os

    from pasur_cli import render
    from pasur_cli.store import default_path

    rows = []
    if os.path.exists(ctx.meta.get("pasur.db") or default_path()):  # no database yet: no matches
        store = open_store(ctx)
        rows = render.matches_rows([(mid, store.match(mid)[1]) for mid in store.match_ids()])
    click.echo(render.dumps(rows) if as_json else render.matches_text(rows))


@main.command()
@store_options
@look_options
@click.pass_context
def session(ctx):
    """Referee the current match interactively: type each play, get the capture and the score."""
    from pasur_cli import session as loop

    store = open_store(ctx)
    mid = current(ctx, store)[0]
    store.close()
    loop.run(dict(ctx.meta), mid)


@main.command()
@click.option("--pile", "piles", multiple=True, metavar="SIDE=CARDS",
              help='A side\'s captured cards, e.g. "Ali=AS 2C 10D ..." (repeat for each side).')
@click.option("--count", "counts", multiple=True, metavar="SIDE: K=V ...",
              help='A side\'s counts instead of its cards: "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes ten_diamonds=no".')
@click.option("--surs", multiple=True, metavar="SIDE=N", help='Surs a side holds at the end of the deal, e.g. "Ali=2".')
@click.option("--partial", is_flag=True, help="The piles need not hold all 52 cards (and counts need not add up).")
@json_option
@store_options
@look_options
@click.pass_context
def tally(ctx, piles, counts, surs, partial, as_json):
    """Score a deal played without play-by-play entry, from what each side captured.

    A side may be named by its name or any of its players. At a terminal with no options, asks
    side by side.
    """
    import sys

    from pasur_cli import render
    from pasur_cli.tally import build_action

    store = open_store(ctx, write=True)
    mid, match = current(ctx, store)
    if not (piles or counts or surs):
        if not sys.stdin.isatty():
            raise NotationError("give --pile or --count for every side (and --surs), or run at a terminal to be asked.")
        piles, counts, surs = _ask_tally(match)
    with store.changing(mid) as change:
        action = build_action(change.match, list(piles), list(counts), list(surs), partial)
        result = change.match.apply(action)
        change.append(action)
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
    click.echo(f"Tally of deal {match.deal_number} ({match.dealer} dealt). For each side type its pile's cards,"
               " or counts like: clubs=8 aces=2 jacks=1 two_clubs=yes ten_diamonds=no")
    for side in match.sides:
        answer = click.prompt(f"{side}: pile or counts").strip()
        if "=" in answer:
            counts.append(f"{side}: {answer}")
        else:
            piles.append(f"{side}={answer}")
        held = click.prompt(f"{side}: surs held", default=0, type=click.IntRange(min=0))
        surs.append(f"{side}={held}")
    return piles, counts, surs


@main.command()
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-", metavar="FILE",
              help="Where to write the record (default or -: standard output).")
@store_options
@click.pass_context
def export(ctx, output):
    """Write the match as a self-describing JSON record (players, rules, every action with its time)."""
    from pasur_cli import render
    from pasur_cli.record import write_record

    store = open_store(ctx)
    record = store.load(current(ctx, store)[0], full=True)
    output.write(render.dumps(write_record(record)) + "\n")


@main.command(name="import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@store_options
@look_options
@click.pass_context
def import_(ctx, file):
    """Replay a match record (from `pasur export`) through the rules and store it as a new match."""
    from pasur_cli import render
    from pasur_cli.record import read_record

    try:
        text = file.read()
    except UnicodeDecodeError:
        raise NotationError(f"{file.name} is not a text file; a match record is JSON.") from None
    players, rules, dealer, actions, times, match = read_record(text)
    store = open_store(ctx, create=True)
    mid = store.create(players, rules, dealer, actions, times, match)
    click.echo(f"Imported as match {mid}: {len(actions)} actions replayed.")
    click.echo(render.show_text(look(ctx), mid, match))
