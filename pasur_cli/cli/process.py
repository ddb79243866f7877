"""The `pasur` process around the click group: the exit code, output that cannot be written
(a closed pipe, a full disk), and leaving quickly once every change is committed. The click
layer itself is ``app``; the exit code is decided here, not by the store (``Store.commits`` says
what was committed through each store the commands opened).
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

import click

from pasur_cli.cli.screen import OutputFailed, fit, is_terminal, terminal_width

if TYPE_CHECKING:
    from pasur_cli.store.database import Store

# The stores this process opened: once one has committed a change, output that fails afterwards
# must not turn the command into a failure.
_OPENED: list[Store] = []


def opened(store: Store) -> None:
    """Remember a store the command opened (its commits decide the exit code of a failed output)."""
    _OPENED.append(store)


def output_error(err: OSError) -> bool:
    import errno
    return err.errno in (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT)


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


def _show(err: click.ClickException) -> None:
    """Write an error as click does; at a terminal its lines broken between words at its width."""
    import sys
    if not is_terminal(sys.stderr):
        err.show()
        return
    import io
    said = io.StringIO()
    err.show(file=said)
    sys.stderr.write(fit(said.getvalue().rstrip("\n"), terminal_width()) + "\n")


def run(main: click.Group) -> None:
    """The `pasur` process (the console script, `python -m pasur_cli`): the click group ``main``, then exit.

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
