"""The thin click layer: the `pasur` group, what its commands share, and the process's exit.

Each command lives in its own module under pasur_cli/cli/commands, imported only when that command
runs. Engine errors become exit codes here: bad notation or input 2, an illegal or ambiguous
play 1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from importlib import import_module
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pasur_cli.cli import process
from pasur_cli.cli.screen import OutputFailed, is_terminal
from pasur_cli.engine.errors import NotationError, PasurError
from pasur_cli.engine.reading import N_, whole_number
from pasur_cli.text import i18n
from pasur_cli.text.i18n import _

if TYPE_CHECKING:  # annotations only: the store and render are imported when a command needs them
    from click.shell_completion import CompletionItem

    from pasur_cli.engine.match import Match
    from pasur_cli.store.database import Store
    from pasur_cli.text.render import Look

F = TypeVar("F", bound=Any)  # a command function, as the option decorators take and return it
T = TypeVar("T")


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


# The placeholders click shows for what a command takes (its metavars: in the usage line, beside
# each option in help, in an error that names an argument), each written as the reader's language
# has it ("pasur deal [OPTIONEN] KARTEN..."); what a person types (commands, options) stays English.
PLACEHOLDERS = frozenset({
    N_("CARD"), N_("CARDS"), N_("NAME"), N_("PLAYERS"), N_("VALUE"), N_("ID"), N_("PATH"), N_("FILE"),
    N_("REVISION"), N_("PRESET"), N_("CODE"), N_("COUNT"), N_("SIDE"), N_("N"), N_("K"), N_("V"), N_("P"),
    N_("OPTIONS"), N_("COMMAND"), N_("ARGS"), N_("NAMES"), N_("TABLE"), N_("SCORE"),
})


def placeholders(text: str) -> str:
    """``text`` (a usage line, a metavar, an error's hint) with each placeholder word in it in the
    chosen language; the rest (``--take``, ``=``, ``...``) as it is."""
    if i18n.language() == "en":
        return text
    import re  # loaded by click already
    return re.sub(r"\b[A-Z]+\b", lambda word: _(word[0]) if word[0] in PLACEHOLDERS else word[0], text)


class Formatter(click.HelpFormatter):
    """click's help formatter, writing placeholders in the chosen language (``placeholders``) in the
    usage line and in the first column of the options (option names and their metavars)."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, placeholders(args), prefix)

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(placeholders(term), text) for term, text in rows], col_max, col_spacing)


class Context(click.Context):
    formatter_class = Formatter


class Translated(click.Command):
    """Help texts are English strings fixed at import time: they are translated here, when help is
    written or offered to shell completion, so the language chosen for this run (after import)
    applies; so are the placeholders (``Formatter``, and an argument named in an error). In English
    nothing changes (the man pages are written through the same methods)."""

    context_class = Context

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """click's parsing; an error that names an argument names it by its placeholder in the
        chosen language ("Missing argument 'KARTEN...'")."""
        try:
            return super().parse_args(ctx, args)
        except click.BadParameter as err:
            if err.param_hint is None and err.param is not None:
                err.param_hint = placeholders(err.param.get_error_hint(ctx))
            raise

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
    "stats": "stats", "review": "review", "hint": "hint", "practice": "practice", "serve": "serve",
    "event": "event",
}

BIGGEST = 2**63 - 1  # the largest id or count SQLite holds


if TYPE_CHECKING:  # a recent click types ParamType by its value; an older one (pasur takes 8.1) cannot subscript it
    _IntType = click.ParamType[int]
else:
    _IntType = click.ParamType


class Count(_IntType):
    """A whole number from ``least`` up to BIGGEST: the type of every id and count pasur takes on its
    command line. Read in the decimal digits of any script, as ``reading.whole_number`` reads them
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
            number = whole_number(str(value), self.DIGITS)
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
        import gc
        # A command that ends once it has printed runs with Python's cycle collector off: the
        # collector would walk every object made so far again and again while a long match or a whole
        # record book is read; what it frees, the end frees. The process starts with it off
        # (``pasur_cli.cli.run``); the session and the scoreboard, which run for hours, turn it on,
        # and each command typed in the session pauses it here.
        pause = gc.isenabled()
        if pause:
            gc.disable()
        try:
            return super().invoke(ctx)
        except PasurError as err:
            raise refuse(err, ctx) from None
        except OSError as err:
            if process.output_error(err):
                raise OutputFailed(err) from None
            raise
        except Exception as err:
            import sqlite3  # already loaded whenever a database was touched
            if isinstance(err, sqlite3.Error):  # the store names the file; this is the last safety net
                text = _("pasur cannot use its database ({error}); nothing was changed.")
                raise Refused(text.format(error=err)) from None
            raise
        finally:
            if pause:
                gc.enable()


def _remember(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    if value is not None and value is not False:
        from click.core import ParameterSource
        key = f"pasur.{param.name}"
        # `pasur --match 2 show` with PASUR_MATCH=1: the command's option, read from the variable,
        # does not undo the group's, typed
        if key not in ctx.meta or ctx.get_parameter_source(param.name or "") is not ParameterSource.ENVIRONMENT:
            ctx.meta[key] = value
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
    f = click.option("--match", "match_id", type=MatchId(1), expose_value=False, callback=_remember,
                     metavar="ID", envvar="PASUR_MATCH", show_envvar=False,
                     help="The match to use (default: $PASUR_MATCH, else the most recently used unfinished match;"
                          " a change is refused while several matches are in play).")(f)
    f = click.option("--db", expose_value=False, callback=_remember,
                     metavar="PATH", help="The database file (default: $PASUR_DB, else the user data folder).")(f)
    return f


# -- shell completion (click's own mechanism; see the README) -------------------------------
def complete_presets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    from pasur_cli.engine.rules import PRESETS
    return [p for p in PRESETS if p.startswith(incomplete.lower())]


def _read(ctx: click.Context, read: Callable[[Store], T], nothing: T) -> T:
    """``read(store)`` on the database this command line names, or ``nothing`` when there is none
    or it cannot be read (damaged, busy): completion never fails loudly."""
    from pasur_cli.store.database import Store
    try:
        store = Store(ctx.find_root().meta.get("pasur.db", ctx.meta.get("pasur.db")))
    except Exception:  # no database means nothing to offer
        return nothing
    try:
        return read(store)
    except Exception:  # as above: a damaged or busy database offers nothing
        return nothing
    finally:
        store.close()


def _players(ctx: click.Context, every: bool) -> list[str]:
    """The players of the match --match names, else of the current one, or (``every``) of every
    match in the database, most recently played first; none when there is nothing to read."""
    if every:
        return _read(ctx, lambda store: list(dict.fromkeys(p for mid in store.match_ids()
                                                             for p in store.summary(mid)[0])), [])
    return _read(ctx, lambda store: list(current(ctx, store)[1].players), [])


def _starting(names: list[str], incomplete: str, suffix: str = "") -> list[str]:
    """The ``names`` that ``incomplete`` begins, compared as names are (``ali`` finds Ali), each
    followed by ``suffix``."""
    from pasur_cli.engine.names import name_key
    return [name + suffix for name in names if name_key(name).startswith(name_key(incomplete))]


def complete_player(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The current match's players (for --by)."""
    return _starting(_players(ctx, every=False), incomplete)


def complete_known_player(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Every player the database knows, and those already named on this command line (`new`'s)."""
    named = [p for p in (ctx.params.get("players") or ctx.args) if isinstance(p, str)]  # args: click's completion
    return _starting(list(dict.fromkeys([*named, *_players(ctx, every=True)])), incomplete)


def complete_side(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """A side named by one of its players, then what follows it: ``Ali=`` for --pile and --surs,
    ``Ali:`` for --count (a player's name stands for the side, and has no spaces as a team's has)."""
    suffix = ":" if param.name == "counts" else "="
    if suffix in incomplete:
        return []
    return _starting(_players(ctx, every=False), incomplete, suffix)


def complete_cards(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """For a card played or held (play's CARD, hint's CARD...): the cards that can still be in a
    hand of the deal being played (not on the table, played or captured), but those already named
    on this line; for --take: the table's cards."""
    from pasur_cli.engine.cards import parse_card
    deal = _read(ctx, lambda store: current(ctx, store)[1].deal, None)
    if deal is None:
        return []
    if param.name == "take_text":
        cards = list(deal.table)
    else:
        named = set()
        for word in ctx.params.get(param.name or "") or ():
            with suppress(PasurError):  # a word that is no card names none
                named.add(parse_card(word))
        cards = [c for c in deal.unseen_cards if c not in named]
    return [c.code for c in cards if c.code.startswith(incomplete.upper())]


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


class MatchId(Count):
    """What --match takes: a match's id, as ``Count`` reads it; from PASUR_MATCH, refused naming
    that variable (the command line then holds no --match to blame)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as err:
            from click.core import ParameterSource
            if ctx is not None and param is not None and param.name is not None \
                    and ctx.get_parameter_source(param.name) is ParameterSource.ENVIRONMENT:
                err.param, err.param_hint = None, "PASUR_MATCH"
            raise


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


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from pasur_cli import __version__
        click.echo(f"pasur {__version__}")
        ctx.exit()


@click.group(cls=PasurGroup)
@store_options
@look_options
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and exit.")
def main() -> None:
    """Referee and scorekeeper for Pasur, the Iranian fishing card game."""


def run() -> None:
    """The `pasur` process (the console script, `python -m pasur_cli`): see ``process.run``."""
    process.run(main)


# -- the match ----------------------------------------------------------------------------
def open_store(ctx: click.Context, write: bool = False, create: bool = False) -> Store:
    """The database named by --db / PASUR_DB / the data folder, closed when the command ends.
    Only ``create`` (new, import) makes the file when it does not exist."""
    import sys

    from pasur_cli.store.database import Store
    path = ctx.meta.get("pasur.db")
    waiting = None
    if is_terminal(sys.stderr):  # a person waits: say why nothing happens yet
        def waiting() -> None:
            from pasur_cli.store.paths import default_path
            from pasur_cli.text.render import Look
            look = Look.detect(ascii=ctx.meta.get("pasur.ascii", False), no_color=True, stream=sys.stderr)
            click.echo(look.say("{path} is busy (another program is using it): waiting for it; Ctrl-C leaves.",
                                path=path if path is not None else default_path()), err=True)
    store = Store(path, write=write, create=create, waiting=waiting)

    def close() -> None:
        try:
            for mid, deal in sorted(store.mismatched.items()):  # figures recomputed: say so, as for damage
                click.echo(look(ctx).say("Match {match}: the stored figures of deal {deal} do not match its log;"
                                         " what is shown was recomputed from the log.", match=mid, deal=deal),
                           err=True)
        finally:
            store.close()
    ctx.call_on_close(close)
    process.opened(store)
    return store


def current(ctx: click.Context, store: Store, change: bool = False) -> tuple[int, Match]:
    """(id, replayed match) of --match (or PASUR_MATCH), else the store's current match
    (``Store.current``). ``change``: the command means to change it, and is refused, listing the
    tables in play, when it names no match and several are in play."""
    from pasur_cli.store.errors import ChooseMatchError
    try:
        return store.current(ctx.meta.get("pasur.match_id"), change)
    except ChooseMatchError as err:
        import sys

        from pasur_cli.text.render import Look
        from pasur_cli.text.render_tables import choose_text
        look = Look.detect(ascii=ctx.meta.get("pasur.ascii", False), no_color=ctx.meta.get("pasur.no_color", False),
                           stream=sys.stderr)
        raise Refused(choose_text(look, err)) from None


def say_which(ctx: click.Context, store: Store, match_id: int) -> None:
    """For a read that named no match, shown as text: when other matches are in play, say on stderr
    which one it shows and how to choose another."""
    if ctx.meta.get("pasur.match_id") is not None:
        return
    from pasur_cli.store.tables import in_play, table_name
    others = [t for t in in_play(store) if t.id != match_id]
    if others:
        import sys

        from pasur_cli.text.render import Look
        from pasur_cli.text.render_tables import showing_text
        look = Look.detect(ascii=ctx.meta.get("pasur.ascii", False), no_color=True, stream=sys.stderr)
        click.echo(showing_text(look, match_id, table_name(store, match_id), others), err=True)
