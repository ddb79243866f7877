"""`pasur import`: replay a match record and store it as a new match."""

from __future__ import annotations

import sys

import click

from pasur_cli.cli.app import PasurCommand, look, look_options, open_store, store_options
from pasur_cli.cli.screen import echo, terminal_width
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.record import MAX_BYTES, read_record
from pasur_cli.store.errors import StoreError
from pasur_cli.store.paths import check_file, check_path, default_path
from pasur_cli.text import render


def at_terminal() -> bool:
    """Whether a person can be asked (pasur_cli.cli.terminal says; loaded only when asked)."""
    from pasur_cli.cli import terminal
    return terminal.at_terminal()


def agreed(question: str) -> bool:
    """Whether a person at a terminal answers yes to ``question`` (the questions module is loaded
    only then: an import that asks nothing does without it)."""
    if not at_terminal():
        return False
    from pasur_cli.cli.questions import confirm
    return confirm(question)


def read_text(path: str) -> str:
    """The file (or standard input for -) as UTF-8 text, at most MAX_BYTES (the export of the largest
    match pasur holds): a device such as /dev/zero or a huge file is refused before it fills the
    memory. Raises NotationError."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1) if sys.stdin is not None else b""  # closed: empty
        else:
            with open(check_file(path), "rb") as f:
                data = f.read(MAX_BYTES + 1)
    except OSError as err:
        raise NotationError("cannot read {file} ({reason}).", file=path, reason=err.strerror or err) from None
    if len(data) > MAX_BYTES:
        raise NotationError("{file} is larger than {most} MB, and the record of the largest match pasur holds is"
                            " smaller; nothing was imported.", file=path, most=MAX_BYTES // 2**20)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotationError("{file} is not a text file; a match record is JSON.", file=path) from None


@click.command(name="import", cls=PasurCommand)
@click.argument("file", metavar="FILE")
@click.option("--again", is_flag=True, help="Import the record even if it was imported before.")
@store_options
@look_options
@click.pass_context
def import_(ctx: click.Context, file: str, again: bool) -> None:
    """Replay a match record (from `pasur export`) through the rules and store it as a new match.

    A record that was already imported is refused unless you confirm at a terminal or give --again.
    """
    given = ctx.meta.get("pasur.db")
    check_path(given if given is not None else default_path())  # a bad --db before a long read
    text = read_text(file)
    from pasur_cli.engine.club.record import is_event
    if is_event(text):
        return import_event(ctx, text)
    record = read_record(text)
    store = open_store(ctx, create=True)
    earlier = store.imported_as(record.fingerprint)
    same = None if earlier is not None or again else store.stored_as(record.players, record.rules, record.dealer,
                                                                     record.actions, record.texts)
    if same is not None:  # an import running at once may have stored this very record between the two reads
        earlier = store.imported_as(record.fingerprint)
        same = None if earlier is not None else same
    if earlier is not None and not again:
        question = look(ctx).say("This record was already imported as match {match}. Import it again as a new match?",
                                 match=earlier)
        if not agreed(question):
            raise StoreError("this record was already imported as match {match}; nothing was changed"
                             " (give --again to import it once more).", match=earlier)
        again = True
    if same is not None:  # exported from this file: the same match by its content
        question = look(ctx).say("This record is match {match} of this database (the same players, rules and"
                                 " plays). Import it again as a new match?", match=same)
        if not agreed(question):
            raise StoreError("this record is match {match} of this database already (the same players, rules and"
                             " plays); nothing was changed (give --again to import it as a new match).", match=same)
        again = True
    # checked again in the transaction that stores it: imports running at once store a record once
    mid = store.create(record.players, record.rules, record.dealer, record.actions, record.times, record.match,
                       record.fingerprint, record.created, once=not again, texts=record.texts)
    count = len(record.actions)
    echo(look(ctx).say_count("Imported as match {match}: {count} action replayed.",
                                   "Imported as match {match}: {count} actions replayed.", count,
                                   match=mid, count=count))
    echo(render.show_text(look(ctx), mid, record.match, width=terminal_width()))


def import_event(ctx: click.Context, text: str) -> None:
    """Store an event record (`pasur event export`): its matches and its rows, in one transaction.
    Raises NotationError or IllegalPlayError for a refused record, EventError for a name taken."""
    from pasur_cli.engine.club.record import read_event
    from pasur_cli.store.events import import_event as store_event
    record = read_event(text)
    store = open_store(ctx, create=True)
    store_event(store, record)
    count = len(record.matches)
    echo(look(ctx).say_count("Imported the event {event}: {count} match replayed.",
                             "Imported the event {event}: {count} matches replayed.", count,
                             event=record.name, count=count))
