"""The thin click layer: the `pasur` group, what its commands share, and the process's exit.

Each command lives in its own module under pasur_cli/cli/commands, imported only when that command
runs. Engine errors become exit codes here: bad notation or input 2, an illegal or ambiguous
play 1.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from importlib import import_module
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pasur_cli.engine.errors import NotationError, PasurError
from pasur_cli.text import i18n
from pasur_cli.text.i18n import ANSWERS as ANSWERS  # where the tests and commands have found them
from pasur_cli.text.i18n import N_, _, answer

if TYPE_CHECKING:  # annotations only: the store and render are imported when a command needs them
    from click.shell_completion import CompletionItem

    from pasur_cli.engine.match import Match
    from pasur_cli.store.database import Store
    from pasur_cli.text.render import Look

F = TypeVar("F", bound=Any)  # a command function, as the option decorators take and return it


class Refused(click.ClickException):
    """An error for the player; exit 2 for bad input, 1 for a refused play."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]  # click declares it on the class


def refuse(err: PasurError, ctx: click.Context) -> Refused:
    """The refusal a player sees, its cards drawn as stderr wants them (letters under --ascii)."""
    import sys

    from pasur_cli.text.render import Look, message
    look = Look.detect(ascii=ctx.meta.get("pasur.ascii", False), no_color=ctx.meta.get("pasur.no_color", False),
                       stream=sys.stderr)
    return Refused(message(err, look), 2 if isinstance(err, NotationError) else 1)


def _help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


def help_param() -> click.Option:
    """-h/--help as a plain eager flag. click's own (``help_option_names``) translates its help
    text with gettext on every run, which imports locale and looks for catalogues in every
    command, asked for help or not."""
    return click.Option(["-h", "--help"], is_flag=True, expose_value=False, is_eager=True, callback=_help,
                        help=N_("Show this message and exit."))


def _lang(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        i18n.set_language(value)


def complete_lang(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    return [code for code in i18n.LANGUAGES if code.startswith(incomplete.lower())]


def lang_param() -> click.Option:
    """--lang, on the group and every command. PasurGroup.main reads it before click parses
    anything (so `pasur check --help --lang fa` is Persian too); this callback is for a command
    invoked on its own."""
    return click.Option(["--lang"], metavar="CODE", expose_value=False, is_eager=True, callback=_lang,
                        shell_complete=complete_lang,
                        help=N_("Language: en, fa, de or es (default: $PASUR_LANG, else the locale's)."))


class Translated(click.Command):
    """Help texts are English strings fixed at import time: they are translated here, when help is
    written or offered to shell completion, so the language chosen for this run (after import)
    applies. In English nothing changes (the man pages are written through the same methods)."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _translated([self, *self.get_params(ctx)]):
            super().format_help(ctx, formatter)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """The completions click offers, each option's description in the chosen language (a
        command's comes from get_short_help_str, below)."""
        with _translated(self.get_params(ctx)):
            return super().shell_complete(ctx, incomplete)

    def get_short_help_str(self, limit: int = 45) -> str:
        saved = self.help
        self.help = _help_text(saved)
        try:
            return super().get_short_help_str(limit)
        finally:
            self.help = saved


@contextmanager
def _translated(owners: Sequence[Any]) -> Iterator[None]:
    """While inside, the help text of each command or parameter in ``owners`` is in the chosen
    language; afterwards the English one again."""
    saved = [owner.help for owner in owners]
    for owner in owners:
        owner.help = _help_text(owner.help)
    try:
        yield
    finally:
        for owner, text in zip(owners, saved, strict=True):
            owner.help = text


def _help_text(text: str | None) -> str | None:
    """A help text in the chosen language; its message id is the text as click shows it (the
    docstring with its indentation removed)."""
    if not text or i18n.language() == "en":
        return text
    import inspect
    cleaned = inspect.cleandoc(text)  # extracted as such by i18n_tools.extract
    return _(cleaned)


class PasurCommand(Translated):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "add_help_option": False})
        self.params.extend([lang_param(), help_param()])


# command: its module in pasur_cli/cli/commands (the order of `pasur --help` is alphabetical; this
# order is the man page's)
COMMANDS = {
    "check": "check", "rules": "rules", "new": "new", "deal": "deal", "play": "play", "undo": "undo",
    "show": "show", "score": "score", "matches": "matches", "session": "session", "tally": "tally",
    "export": "export", "import": "import_", "delete": "delete", "log": "log",
    "stats": "stats", "review": "review", "hint": "hint",
}

BIGGEST = 2**63 - 1  # the largest id or count SQLite holds


if TYPE_CHECKING:  # a recent click types ParamType by its value; an older one (pasur takes 8.1) cannot subscript it
    _IntType = click.ParamType[int]
else:
    _IntType = click.ParamType


class Count(_IntType):
    """A whole number from ``least`` up to BIGGEST: the type of every id and count pasur takes on its
    command line. Read in the decimal digits of any script, as ``i18n.whole_number`` reads them
    (Persian ۱۲ is 12); refused with a sentence in the reader's language (click's IntRange names
    itself "integer range" in English in its refusal) and shown in help without click's range
    (``[1<=x<=9223372036854775807]``)."""

    name = "count"
    DIGITS = 40  # more than BIGGEST has, leading zeros allowed; a longer number is too large unread

    def __init__(self, least: int) -> None:
        self.least = least

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):  # a default, already a number
            number: int | None = value
        else:
            number = i18n.whole_number(str(value), self.DIGITS)
        if number is not None and self.least <= number <= BIGGEST:
            return number
        from pasur_cli.text.render import Look  # a refusal only: not on every command's start-up path
        text = str(value)
        shown = text if len(text) <= 30 else text[:29] + "…"
        look = Look(rtl=i18n.is_rtl())
        if text.strip().isdecimal() and (number is None or number > BIGGEST):
            self.fail(look.say("{value!r} is too large: the largest number pasur takes is {most}.", value=shown,
                               most=BIGGEST), param, ctx)
        self.fail(look.say("{value!r} is not a whole number of {least} or more.", value=shown, least=self.least),
                  param, ctx)


def confirm(question: str) -> bool:
    """Ask ``question`` (a sentence in the chosen language) at the terminal until the answer is yes or
    no in that language or in English; an empty answer, Ctrl-C and the end of input are no."""
    suffix = _("[y/N]")
    while True:
        try:
            typed = click.prompt(question + " " + suffix, default="", show_default=False, prompt_suffix=": ")
        except click.Abort:  # Ctrl-C or the end of input
            click.echo()
            return False
        said = answer(typed, i18n.language())
        if said is not None:
            return said
        click.echo(_("Please answer y (yes) or n (no)."))


class OutputFailed(Exception):
    """Writing the output failed (a closed pipe, a full disk): carried past click, which would
    otherwise end the process quietly on a closed pipe, to run()."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def _output_error(err: OSError) -> bool:
    import errno
    return err.errno in (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT)


class PasurGroup(Translated, click.Group):
    """Loads a command's module only when that command is used (defining every command would cost each
    run the time and memory of all of them), chooses the language before anything is written, and turns
    every PasurError into a clean message and exit code."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "add_help_option": False})
        self.params.extend([lang_param(), help_param()])

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        """A command line's language is chosen from --lang and the environment before click parses
        it; a command run from inside another (the session) keeps the language it has."""
        import sys
        line = sys.argv[1:] if args is None else args  # click itself is given args as they were
        if click.get_current_context(silent=True) is None:
            i18n.setup(line)
        elif i18n.option_in(line):
            i18n.set_language(i18n.option_in(line) or "en")
        return super().main(args, *rest, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Refuse an argument that is not text (bytes the locale cannot decode arrive as lone
        surrogates, which no file, database or terminal can hold)."""
        for number, arg in enumerate(args, 1):
            if any("\udc80" <= ch <= "\udcff" or "\ud800" <= ch <= "\udfff" for ch in arg):
                shown = arg.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")
                raise Refused(_("argument {number} ({shown}) is not valid text in this system's encoding"
                                " (UTF-8); nothing was changed.").format(number=number, shown=shown), 2)
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            module = COMMANDS[name]
            self.add_command(getattr(import_module(f"pasur_cli.cli.commands.{module}"), module), name)
        return self.commands.get(name)

    def load_all(self) -> dict[str, click.Command]:
        """Every command, its module loaded (for the man pages and the help tests)."""
        for name in COMMANDS:
            self.get_command(None, name)
        return dict(self.commands)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PasurError as err:
            raise refuse(err, ctx) from None
        except OSError as err:
            if _output_error(err):
                raise OutputFailed(err) from None
            raise
        except Exception as err:
            import sqlite3  # already loaded whenever a database was touched
            if isinstance(err, sqlite3.Error):  # the store names the file; this is the last safety net
                text = _("pasur cannot use its database ({error}); nothing was changed.")
                raise Refused(text.format(error=err)) from None
            raise


def _remember(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
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
    f = click.option("--match", "match_id", type=Count(1), expose_value=False, callback=_remember,
                     metavar="ID",
                     help="The match to use (default: the most recently used unfinished match).")(f)
    f = click.option("--db", expose_value=False, callback=_remember,
                     metavar="PATH", help="The database file (default: $PASUR_DB, else the user data folder).")(f)
    return f


# -- shell completion (click's own mechanism; see the README) -------------------------------
def complete_presets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    from pasur_cli.engine.rules import PRESETS
    return [p for p in PRESETS if p.startswith(incomplete.lower())]


def complete_rule(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Option names with '=', then the values that option takes."""
    from pasur_cli.engine.rules import BOOLS, CHOICES, OPTION_NAMES
    name, sep, _ = incomplete.partition("=")
    if not sep:
        return [f"{n}=" for n in OPTION_NAMES if n.startswith(name.lower())]
    values = CHOICES.get(name) or (("true", "false") if name in BOOLS else ())
    return [f"{name}={v}" for v in values if f"{name}={v}".startswith(incomplete)]


def db_option(f: F) -> F:
    """--db alone, for the commands that read every match (no --match)."""
    return click.option("--db", expose_value=False, callback=_remember, metavar="PATH",
                        help="The database file (default: $PASUR_DB, else the user data folder).")(f)


if TYPE_CHECKING:
    from pasur_cli.store.database import Expected
    _RevisionType = click.ParamType[Expected]
else:
    _RevisionType = click.ParamType


class Revision(_RevisionType):
    """What ``--expect`` takes: a match's revision as `show --json` reports it (``KEY:N``), or a
    bare number N (the revision alone; until the match's first undo it equals the log's length,
    which scripts read before there were revisions). Read into a ``store.Expected``."""

    name = "revision"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Expected:
        from pasur_cli.store.database import Expected, parse_expected
        if isinstance(value, Expected):
            return value
        found = parse_expected(str(value))
        if found is not None:
            return found
        from pasur_cli.text.render import Look  # a refusal only
        text = str(value)
        shown = text if len(text) <= 30 else text[:29] + "…"
        self.fail(Look(rtl=i18n.is_rtl()).say("{value!r} is not a revision: give \"revision\" from"
                                              " `pasur show --json`, or a number.", value=shown), param, ctx)


def expect_option(f: F) -> F:
    """--expect REVISION on every command that changes a match: refuse, changing nothing, unless the
    match is the one and at the revision that `show --json` reported (its "revision"), so a script
    never records into a match that moved under it, nor into another match."""
    return click.option("--expect", type=Revision(), metavar="REVISION",
                        help="Refuse, changing nothing, unless the match is still at REVISION"
                             " (\"revision\" in show --json; a bare number is compared with the"
                             " revision, which is the log's length until the match's first undo).")(f)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")(f)


def echo_csv(headers: list[str], rows: list[list[object]]) -> None:
    """CSV (a header row, then ``rows``) on standard output, in UTF-8 whatever the locale's encoding."""
    import sys

    from pasur_cli.text.render_stats import csv_text
    text = csv_text(headers, rows).encode("utf-8")
    out = sys.stdout
    if out is None:  # started with standard output closed: said as any failed write is (cli.run)
        import errno
        import os
        raise OutputFailed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
    out.flush()
    out.buffer.write(text)
    out.buffer.flush()


def rule_options(f: F) -> F:
    f = click.option("--rule", "overrides", multiple=True, metavar="NAME=VALUE", shell_complete=complete_rule,
                     help="Override one rule option (repeatable); see `pasur rules`.")(f)
    f = click.option("--rules", "preset", default="standard", show_default=True, metavar="PRESET",
                     shell_complete=complete_presets,
                     help="Rule preset: standard or pagat.")(f)
    return f


def look(ctx: click.Context) -> Look:
    from pasur_cli.text.render import Look
    return Look.detect(ascii=ctx.meta.get("pasur.ascii", False), no_color=ctx.meta.get("pasur.no_color", False))


def terminal_width() -> int:
    """The width text is fitted to: the terminal's columns (COLUMNS when set), 80 when output
    is not a terminal (piped into a file or a pager), never under 40.

    As shutil.get_terminal_size, written out: importing shutil (it loads zlib, bz2 and lzma)
    measured more than the 2 ms of start-up a standard part may cost here, in every command that
    prints (python -X importtime -c "import click, shutil"; README, Performance)."""
    import os
    import sys
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return max(columns or 80, 40)


def echo(text: str) -> None:
    """Write ``text`` on standard output; at a terminal every line wider than it is broken between
    words (the tables are fitted to it already and keep their layout)."""
    import sys
    click.echo(fit(text, terminal_width() if sys.stdout is not None and sys.stdout.isatty() else None))


def fit(text: str, width: int | None) -> str:
    """``text`` with every line wider than ``width`` broken between words (render.wrap); as it is
    when ``width`` is None."""
    if width is None:
        return text
    from pasur_cli.text.render import wrap
    return wrap(text, width)


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from pasur_cli import __version__
        click.echo(f"pasur {__version__}")
        ctx.exit()


def _show(err: click.ClickException) -> None:
    """Write an error as click does; at a terminal its lines broken between words at its width."""
    import sys
    if sys.stderr is None or not sys.stderr.isatty():
        err.show()
        return
    import io
    said = io.StringIO()
    err.show(file=said)
    sys.stderr.write(fit(said.getvalue().rstrip("\n"), terminal_width()) + "\n")


def _output_failed(err: OSError, code: int) -> int:
    """Say once, on standard error, that the output could not be written; the exit code stays 0
    when a change was already committed (the change happened: saying "error" would make the
    table enter it again), else 1."""
    import os

    from pasur_cli.text.i18n import _
    done = any(store.commits for store in _OPENED)
    reason = err.strerror or type(err).__name__
    line = _("pasur: the output could not be written ({reason}); the change was recorded.") if done else \
        _("pasur: the output could not be written ({reason}).")
    with suppress(OSError):
        os.write(2, (line.format(reason=reason) + "\n").encode("utf-8", "replace"))
    return 0 if done else (code or 1)


def _watched() -> bool:
    """Whether a tracer, a profiler or coverage is running: they report (or save) at exit."""
    import sys
    if sys.gettrace() is not None or sys.getprofile() is not None or "coverage" in sys.modules:
        return True
    monitoring = getattr(sys, "monitoring", None)  # Python 3.12+: tools such as 3.12's cProfile
    return monitoring is not None and any(monitoring.get_tool(tool) is not None for tool in range(6))


def run() -> None:
    """The `pasur` process (the console script and `python -m pasur_cli`): main(), then exit.

    Output a terminal cannot encode is written with replacement characters, and output that
    cannot be written at all (a closed pipe, a full disk) gets one line on standard error, never
    a traceback; after a committed change the exit code stays 0.

    Once a command has finished, every change is committed and its database closed, so the
    process leaves with os._exit after flushing its output instead of tearing the interpreter
    down (freeing the objects of every module click imports is a good share of a short command's
    run). A bug's traceback still takes Python's normal way out, and so does every run
    under a tracer, profiler or coverage (`python -m cProfile -m pasur_cli ...`), which report at
    exit.
    """
    import os
    import sys
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError, OSError):  # None (closed) or not a text file
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
    try:
        try:
            code = main.main(prog_name="pasur", standalone_mode=False) or 0
            code = code if isinstance(code, int) else 0
        except click.exceptions.Exit as stop:
            code = stop.exit_code
        except click.ClickException as err:
            _show(err)
            code = err.exit_code
        except click.Abort:
            from pasur_cli.text.i18n import _
            click.echo(_("Aborted!"), err=True)
            code = 1
    except (OSError, OutputFailed) as failure:  # writing the output failed (EPIPE, ENOSPC, EIO)
        failed = failure.error if isinstance(failure, OutputFailed) else failure
        code, said = _output_failed(failed, 1), True
    else:
        said = False
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with that descriptor closed
            continue
        try:
            stream.flush()
        except OSError as err:  # the reader went away or the disk is full
            if not said:
                code, said = _output_failed(err, code), True
            # a stream that cannot be written goes nowhere from now on, so that Python's own exit
            # (under a tracer) does not flush it again and complain
            with suppress(AttributeError, ValueError, OSError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
                stream.flush()
    if not _watched():
        os._exit(code)
    sys.exit(code)


@click.group(cls=PasurGroup)
@store_options
@look_options
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and exit.")
def main() -> None:
    """Referee and scorekeeper for Pasur, the Iranian fishing card game."""


# -- the match ----------------------------------------------------------------------------
def open_store(ctx: click.Context, write: bool = False, create: bool = False) -> Store:
    """The database named by --db / PASUR_DB / the data folder, closed when the command ends.
    Only ``create`` (new, import) makes the file when it does not exist."""
    from pasur_cli.store.database import Store
    store = Store(ctx.meta.get("pasur.db"), write=write, create=create)
    ctx.call_on_close(store.close)
    _OPENED.append(store)
    return store


# The stores this process opened: once one has committed a change, output that fails afterwards
# must not turn the command into a failure (the exit code is the command line's, not the store's).
_OPENED: list[Store] = []


def current(ctx: click.Context, store: Store) -> tuple[int, Match]:
    """(id, replayed match) of --match, else of the most recently changed match that is not
    finished, else of the most recent one (so `pasur score` still shows a match just won)."""
    from pasur_cli.store.database import StoreError
    chosen = ctx.meta.get("pasur.match_id")
    if chosen is not None:
        return chosen, store.match(chosen)[1]
    ids = store.match_ids()
    for mid in ids:  # a damaged match on the way is refused (DamagedError), never skipped silently
        match = store.match(mid)[1]
        if not match.finished:
            return mid, match
    if ids:
        return ids[0], store.match(ids[0])[1]
    raise StoreError("there is no match yet: start one with `pasur new NAME NAME`.")
