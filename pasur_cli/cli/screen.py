"""What goes to the screen around a command's text: the width it is fitted to, lines broken to
fit it, the pager for text longer than the screen, and CSV written as UTF-8 bytes."""

from __future__ import annotations

import os
from typing import Any

import click


def terminal_size() -> os.terminal_size:
    """The terminal's columns and rows (COLUMNS and LINES when set), 80 by 24 when output is not
    a terminal (piped into a file or a pager): shutil's answer, which is asked (and shutil
    imported, with zlib, bz2 and lzma) only where it can differ from 80 by 24."""
    import sys
    if not is_terminal(sys.__stdout__) and "COLUMNS" not in os.environ and "LINES" not in os.environ:
        return os.terminal_size((80, 24))
    import shutil
    return shutil.get_terminal_size((80, 24))


def terminal_width() -> int:
    """The width text is fitted to: the terminal's columns (``terminal_size``), never under 40."""
    return max(terminal_size().columns, 40)


def rows() -> int:
    """The terminal's rows (``terminal_size``)."""
    return terminal_size().lines


class OutputFailed(Exception):
    """Writing the output failed (a closed pipe, a full disk): carried past click, which would
    otherwise end the process quietly on a closed pipe, to run()."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (a person reads or types there): the one place the command
    line tells a person from a pipe or a file (None: the descriptor was closed at start)."""
    return stream is not None and bool(stream.isatty())


def echo(text: str) -> None:
    """Write ``text`` on standard output; at a terminal every line wider than it is broken between
    words (the tables are fitted to it already and keep their layout)."""
    import sys
    click.echo(fit(text, terminal_width() if is_terminal(sys.stdout) else None))


def echo_long(text: str) -> None:
    """Write ``text`` as ``echo`` does; at a terminal too short for it, through the pager
    (terminal.page)."""
    import sys
    if not is_terminal(sys.stdout):
        click.echo(text)
        return
    page(fit(text, terminal_width()))


def fit(text: str, width: int | None) -> str:
    """``text`` with every line wider than ``width`` broken between words (render.wrap); as it is
    when ``width`` is None."""
    if width is None:
        return text
    from pasur_cli.text.layout import wrap
    return wrap(text, width)


def echo_csv(headers: list[str], rows: list[list[object]]) -> None:
    """CSV (a header row, then ``rows``) on standard output, in UTF-8 whatever the locale's encoding."""
    import sys

    from pasur_cli.text.render_stats import csv_text
    text = csv_text(headers, rows).encode("utf-8")
    out = sys.stdout
    if out is None:  # started with standard output closed: said as any failed write is (cli.run)
        import errno
        raise OutputFailed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
    out.flush()
    out.buffer.write(text)
    out.buffer.flush()


def page(text: str) -> None:
    """Write ``text``; at a terminal, when it is longer than the screen, through the pager as git
    does: ``$PAGER``, else ``less``, with ``LESS=FRX`` unless LESS is set (-F: leave at once when it
    fits, -R: keep the colours, -X: leave the text on the screen). Ctrl-C is the pager's while it
    runs (Python ignores it then, as git does). Without a pager the text is written as it is."""
    import signal
    import sys
    from contextlib import suppress
    out = sys.stdout
    if not is_terminal(out) or text.count("\n") + 2 <= rows():
        click.echo(text)
        return
    import shlex
    import subprocess
    try:
        command = shlex.split(os.environ.get("PAGER") or "less")
    except ValueError:
        command = []
    if not command or command == ["cat"]:
        click.echo(text)
        return
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")
    out.flush()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        try:
            pager = subprocess.Popen(command, stdin=subprocess.PIPE, env=env)
        except OSError:  # no such pager: the text as it is
            click.echo(text)
            return
        assert pager.stdin is not None
        with suppress(OSError):  # the reader left the pager before the end (a closed pipe)
            pager.stdin.write((text + "\n").encode(out.encoding or "utf-8", "replace"))
            pager.stdin.close()
        pager.wait()
    finally:
        signal.signal(signal.SIGINT, old)
