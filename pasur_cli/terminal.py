"""Reading what is typed at a terminal, line by line, so that Ctrl-C acts the moment it is pressed.

``input()`` checks for a pending signal and then blocks in read(): a Ctrl-C that arrives between
the two (while the prompt is being drawn) is only noticed after the next Enter. ``Terminal``
instead waits with select() on the terminal *and* on a pipe that Python's signal handler writes
to (``signal.set_wakeup_fd``), so a signal at any instant ends the wait, and the handler raises
KeyboardInterrupt straight away. The terminal stays in its normal line mode: backspace, Ctrl-U
and Ctrl-W edit the line as usual, and Ctrl-D on an empty line is the end of input (EOFError).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Reader = Callable[[str], str]  # prompt -> the line typed, without its newline; EOFError at the end


class Terminal:
    """A line reader for the terminal on standard input; use it as a context manager (``with``),
    which routes signals to its wake-up pipe while it is open."""

    def __init__(self, fd: int | None = None) -> None:
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.wake: int | None = None
        self._pipe: tuple[int, int] | None = None
        self._old = -1

    def __enter__(self) -> Terminal:
        import signal
        r, w = os.pipe()
        os.set_blocking(r, False)
        os.set_blocking(w, False)
        self._pipe, self.wake = (r, w), r
        self._old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal
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
        import select
        self._drain()  # signals already handled must not end this wait
        sys.stdout.write(prompt)
        sys.stdout.flush()
        waits = [self.fd] if self.wake is None else [self.fd, self.wake]
        data = b""
        while not data.endswith(b"\n"):
            ready = select.select(waits, [], [])[0]
            if self.wake in ready:
                self._drain()  # a signal: if it was SIGINT, its handler raises at the next instruction
                continue
            chunk = os.read(self.fd, 4096)
            if not chunk:
                raise EOFError
            data += chunk
        return data.decode("utf-8", "replace").rstrip("\r\n")


def read_pipe(prompt: str) -> str:
    """A line from standard input when it is not a terminal (no prompt is written)."""
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


@contextmanager
def lines() -> Iterator[tuple[Reader, bool]]:
    """(reader, at_terminal) for standard input: the Terminal reader at a terminal, else the pipe's."""
    if sys.stdin.isatty():
        with Terminal() as terminal:
            yield terminal, True
    else:
        yield read_pipe, False
