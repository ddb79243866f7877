"""`pasur session`: the referee as an interactive loop.

Every line becomes one of the one-shot commands, run in-process through the same click app, so
the session has no rules or storage code of its own. Plays carry the log length the prompt was
drawn from (--expect), so a play entered by another pasur meanwhile is never mistaken for ours.
Prompts are written only at a terminal; piped input works line by line.
"""

from __future__ import annotations

import sys

import click

from pasur_cli.cli import PasurCommand, current, look_options, main, open_store, store_options
from pasur_cli.store import Store

HELP = """Type a play as the card, then the cards it takes if you want to name them:
  7c            play 7♣ (its capture is worked out; you are asked when there is a choice)
  7c 4d         play 7♣ taking 4♦
  5c 9d 3h ks   (when a deal is waiting for its table) the four face-up cards
Commands: show, score, undo [N], deal C C C C, matches, help, quit (Ctrl-D and Ctrl-C also leave;
everything is already saved)."""


def _run(args: list[str]) -> click.ClickException | None:
    """Run one pasur command in-process; return its refusal, if any (it has been printed)."""
    try:
        main.main(args=args, prog_name="pasur", standalone_mode=False)
    except click.ClickException as err:
        click.echo(f"Error: {err.format_message()}")
        return err
    except click.exceptions.Exit:
        pass
    return None


def _state(meta: dict, mid: int):
    """The match as stored now, and how many actions its log holds (for --expect)."""
    store = Store(meta.get("pasur.db"))
    try:
        record, match = store.match(mid)
        return match, record.length
    finally:
        store.close()


def _prompt(match) -> str:
    if match.finished:
        return "match over> "
    if match.deal is None:
        return f"deal {match.deal_number} table ({match.dealer} deals)> "
    return f"{match.deal.turn} plays> "


def run(meta: dict, mid: int) -> None:
    """The loop; ``meta`` holds the global options (--db, --ascii, --no-color), ``mid`` the match."""
    base = ["--match", str(mid)]  # the group's options, so they go before any command
    if meta.get("pasur.db"):
        base = ["--db", str(meta["pasur.db"]), *base]
    for flag in ("ascii", "no_color"):
        if meta.get(f"pasur.{flag}"):
            base.append("--" + flag.replace("_", "-"))
    at_terminal = sys.stdin.isatty()
    _run([*base, "show"])
    if at_terminal:
        click.echo('Type "help" for how to enter plays.')
    while True:
        match, seen = _state(meta, mid)
        try:
            if at_terminal:
                line = input(_prompt(match))
            else:
                line = sys.stdin.readline()
                if not line:
                    break
        except (EOFError, KeyboardInterrupt):
            break
        words = line.replace(",", " ").split()
        if not words:
            continue
        word = words[0].lower()
        if word in ("quit", "exit", "q"):
            break
        if word in ("help", "?", "h"):
            click.echo(HELP)
        elif word in ("show", "score", "matches"):
            _run([*base, word])
        elif word == "undo":
            _run([*base, "undo", *words[1:]])
        elif word == "deal":
            _run([*base, "deal", *words[1:], "--expect", str(seen)])
        elif match.deal is None and not match.finished and len(words) == 4:
            _run([*base, "deal", *words, "--expect", str(seen)])
        else:
            _play(words, base, seen, at_terminal)
    click.echo("Everything is saved. Bye.")


def _play(words: list[str], base: list[str], seen: int, at_terminal: bool) -> None:
    args = [*base, "play", words[0], "--expect", str(seen)]
    if len(words) > 1:
        args += ["--take", " ".join(words[1:])]
    refused = _run(args)
    options = getattr(refused, "options", None)
    if not options:
        return
    try:
        answer = input(f"Which capture? 1-{len(options)} (Enter: none) ") if at_terminal else sys.stdin.readline()
    except (EOFError, KeyboardInterrupt):
        return
    answer = answer.strip()
    if answer.isdecimal() and 1 <= int(answer) <= len(options):
        _run([*args, "--take", " ".join(c.code for c in options[int(answer) - 1])])
    elif answer:
        click.echo("No such choice; nothing was recorded.")


@click.command(cls=PasurCommand)
@store_options
@look_options
@click.pass_context
def session(ctx):
    """Referee the current match interactively: type each play, get the capture and the score."""
    store = open_store(ctx)
    mid = current(ctx, store)[0]
    store.close()
    run(dict(ctx.meta), mid)
