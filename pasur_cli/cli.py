"""The thin click layer: the `pasur` group, what its commands share, and the process's exit.

Each command lives in its own module under pasur_cli/commands, imported only when that command
runs. Engine errors become exit codes here: bad notation or input 2, an illegal or ambiguous
play 1.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any, TypeVar

import click

from pasur_cli.errors import NotationError, PasurError

F = TypeVar("F", bound=Callable[..., Any])  # a command function, as option decorators return it


class Refused(click.ClickException):
    """An error for the player; exit 2 for bad input, 1 for a refused play."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def refuse(err: PasurError, ctx: click.Context) -> Refused:
    """The refusal a player sees, its cards drawn as stderr wants them (letters under --ascii)."""
    import sys

    from pasur_cli.render import Look, message
    look = Look.detect(ascii=ctx.meta.get("pasur.ascii", False), no_color=ctx.meta.get("pasur.no_color", False),
                       stream=sys.stderr)
    return Refused(message(err, look), 2 if isinstance(err, NotationError) else 1)


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


# command: its module in pasur_cli/commands (the order of `pasur --help` is alphabetical; this
# order is the man page's)
COMMANDS = {
    "check": "check", "rules": "rules", "new": "new", "deal": "deal", "play": "play", "undo": "undo",
    "show": "show", "score": "score", "matches": "matches", "session": "session", "tally": "tally",
    "export": "export", "import": "import_", "log": "log", "stats": "stats",
}


class PasurGroup(click.Group):
    """Loads a command's module only when that command is used (defining the thirteen there were cost about
    0.4 MiB and 0.8 ms of every run), and turns every PasurError into a clean message and exit code."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **{**kwargs, "add_help_option": False})
        self.params.append(help_param())

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            module = COMMANDS[name]
            self.add_command(getattr(import_module(f"pasur_cli.commands.{module}"), module), name)
        return self.commands.get(name)

    def load_all(self) -> dict[str, click.Command]:
        """Every command, its module loaded (for the man pages and the help tests)."""
        for name in COMMANDS:
            self.get_command(None, name)
        return self.commands

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


def look_options(f: F) -> F:
    """--ascii and --no-color, accepted on the group and on every command that prints cards."""
    f = click.option("--ascii", is_flag=True, expose_value=False, callback=_remember,
                     help="Write suits as letters (10D) instead of symbols (10♦).")(f)
    f = click.option("--no-color", is_flag=True, expose_value=False, callback=_remember,
                     help="No colour even at a terminal (NO_COLOR=1 does the same).")(f)
    return f


def store_options(f: F) -> F:
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


def db_option(f: F) -> F:
    """--db alone, for the commands that read every match (no --match)."""
    return click.option("--db", expose_value=False, callback=_remember, metavar="PATH",
                        help="The database file (default: $PASUR_DB, else the user data folder).")(f)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")(f)


def echo_csv(headers: list[str], rows: list[list[object]]) -> None:
    """CSV (a header row, then ``rows``) on standard output, in UTF-8 whatever the locale's encoding."""
    import sys

    from pasur_cli.render_stats import csv_text
    sys.stdout.flush()
    sys.stdout.buffer.write(csv_text(headers, rows).encode("utf-8"))
    sys.stdout.buffer.flush()


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
