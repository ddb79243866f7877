"""What goes to the screen around a command's text: the width it is fitted to, lines broken to
fit it, and CSV written as UTF-8 bytes."""

from __future__ import annotations

from typing import Any

import click


def terminal_width() -> int:
    """The width text is fitted to: the terminal's columns (COLUMNS when set), 80 when output
    is not a terminal (piped into a file or a pager), never under 40.

    As shutil.get_terminal_size, written out: importing shutil (it loads zlib, bz2 and lzma)
    measured more than the 2 ms of start-up a standard part may cost here, in every command that
    prints (python -X importtime -c "import click, shutil"; docs/architecture.md, Start-up)."""
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
    from pasur_cli.cli.terminal import page
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
        import os
        raise OutputFailed(OSError(errno.EBADF, os.strerror(errno.EBADF)))
    out.flush()
    out.buffer.write(text)
    out.buffer.flush()
