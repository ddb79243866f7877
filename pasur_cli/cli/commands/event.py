"""`pasur event`: a club event (a tournament of single players or fixed teams of two): its
entrants, its rounds' pairings (a match for each table), results and standings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from pasur_cli.cli.app import (
    Count,
    PasurCommand,
    Refused,
    Translated,
    db_option,
    help_param,
    json_option,
    lang_param,
    look,
    look_options,
    open_store,
    rule_options,
)
from pasur_cli.cli.screen import echo, echo_csv, terminal_width
from pasur_cli.engine.club import event as club
from pasur_cli.engine.club.event import EventError
from pasur_cli.engine.errors import NotationError, Plural
from pasur_cli.store import events as book
from pasur_cli.store.database import Store
from pasur_cli.text.i18n import _

F = TypeVar("F", bound=Callable[..., Any])
ALL_PAIRED = Plural("the one round of {event} was paired; see `pasur event standings`.",
                    "all {rounds} rounds of {event} were paired; see `pasur event standings`.", "rounds")


class EventGroup(Translated, click.Group):
    """The `event` commands, with --lang and -h/--help as every pasur command has them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "add_help_option": False})
        self.params.extend([lang_param(), help_param()])


def event_option(f: F) -> F:
    return click.option("--event", "event_name", metavar="NAME",
                        help="The event (default: the newest one still being played).")(f)


@click.group(cls=EventGroup)
def event() -> None:
    """A club event: `event new`, then `event pair` for each round, results from the matches (or
    `event result` from paper), and `event standings`."""


def _opened(ctx: click.Context, name: str | None, write: bool = True) -> tuple[Store, book.Event]:
    store = open_store(ctx, write=write)
    return store, book.find_event(store, name)


@event.command(cls=PasurCommand)
@click.argument("name")
@click.argument("names", nargs=-1, required=True)
@click.option("--players", "kind", flag_value="players", default=True,
              help="NAMES are single players (the default).")
@click.option("--teams", "kind", flag_value="teams", help="NAMES are fixed teams of two, each \"A & B\".")
@click.option("--rounds", type=Count(1), metavar="N", help="How many rounds (default: enough for the entrants).")
@click.option("--pairing", type=click.Choice(club.SYSTEMS), default="swiss", show_default=True,
              help="Swiss (by results, no pair meets twice) or round robin (everyone meets everyone).")
@rule_options
@db_option
@click.pass_context
def new(ctx: click.Context, name: str, names: tuple[str, ...], kind: str, rounds: int | None, pairing: str,
        preset: str, overrides: tuple[str, ...]) -> None:
    """Start an event NAME of the entrants NAMES (players, or with --teams teams "A & B")."""
    from pasur_cli.engine.club.pairing import rounds_of
    from pasur_cli.engine.rules import parse_rules
    name = club.event_name(name)
    teams = kind == "teams"
    rules = parse_rules(preset, [*overrides, *(["teams=true"] if teams else [])])
    entered = club.entered(names, teams)
    if len(entered) < 2:
        raise EventError("an event needs at least two entrants, not {count}.", count=len(entered))
    rounds = rounds or rounds_of(pairing, len(entered))
    if rounds > club.ROUNDS_MOST:
        raise NotationError("an event has at most {most} rounds, not {count}.", most=club.ROUNDS_MOST,
                                 count=rounds)
    store = open_store(ctx, create=True)
    book.create_event(store, name, pairing, rounds, rules, entered)
    echo(look(ctx).say_count("Event {event}: {count} entrants, {rounds} round ({pairing}). Pair it with"
                             " `pasur event pair`.",
                             "Event {event}: {count} entrants, {rounds} rounds ({pairing}). Pair the first"
                             " round with `pasur event pair`.", rounds, event=name, count=len(entered),
                             rounds=rounds, pairing=pairing))


@event.command(cls=PasurCommand)
@event_option
@db_option
@look_options
@click.pass_context
def pair(ctx: click.Context, event_name: str | None) -> None:
    """Pair the next round: a match for each table, who sits where and who deals."""
    try:
        import caissify_pairings  # noqa: F401  # the pairing engine's, imported here to say how to add it
    except ImportError as err:
        from pasur_cli.cli.extras import extra_command, installed_origin
        raise Refused(_("pasur event pair needs its extra package: {command} ({missing} is missing).")
                      .format(command=extra_command(installed_origin(), "event"), missing=err.name)) from None
    from pasur_cli.engine.club.pairing import round_robin, swiss
    store, found = _opened(ctx, event_name)
    played = book.tables(store, found)
    waiting = club.unfinished(played)
    if waiting:
        first = waiting[0]
        raise EventError("table {table} of round {round} (match {match}) has not finished: finish its match, or"
                         " give its score with `pasur event result {table} 62-48`.", table=first.number,
                         round=first.round, match=first.match)
    number = club.last_round(played) + 1
    if number > found.rounds:
        raise EventError(ALL_PAIRED, rounds=found.rounds, event=found.name)
    people = book.entrants(store, found)
    pairs = (swiss(people, played, number, found.rounds) if found.pairing == "swiss"
             else round_robin(people, number))
    made = book.add_round(store, found, number, pairs)
    by_number = {e.number: e for e in people}
    seating = {t.number: club.seats(by_number[t.first], by_number[t.second]) for t in made if t.second is not None}
    from pasur_cli.text.render_event import round_text
    echo(round_text(look(ctx), found.name, number, found.rounds, made, by_number, seating))


@event.command(cls=PasurCommand)
@click.argument("table", type=Count(1), metavar="TABLE")
@click.argument("score", metavar="SCORE")
@click.option("--round", "round_number", type=Count(1), metavar="N", help="The round (default: the last paired).")
@event_option
@db_option
@look_options
@click.pass_context
def result(ctx: click.Context, table: int, score: str, round_number: int | None, event_name: str | None) -> None:
    """Give TABLE's final SCORE (the first entrant's points first: 62-48), kept on paper or scored as the
    table stands when it cannot finish; again to correct it."""
    points = club.read_score(score)
    store, found = _opened(ctx, event_name)
    played = book.tables(store, found)
    number = round_number or club.last_round(played)
    if number == 0:
        raise EventError("no round of {event} is paired yet: pair the first with `pasur event pair`.",
                         event=found.name)
    target = next((t for t in played if t.round == number and t.number == table), None)
    if target is None or target.second is None:
        raise EventError("round {round} has no table {table}.", round=number, table=table)
    book.give_score(store, found, target, points)
    from pasur_cli.text.render_event import result_text
    people = {e.number: e for e in book.entrants(store, found)}
    echo(result_text(look(ctx), target, people, points, target.score))


def _next_round(store: Store, found: book.Event) -> int:
    """The round an entrant added or dropped now is paired from, or not. Raises EventError when
    every round was paired."""
    number = club.last_round(book.tables(store, found)) + 1
    if number > found.rounds:
        raise EventError(ALL_PAIRED, rounds=found.rounds, event=found.name)
    return number


@event.command(cls=PasurCommand)
@click.argument("name")
@event_option
@db_option
@click.pass_context
def add(ctx: click.Context, name: str, event_name: str | None) -> None:
    """Enter a late arrival NAME (a player, or a team "A & B"), paired from the next round on; an
    entrant who left comes back if no round was paired since."""
    store, found = _opened(ctx, event_name)
    people = book.entrants(store, found)
    teams = len(people[0].players) == 2
    number = _next_round(store, found)
    if found.pairing == "round-robin" and number > 1:
        raise EventError("a round robin's entrants are fixed once its first round is paired.")
    back = club.left_entrant(people, name)
    if back is not None:
        _come_back(ctx, store, found, back, number)
        return
    [(who, players)] = club.entered([name], teams)
    club.entered([*(e.name for e in people), who], teams)  # nobody entered twice
    book.add_entrant(store, found, who, players, number)
    echo(look(ctx).say("{name} joins {event} from round {round}.", name=who, event=found.name, round=number))


def _come_back(ctx: click.Context, store: Store, found: book.Event, entrant: club.Entrant, number: int) -> None:
    """Take back ``entrant``'s drop when no round was paired since (a drop typed for the wrong
    name, or a player back in time). Raises EventError when a round was paired without them."""
    if entrant.dropped != number:
        raise EventError("{name} left {event} from round {round}, and round {round} was paired without them: an"
                         " entrant who missed a round cannot come back.", name=entrant.name, event=found.name,
                         round=entrant.dropped)
    book.return_entrant(store, found, entrant.number)
    echo(look(ctx).say("{name} is back in {event}: paired again from round {round}.", name=entrant.name,
                       event=found.name, round=number))


@event.command(cls=PasurCommand)
@click.argument("name")
@event_option
@db_option
@click.pass_context
def drop(ctx: click.Context, name: str, event_name: str | None) -> None:
    """NAME leaves the event: not paired from the next round on; the results played stand."""
    store, found = _opened(ctx, event_name)
    entrant = club.find_entrant(book.entrants(store, found), name)
    if entrant.dropped is not None:
        raise EventError("{name} left {event} already (from round {round}).", name=entrant.name, event=found.name,
                         round=entrant.dropped)
    number = _next_round(store, found)
    book.drop_entrant(store, found, entrant.number, number)
    echo(look(ctx).say("{name} leaves {event}: not paired from round {round} on; the results played stand.",
                       name=entrant.name, event=found.name, round=number))


@event.command(cls=PasurCommand)
@event_option
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (UTF-8, a header row): one row per entrant.")
@db_option
@look_options
@click.pass_context
def standings(ctx: click.Context, event_name: str | None, as_json: bool, as_csv: bool) -> None:
    """The event's standings: match wins, then the tiebreaks (Swiss: the opponents' wins, Buchholz), the
    points difference, the points scored, and head to head between two still tied."""
    if as_json and as_csv:
        raise click.UsageError(_("--json and --csv cannot be used together."))
    from pasur_cli.text import render_event, shapes
    store, found = _opened(ctx, event_name, write=False)
    places = book.places(store, found)
    if as_json:
        click.echo(shapes.dumps(render_event.standings_json(found.name, found.pairing, places)))
    elif as_csv:
        echo_csv(*render_event.standings_csv(places))
    else:
        echo(render_event.standings_text(look(ctx), found.name, places, found.pairing == "swiss",
                                         terminal_width()))


@event.command(name="export", cls=PasurCommand)
@click.option("-o", "--output", default="-", metavar="FILE",
              help="Where to write the event (default or -: standard output).")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@event_option
@db_option
@click.pass_context
def export_event(ctx: click.Context, output: str, force: bool, event_name: str | None) -> None:
    """Write the event as one file: its entrants, its rounds' tables and every table's match record;
    `pasur import` reads it back whole on another machine."""
    from pasur_cli.cli.files import write_atomically
    from pasur_cli.engine.club.record import write_event
    from pasur_cli.engine.record import write_record
    store, found = _opened(ctx, event_name, write=False)
    played = book.tables(store, found)
    matches = {t.match: write_record(store.load(t.match, full=True)) for t in played if t.match is not None}
    text = write_event(found.name, found.created, found.pairing, found.rounds, found.rules,
                       book.entrants(store, found), played, matches)
    if output == "-":
        click.echo(text, nl=False)
    else:
        write_atomically(output, text, force)
        echo(look(ctx).say("Wrote {event} to {file}.", event=found.name, file=output))
