"""`pasur session`: the referee as an interactive loop, for a table that leaves it open all evening.

Each line is read, understood and recorded through the same functions the one-shot commands use
(pasur_cli.store.actions, the engine and render): the session has no rules or storage code of its own.
A play carries the match key and revision its prompt was drawn from (``expect``), so a play
another pasur entered or took back meanwhile is never mistaken for ours, and nothing is recorded
into another match. Before each prompt the session reads the match again: when the file is busy it
says it could not read the latest state (and draws no old position as current); when the match was
deleted or the file replaced or deleted, it says so and ends, recording nothing. A capture choice
is asked before anything is recorded, from the engine's list of legal captures.

Ctrl-C leaves at once, whenever it is pressed (at the capture question it cancels the play): lines
are read by pasur_cli.cli.terminal, whose wait ends at any signal, so a Ctrl-C that arrives while the
prompt is being drawn is never held until the next Enter (as it is with ``input()``); a wait on a
busy file is made of pauses in Python (store.database.Patient), so Ctrl-C ends that too, and the
goodbye then says that the line being recorded was not. Prompts are written only at a terminal;
piped input is read line by line.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

import click

from pasur_cli.cli.app import PasurCommand, current, look, look_options, open_store, store_options
from pasur_cli.cli.questions import ask_capture, ask_tally
from pasur_cli.cli.screen import fit, terminal_width
from pasur_cli.cli.terminal import Reader
from pasur_cli.cli.terminal import lines as terminal_lines
from pasur_cli.cli.typed import Line, read_line
from pasur_cli.engine.deal import check_table_size
from pasur_cli.engine.errors import AmbiguousPlayError, IllegalPlayError, NotationError, PasurError
from pasur_cli.engine.reading import N_, whole_number
from pasur_cli.engine.typos import read_cards
from pasur_cli.store import actions
from pasur_cli.store.errors import BusyError, GoneError, NoMatchError, StaleError, StoreError
from pasur_cli.store.tables import table_name
from pasur_cli.text import layout, render
from pasur_cli.text.i18n import _, catalog_words

if TYPE_CHECKING:
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.deal import Deal
    from pasur_cli.engine.match import Match
    from pasur_cli.store.database import Expected, Store
    from pasur_cli.text.render import Look

HELP = N_("""Type each card as it is played:
  7c            play 7♣; its capture is worked out (you are asked when there is a choice:
                answer with its number or the cards; Ctrl-C there cancels the play)
  7c 4d         play 7♣ taking 4♦
  5c 9d 3h ks   when a deal waits for its table: the four face-up cards
Cards: rank A 2-10 J Q K (or 1, T), suit C D H S or ♣ ♦ ♥ ♠, any case: 10d, qh, 7♣.
The prompt shows whose turn it is, the cards each player still holds this hand, and the score.
Commands: {show}, {score}, {undo} [N], {tally} (score a deal from its piles), {matches}, {help}, {quit}, \
{review} (the deal just finished: what each play cost), {hint} CARDS (the options of the hand to play).
Ctrl-D and Ctrl-C leave at once; every play is saved the moment it is accepted.""")
HELP_MORE = N_("""Name who played to have a card out of turn refused: sara 7c, 7c sara (or a beginning of the name).
{score} --all shows every deal's table; {new} starts another match of the same players, {new} NAMES... of others.
The arrow keys edit the line and bring back earlier ones.""")
TYPING = 20  # columns the prompt leaves free for what is typed after it ("5c 9d 3h ks" and more)

# The session's commands: the English words, which always work, and each command's word in the
# reader's language. A translation is the word (or words, separated by commas, Latin or Arabic) a player of that
# language types; the first is the one the help shows. tests/test_session.py checks that no
# translated word reads as a card or a mistyped one, nor as another command.
COMMANDS: dict[str, tuple[str, ...]] = {
    "show": ("show",), "score": ("score",), "undo": ("undo",), "tally": ("tally",), "matches": ("matches",),
    "deal": ("deal",), "new": ("new",), "help": ("help", "?", "h"), "review": ("review",), "hint": ("hint",),
    "quit": ("quit", "exit"),  # not "q": a queen typed without its suit must not end the evening
}
COMMAND_WORDS: dict[str, str] = {
    "show": N_("session command word: show"), "score": N_("session command word: score"),
    "undo": N_("session command word: undo"), "tally": N_("session command word: tally"),
    "matches": N_("session command word: matches"), "deal": N_("session command word: deal"),
    "new": N_("session command word: new"),
    "help": N_("session command word: help"), "quit": N_("session command word: quit"),
    "review": N_("session command word: review"), "hint": N_("session command word: hint"),
}


def translated_words(command: str) -> list[str]:
    """The words the reader's language has for a session command (none in English, or while its
    catalog lacks them)."""
    return catalog_words(COMMAND_WORDS[command])


def command_words() -> dict[str, str]:
    """Every word that names a session command, compared as names are (``name_key``: any case,
    Unicode normalization, Arabic or Persian yeh and kaf, with or without the zero-width
    non-joiner), mapped to its command."""
    from pasur_cli.engine.names import name_key
    words = {name_key(word): command for command, english in COMMANDS.items() for word in english}
    for command in COMMANDS:
        for word in translated_words(command):
            words.setdefault(name_key(word), command)  # an English word keeps its meaning
    return words


def shown_word(command: str) -> str:
    """The word the help shows for a command: the reader's language's first, else the English."""
    return next(iter(translated_words(command)), COMMANDS[command][0])


class Cancelled(Exception):
    """The typist cancelled a question (Ctrl-C at the capture choice)."""


class Session:
    """One session at one table: the store, the match id, how to draw and how to read a line."""

    def __init__(self, store: Store, match_id: int, look: Look, read: Reader, at_terminal: bool) -> None:
        self.store, self.mid, self.look, self.read, self.at_terminal = store, match_id, look, read, at_terminal
        self.commands = command_words()
        self.key: str | None = None  # the match's key, read when the session starts
        self.pending: tuple[str, int] | None = None  # a line being recorded, and the store's commits before it
        self.busy = False  # the last line could not read the latest state (and said so)

    def handled(self) -> None:
        """Tell the reader a Ctrl-C was acted on (it cancelled a question, not the session)."""
        handled = getattr(self.read, "handled", None)
        if handled is not None:
            handled()

    def width(self) -> int | None:
        """The terminal's width in columns (at least 40); None when lines are not read from one."""
        return terminal_width() if self.at_terminal else None

    def echo(self, text: str) -> None:
        """Write ``text``; at a terminal a line wider than it breaks between words, not wherever
        the terminal's edge falls."""
        click.echo(fit(text, self.width()))

    def refuse(self, err: Exception) -> None:
        if isinstance(err, StaleError):  # said for the players at the table, not as --expect says it to scripts
            self.echo(_("Error: {message}").format(message=render.stale_text(self.look, err)))
            try:  # and where the match stands now, to look at again
                self.echo(render.position_text(self.look, self.current()))
            except GoneError:  # the next prompt says it
                pass
            except PasurError as later:  # busy: the latest state could not be read, and that is said
                self.echo(_("Error: {message}").format(message=render.error_text(self.look, later)))
            return
        self.echo(_("Error: {message}").format(message=render.error_text(self.look, err)))

    def waiting(self) -> None:
        """Said when the file is found busy: the session waits for it, and Ctrl-C ends the wait."""
        self.echo(self.look.say("{path} is busy (another program is using it): waiting for it; Ctrl-C leaves.",
                                path=self.store.path))

    def state(self) -> tuple[Match, Expected]:
        """The match as stored now, and what a change recorded from it expects. Raises GoneError
        when the file was replaced or deleted, or the match deleted (or another in its place),
        BusyError when the file is busy."""
        self.store.check_file()
        try:
            record, match = self.store.match(self.mid)
        except NoMatchError:
            raise self.gone() from None
        if self.key is None:
            self.key = record.key
        elif record.key != self.key:
            raise self.gone()
        return match, record.expected

    def recording(self, line: str) -> None:
        """Note that ``line`` is being recorded now (what the goodbye says if Ctrl-C ends the wait)."""
        self.pending = (line, self.store.commits)

    def gone(self) -> GoneError:
        return GoneError("match {match} was deleted while this session was open; nothing more can be recorded"
                         " into it.", match=self.mid)

    def current(self) -> Match:
        """The match as stored now, for a command that shows it: another pasur may have recorded
        since the prompt was drawn. Raises StoreError saying the latest state could not be read
        while the database is busy (an older position is never shown as the current one)."""
        try:
            return self.state()[0]
        except BusyError:
            self.busy = True
            raise StoreError("could not read the latest state of match {match}: {path} is busy (another program is"
                             " using it). Try again in a moment.", match=self.mid, path=self.store.path) from None

    def prompt(self, match: Match | None) -> str:
        """The status line and an arrow, leaving at least ``TYPING`` columns to type in; when even
        its shortest form does not leave them, the status line stands above the arrow (broken
        between words when even the whole width is too narrow for it)."""
        width = self.width()
        if width is None:
            return ""
        arrow = " > " if self.look.ascii else " › "
        if match is None:  # the latest state could not be read: no position is shown as current
            return arrow.lstrip()
        line = render.status_line(self.look, match, width=width - TYPING - len(arrow))
        if layout.text_width(line) + len(arrow) <= width - TYPING:
            return line + arrow
        return layout.wrap(render.status_line(self.look, match, width=width), width) + "\n" + arrow.lstrip()

    # -- the loop --------------------------------------------------------------------------
    def run(self) -> None:
        self.store.waiting(self.waiting)
        match, seen = self.state()
        self.echo(render.show_text(self.look, self.mid, match, session=True, width=self.width() or 80,
                                   table=table_name(self.store, self.mid)))
        if match.finished:
            self.echo(self.next_match(match))
        if self.at_terminal:
            self.echo(self.look.say('Type "{help}" for how to enter plays; Ctrl-C or Ctrl-D leaves.',
                                    help=shown_word("help")))
        while True:
            self.pending = None  # a Ctrl-C from here on interrupts no recording
            latest, read = self.latest()
            if read is None:
                return
            if read:
                match, seen = read
            try:
                line = self.read(self.prompt(match if latest else None))
            except EOFError:  # Ctrl-D: the terminal left the cursor after the prompt; end that line first
                if self.at_terminal:
                    self.echo("")
                return
            if not self.carry_out(line, match, seen):
                return

    def latest(self) -> tuple[bool, tuple[Match, Expected] | tuple[()] | None]:
        """Read the match again before a prompt: whether the latest state is known, and the match
        and what a change expects (empty: what was read last stands; None: the match was deleted
        or damaged meanwhile, said here, and the session ends)."""
        if self.busy:  # just said, after waiting: the prompt comes at once, showing no position
            self.busy = False
            return False, ()
        try:
            return True, self.state()
        except BusyError:  # another program holds the database for now: what was read last stands
            self.echo(_("Error: {message}").format(message=self.look.say(
                "could not read the latest state of match {match}: {path} is busy (another program is using"
                " it). What you type is checked against it before it is recorded.",
                match=self.mid, path=self.store.path)))
            return False, ()
        except PasurError as err:  # the match was deleted or damaged meanwhile: nothing more to enter
            self.refuse(err)
            return False, None

    def carry_out(self, line: str, match: Match, seen: Expected) -> bool:
        """Read and carry out one typed line, saying what went wrong; False to leave."""
        if "\x0c" in line:  # Ctrl-L, as in a shell: a clear screen, then the line as typed
            if self.at_terminal:
                click.echo("\x1b[H\x1b[2J", nl=False)
            line = line.replace("\x0c", "")
        try:
            typed = read_line(line, self.commands, match.players)
            return typed is None or self.do(typed, match, seen)
        except GoneError as err:  # the file was replaced or deleted: nothing more to enter
            self.refuse(err)
            return False
        except NoMatchError:
            self.refuse(self.gone())
            return False
        except PasurError as err:
            self.refuse(err)
        except Cancelled:
            self.echo(_("Cancelled: nothing was recorded."))
        return True

    def do(self, line: Line, match: Match, seen: Expected) -> bool:
        """Carry out one typed line; False to leave."""
        command, words = line.command, line.words
        self.check_options(line)
        if command == "elsewhere":
            raise NotationError("`pasur {command}` is not run in the session: leave with {quit}, or type it in"
                                " another terminal. Here: {commands}.", command=words[0], quit=shown_word("quit"),
                                commands=", ".join(shown_word(c) for c in COMMANDS if c != "deal"))
        if command == "session":
            self.echo(_("This is the session already: type a card, or a command without \"pasur\"."))
        elif command == "new":
            self.new(words, line.options, match)
        elif command == "quit":
            return False
        elif command in ("help", "show", "score", "matches", "review", "hint"):
            self.look_at(command, line)
        elif command == "undo":
            self.undo(words, seen)
        elif command == "deal":
            self.table(words, seen, match, line.by)
        elif command == "tally":
            self.tally(match, seen)
        else:
            self.cards(words, match, seen, line.by)
        return True

    def check_options(self, line: Line) -> None:
        """Raise NotationError for an option ``line``'s command does not take (a line that is no
        play at all, "clear; ls --color", is refused first for its words, as not cards)."""
        allowed = {"play": ("by",), "deal": ("by",), "new": ("rules", "rule", "dealer", "solo"), "score": ("all",)}
        for option in line.options:
            if option not in allowed.get(line.command, ()):
                if line.command == "play" and line.words:
                    read_cards(line.words)
                raise NotationError("the session's {command} takes no --{option}; type {help} for what it takes.",
                                    command=line.command, option=option, help=shown_word("help"))

    def look_at(self, command: str, line: Line) -> None:
        """Carry out a command that only shows: help, show, score, matches, review, hint."""
        width = self.width() or 80
        if command == "help":
            shown = {c: shown_word(c) for c in COMMANDS}
            self.echo(layout.help_text(self.look.say(HELP, **shown) + "\n" + self.look.say(HELP_MORE, **shown),
                                       width))
        elif command == "show":
            self.echo(render.show_text(self.look, self.mid, self.current(), session=True, width=width,
                                       table=table_name(self.store, self.mid)))
        elif command == "score":
            self.score(self.current(), "all" in line.options)
        elif command == "matches":
            from pasur_cli.cli.listing import listing
            self.echo(render.matches_text(listing(self.store), width=width))
        else:  # review, hint: the analysis engine, loaded only when asked; written into the session's
            # own scrollback, never through a pager (the lines typed next are the session's, not a pager's)
            from pasur_cli.cli.advice import session_advice
            self.echo(session_advice(self.look, self.store, self.mid, command, line.words))

    def cards(self, words: list[str], match: Match, seen: Expected, by: str | None) -> None:
        """A line of cards: the next deal's table, or a play (nothing to enter once the match is over)."""
        if match.finished:
            team = 2 if " & " in str(match.winner) else 1  # a side of two takes the plural verb
            over = self.look.say_count("The match is over: {winner} won.", "The match is over: {winner} won.", team,
                                       winner=match.winner)
            self.echo(over + " " + self.next_match(match))
        elif match.deal is None:
            self.table(words, seen, match, by)
        else:
            self.play(words, match, seen, by)

    def score(self, match: Match, whole: bool) -> None:
        """The score tables: every deal's when asked (``score --all``) or when they fit the
        terminal's rows, else the last deal's and the match's. Written into the session's own
        scrollback, never through a pager: the lines typed next are the session's."""
        from pasur_cli.cli.screen import rows
        width = self.width() or 80
        text = render.score_text(self.look, match, width=width)
        if whole or not self.at_terminal or text.count("\n") + 2 <= rows():
            self.echo(text)
        else:
            self.echo(render.score_text(self.look, match, width=width, brief=shown_word("score") + " --all"))

    def next_match(self, match: Match) -> str:
        """The offer of the next match, once this one is over."""
        return self.look.say("Type {new} for another match of {players}, {new} NAMES... for other players, or {quit}"
                             " to leave.", new=shown_word("new"), players=", ".join(match.players),
                             quit=shown_word("quit"))

    def new(self, words: list[str], options: dict[str, list[str]], match: Match) -> None:
        """Start a match and go on with it: the same players (and rules) as this one, or ``words``;
        ``options`` as `pasur new` takes them (--rules, --rule, --dealer, --solo)."""
        from pasur_cli.engine.match import Match as Fresh
        from pasur_cli.engine.names import check_players
        from pasur_cli.engine.rules import parse_rules
        names = check_players(words) if words else list(match.players)
        rules = match.rules
        if {"rules", "rule", "solo"} & options.keys():
            preset = options.get("rules") or ["standard"]
            if len(preset) != 1:
                raise NotationError("--rules takes one preset, e.g. --rules pagat.")
            rules = parse_rules(preset[0], [*options.get("rule", []), *(["teams=false"] if "solo" in options else [])])
        seat = 0
        if options.get("dealer"):
            seat = names.index(Fresh(names, rules).player_named(" ".join(options["dealer"])))
        elif names == list(match.players):  # the same table: the deal goes round as it would have
            seat = names.index(match.dealer)
        mid = self.store.create(names, rules, seat)
        fresh = Fresh(names, rules, seat)
        left, self.mid, self.key = self.mid, mid, None  # the new match's key is read at the next prompt
        self.echo(render.new_text(mid, fresh).split("\n")[0])
        if not match.finished:  # typed mid-match: the one left is kept, and can be taken up again
            self.echo(self.look.say("Match {left} is not over and stays as it is: `pasur --match {left} session`"
                                    " goes on with it.", left=left))
        self.echo(render.awaiting_text(fresh, session=True) or "")

    def undo(self, args: list[str], seen: Expected) -> None:
        count = whole_number(args[0], 6) if len(args) == 1 else 1 if not args else None
        if not count:
            raise NotationError("undo takes a number of actions, e.g. undo 2; not {text!r}.", text=" ".join(args))
        self.recording(" ".join(["undo", *args]))
        _dropped, words, match = actions.take_back(
            self.store, self.mid, count, expect=seen,
            describe=lambda action: _("Took back {action}.").format(action=render.describe_action(self.look, action)),
            reopened=lambda winner: render.reopened_text(self.mid, winner))
        for line in words:
            self.echo(line)
        self.echo(render.position_text(self.look, match))

    def tally(self, match: Match, seen: Expected) -> None:
        """Score the next deal from its piles, asked side by side as `pasur tally` asks."""
        try:
            piles, counts, surs = ask_tally(match, self.read, self.look, width=self.width())
        except (KeyboardInterrupt, EOFError):  # Ctrl-C or Ctrl-D at one of its questions
            self.handled()
            self.echo("")
            raise Cancelled from None
        from pasur_cli.text.tally_input import build_action
        action = build_action(match, piles, counts, surs, partial=False)
        self.recording(shown_word("tally"))
        _result, match = actions.enter_tally(self.store, self.mid, action, expect=seen)
        self.echo(render.score_text(self.look, match, only_last=True, width=self.width() or 80))
        awaited = render.awaiting_text(match, session=True)
        if awaited:
            self.echo(awaited)
        if match.finished:
            self.echo(self.next_match(match))

    def table(self, words: list[str], seen: Expected, match: Match, by: str | None = None) -> None:
        if by is not None and match.player_named(by) != match.dealer:  # a name on a table line: its dealer
            raise IllegalPlayError("{dealer} deals deal {number}, not {by}.", dealer=match.dealer,
                                   number=match.deal_number, by=match.player_named(by))
        cards = read_cards(words)
        check_table_size(cards)
        self.recording(" ".join(words))
        match = actions.enter_table(self.store, self.mid, cards, expect=seen)
        self.echo(render.deal_text(self.look, match))

    def play(self, words: list[str], match: Match, seen: Expected, by: str | None = None) -> None:
        deal = match.deal
        assert deal is not None
        if not words:
            example = " ".join(filter(None, [by and by.lower(), "7c"]))
            raise NotationError("which card? Type it, e.g. {example}.", example=example)
        # a rank typed alone ("K") is offered the unseen cards of that rank (the table's, in a take)
        card, *rest = read_cards(words, deal.unseen_cards, deal.table)
        with suppress(AmbiguousPlayError):  # out of turn: refused before any question, as `play --by` is
            match.verify_play(card, rest or None, by)
        take = rest or self.choose(card, deal)
        self.recording(" ".join([*words[:1], *(c.code for c in take or [])]) if take else " ".join(words))
        record, match = actions.enter_play(self.store, self.mid, card, take, by, expect=seen)
        self.echo(render.play_text(self.look, record, match, session=True, width=self.width() or 80))
        if match.finished:
            self.echo(self.next_match(match))

    def choose(self, card: Card, deal: Deal) -> list[Card] | None:
        """The capture to record: None when the engine has the answer, else the typist's choice
        (pasur_cli.cli.questions asks it); Ctrl-C or Ctrl-D there cancels the play."""
        try:
            return ask_capture(card, deal, self.read, self.look, self.echo, self.refuse, prompted=self.at_terminal)
        except KeyboardInterrupt:
            self.handled()
            self.echo("")
            raise Cancelled from None
        except EOFError:  # Ctrl-D: the cursor is after the question; end that line first
            if self.at_terminal:
                self.echo("")
            raise Cancelled from None


def run(store: Store, match_id: int, look: Look, read: Reader | None = None) -> None:
    """The session on ``store``'s match ``match_id``; ``read`` reads a line after a prompt (by
    default the terminal's, or standard input line by line when it is not a terminal)."""
    if read is not None:
        _run(Session(store, match_id, look, read, True))
        return
    with terminal_lines() as (reader, at_terminal):
        _run(Session(store, match_id, look, reader, at_terminal))


def _run(session: Session) -> None:
    try:
        session.run()
    except KeyboardInterrupt:
        session.echo("")
        pending = session.pending
        if pending is not None and session.store.commits == pending[1]:  # left while it was being recorded
            session.echo(session.look.say("{line} was not recorded; everything accepted before it is saved. Bye.",
                                          line=pending[0]))
            return
    session.echo(_("Everything is saved. Bye."))


@click.command(cls=PasurCommand)
@store_options
@look_options
@click.pass_context
def session(ctx: click.Context) -> None:
    """Referee the current match interactively: type each play, get the capture and the score.

    \b
    In the session, type:
      7c            play 7♣ (asked which capture when there is a choice)
      7c 4d         play 7♣ taking 4♦
      5c 9d 3h ks   the four table cards of a deal
      sara 7c       Sara plays 7♣ (refused when it is not her turn)
      show          the deal: table, piles, the race, whose turn
      score         the score tables (the last deal's when all do not fit)
      score --all   every deal's table (scroll back to read it all)
      undo [N]      take back the last action (or N), show the position
      tally         score the next deal from its piles, side by side
      review        the deal just finished: what each play cost
      hint CARDS    the options of the hand to play (CARDS), best first
      matches       every match
      new [NAMES]   another match: of the same players, or of NAMES
      help, quit    (Ctrl-D and Ctrl-C also leave; everything is saved)
    """
    import gc
    gc.enable()  # a session lives for hours: its cycles are collected (see PasurGroup.invoke)
    store = open_store(ctx, write=True)
    store.hold_little()  # a session lives for hours: its memory does not grow with the match
    mid = current(ctx, store, change=True)[0]
    run(store, mid, look(ctx))
