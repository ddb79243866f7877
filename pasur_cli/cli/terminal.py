"""Reading what is typed at a terminal, line by line, so that Ctrl-C acts the moment it is pressed.

``input()`` checks for a pending signal and then blocks in read(): a Ctrl-C that arrives between
the two (while the prompt is being drawn) is only noticed after the next Enter. ``Terminal``
instead waits with select() on the terminal *and* on a pipe that Python's signal handler writes
to (``signal.set_wakeup_fd``), so a signal at any instant ends the wait, and the handler raises
KeyboardInterrupt straight away. The terminal stays in its normal line mode: backspace, Ctrl-U
and Ctrl-W edit the line as usual, and Ctrl-D on an empty line is the end of input (EOFError).

Python drops an exception raised inside a weak-reference callback or a ``__del__`` (it prints
"Exception ignored in ..."); a Ctrl-C that lands there, e.g. in importlib's module-lock callback
during an import, would be lost. So the SIGINT handler also remembers the interrupt until the
caller says it was ``handled()``, and the next read raises it again if it was swallowed.
"""

from __future__ import annotations

import os
import select
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

Reader = Callable[[str], str]  # prompt -> the line typed, without its newline; EOFError at the end


class Terminal:
    """A line reader for the terminal on standard input; use it as a context manager (``with``),
    which routes signals to its wake-up pipe while it is open."""

    def __init__(self, fd: int | None = None) -> None:
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.wake: int | None = None
        self.pending = False  # a Ctrl-C not yet handled by the caller
        self._pipe: tuple[int, int] | None = None
        self._old = -1
        self._old_handler: object = None

    def _interrupt(self, signum: int, frame: object) -> None:
        self.pending = True
        raise KeyboardInterrupt

    def handled(self) -> None:
        """The caller has acted on the last Ctrl-C (e.g. cancelled a question)."""
        self.pending = False

    def __enter__(self) -> Terminal:
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        self._pipe, self.wake = (r, w), r
        self._old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        self._old_handler = signal.signal(signal.SIGINT, self._interrupt)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self._old_handler)  # type: ignore[arg-type]
        signal.set_wakeup_fd(self._old)
        if self._pipe:
            for fd in self._pipe:
                os.close(fd)
        self._pipe = self.wake = None

    def _drain(self) -> None:
        if self.wake is None:
            return
        try:
            while os.read(self.wake, 512):
                pass
        except BlockingIOError:
            pass

    def __call__(self, prompt: str) -> str:
        """Write ``prompt`` and return the line typed; KeyboardInterrupt at Ctrl-C (at once),
        EOFError at Ctrl-D (a half-typed line is dropped then)."""
        self._drain()  # signals already handled must not end this wait
        if self.pending:  # a Ctrl-C that Python swallowed on its way (see above)
            raise KeyboardInterrupt
        sys.stdout.write(prompt)
        sys.stdout.flush()
        waits = [self.fd] if self.wake is None else [self.fd, self.wake]
        data = b""
        while not data.endswith(b"\n"):
            ready = select.select(waits, [], [])[0]
            if self.wake in ready:
                self._drain()  # a signal: if it was SIGINT, its handler raises at the next instruction
                if self.pending:
                    raise KeyboardInterrupt
                continue
            chunk = os.read(self.fd, 4096)
            if not chunk:
                raise EOFError
            data += chunk
        return data.decode("utf-8", "replace").rstrip("\r\n")


def read_pipe(prompt: str) -> str:
    """A line from standard input when it is not a terminal (no prompt is written)."""
    line = sys.stdin.readline() if sys.stdin is not None else ""  # closed (<&-): the end at once
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


@contextmanager
def lines() -> Iterator[tuple[Reader, bool]]:
    """(reader, at_terminal) for standard input: the Terminal reader at a terminal, else the pipe's."""
    if sys.stdin is not None and sys.stdin.isatty():
        with Terminal() as terminal:
            yield terminal, True
    else:
        with suppress(AttributeError, ValueError, OSError):  # bytes the encoding cannot decode (a
            sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]  # strict codec) are replaced
        yield read_pipe, False
