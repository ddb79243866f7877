"""Reading what is typed at a terminal, line by line, so that Ctrl-C acts the moment it is pressed.

``input()`` checks for a pending signal and then blocks in read(): a Ctrl-C that arrives between
the two (while the prompt is being drawn) is only noticed after the next Enter. ``Terminal``
instead waits with select() on the terminal *and* on a pipe that Python's signal handler writes
to (``signal.set_wakeup_fd``), so a signal at any instant ends the wait, and the handler raises
KeyboardInterrupt straight away. Ctrl-D on an empty line is the end of input (EOFError).

Python drops an exception raised inside a weak-reference callback or a ``__del__`` (it prints
"Exception ignored in ..."); a Ctrl-C that lands there, e.g. in importlib's module-lock callback
during an import, would be lost. So the SIGINT handler also remembers the interrupt until the
caller says it was ``handled()``, and the next read raises it again if it was swallowed.

Line editing and history (the arrow keys, Ctrl-A/E, Ctrl-R) come from GNU readline, driven through
its *callback* interface (``Editor``) from this same select() loop: readline is handed one byte
only when select() has said one is there, so it does not wait for the keyboard itself (after a lone
Esc it may wait up to its keyseq-timeout for the rest of a key, in a select() that a signal also
ends), and every other wait stays the select() above, which a signal ends. That is why it is safe where ``input()`` with
readline is not: input() waits inside C (readline's own select), where a Ctrl-C that arrived
while the prompt was being drawn is only seen after the next key. Here readline's own signal
handling is off (``rl_catch_signals = 0``), so Python's handler alone sees SIGINT; whatever it
interrupts (the select, a byte handed to readline, the prompt being drawn), the line is abandoned
and the terminal restored as Python's readline module does it, and KeyboardInterrupt goes on.
Where readline cannot be had (not built, libedit), the terminal's own line mode edits the line.
Not prompt_toolkit: it edits, recalls and stops at Ctrl-C as well, but importing it costs more than
the rest of the session's start-up (bench/README.md has the figures).
"""

from __future__ import annotations

import os
import re
import select
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from pasur_cli.cli.screen import is_terminal

Reader = Callable[[str], str]  # prompt -> the line typed, without its newline; EOFError at the end


ESCAPES = re.compile(r"(\x1b\[[0-9;?]*[A-Za-z])")  # colour in a prompt: readline must not count it


def _tick() -> None:
    """Nothing: a call, so that a signal's Python handler runs at its start (CPython runs them
    where a function begins or a loop turns)."""


class Editor:
    """GNU readline's callback interface, reached with ctypes through the library Python's own
    readline module is linked to (so its history is that module's). ``start`` draws the prompt,
    ``feed`` hands readline the byte select() found, ``done``/``line`` say when a line (or the
    end of input: None) was accepted, ``abandon`` drops a half-typed line and restores the
    terminal. Raises OSError when made without GNU readline."""

    def __init__(self) -> None:
        import ctypes
        try:
            import readline
        except ImportError as err:
            raise OSError("no readline") from err
        if "libedit" in (readline.__doc__ or "") or not hasattr(readline, "_READLINE_LIBRARY_VERSION"):
            raise OSError("readline is libedit")
        lib = ctypes.CDLL(readline.__file__)  # the module's handle finds libreadline's symbols too
        self.readline, self.lib, self.libc = readline, lib, ctypes.CDLL(None)
        ctypes.c_int.in_dll(lib, "rl_catch_signals").value = 0  # SIGINT stays Python's alone
        for setting in ("set enable-bracketed-paste off",  # no escape codes around each prompt;
                        "set enable-meta-key off"):           # a pasted line is typed line by line
            readline.parse_and_bind(setting)
        handler = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
        lib.rl_callback_handler_install.argtypes = [ctypes.c_char_p, handler]
        self._handler = handler(self._accept)  # kept: readline holds only the C pointer
        self.libc.free.argtypes = [ctypes.c_void_p]
        command = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int)
        lib.rl_bind_key.argtypes = [ctypes.c_int, command]
        self._clear = command(self._clear_screen)
        lib.rl_bind_key(12, self._clear)  # Ctrl-L clears the screen as the line reader always has
        # readline reads each byte through ``_getc``, which waits on the terminal and on the
        # signal pipe: a Ctrl-C flushes the input the terminal held, so a byte select() had seen
        # may be gone when readline reads, and readline's own read would then wait for ever.
        getc = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
        self._getc = getc(self._read_byte)  # kept: readline holds only the C pointer
        ctypes.c_void_p.in_dll(lib, "rl_getc_function").value = ctypes.cast(self._getc, ctypes.c_void_p).value
        self.fd: int = 0  # the terminal and the signal pipe (set by Terminal)
        self.wake: int | None = None
        self.interrupted: Callable[[], bool] = lambda: False  # whether a Ctrl-C came (set by Terminal)
        self.installed = self.done = False
        self.line: bytes | None = None

    def _read_byte(self, stream: Any) -> int:
        """readline's getc: the next byte typed, or EOF (-1) when a signal arrives first (the
        caller then sees ``Terminal.pending``). Never blocks in read()."""
        try:
            waits = [self.fd] if self.wake is None else [self.fd, self.wake]
            while True:
                ready = select.select(waits, [], [])[0]
                if self.wake is not None and self.wake in ready:
                    _tick()  # the signal's Python handler runs here (a Ctrl-C's sets ``interrupted``)
                    try:
                        while os.read(self.wake, 512):
                            pass
                    except BlockingIOError:
                        pass
                    if self.interrupted():
                        return -1  # readline ends the line; the caller raises KeyboardInterrupt
                    continue  # another signal: go on waiting for the byte
                blocking = os.get_blocking(self.fd)
                os.set_blocking(self.fd, False)
                try:
                    data = os.read(self.fd, 1)
                except BlockingIOError:
                    continue  # the byte select() saw was flushed (a Ctrl-C): wait again
                finally:
                    os.set_blocking(self.fd, blocking)
                return data[0] if data else -1
        except BaseException:  # nothing may cross readline's C frames: end the line (EOF)
            return -1

    def _accept(self, text: Any) -> None:
        """readline's line handler: the line typed (None at Ctrl-D on an empty line)."""
        import ctypes
        self.lib.rl_callback_handler_remove()
        self.installed = False
        self.line = None if text is None else ctypes.string_at(text)
        if text is not None:
            self.libc.free(text)
        self.done = True

    def _clear_screen(self, count: int, key: int) -> int:
        os.write(sys.stdout.fileno(), b"\x1b[H\x1b[2J")
        self.lib.rl_forced_update_display()
        return 0

    def start(self, prompt: str) -> None:
        self.done, self.line = False, None
        self.installed = True
        self.lib.rl_callback_handler_install(ESCAPES.sub("\x01\\1\x02", prompt).encode("utf-8", "replace"),
                                             self._handler)

    def feed(self) -> None:
        self.lib.rl_callback_read_char()

    def insert(self, text: str) -> None:
        """Put ``text`` on the line being edited, as if typed (an earlier answer offered again)."""
        import ctypes
        self.lib.rl_insert_text.argtypes = [ctypes.c_char_p]
        self.lib.rl_insert_text(text.encode("utf-8", "replace"))
        self.lib.rl_redisplay()

    def abandon(self) -> None:
        """Drop the line being typed and give the terminal back its line mode."""
        if self.installed:
            self.installed = False
            self.lib.rl_free_line_state()
            self.lib.rl_callback_sigcleanup()
            self.lib.rl_cleanup_after_signal()
            self.lib.rl_callback_handler_remove()

    def remember(self, line: str) -> None:
        """Add a line to the history the up arrow walks (not a blank one, nor the last again)."""
        length = self.readline.get_current_history_length()
        if line.strip() and (not length or self.readline.get_history_item(length) != line):
            self.readline.add_history(line)


class Terminal:
    """A line reader for the terminal on standard input; use it as a context manager (``with``),
    which routes signals to its wake-up pipe while it is open."""

    def __init__(self, fd: int | None = None, edit: bool = True) -> None:
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.editor: Editor | None = None
        if edit and self.fd == 0 and os.environ.get("TERM") != "dumb":
            with suppress(OSError, AttributeError, ValueError):
                self.editor = Editor()
        self.wake: int | None = None
        self._offered = ""  # text the next line starts with (see offer)
        self.pending = False  # a Ctrl-C not yet handled by the caller
        self.in_readline = False  # readline (C) is on the stack: a Ctrl-C only sets ``pending``
        self._pipe: tuple[int, int] | None = None
        self._old = -1
        self._old_handler: object = None

    def _interrupt(self, signum: int, frame: object) -> None:
        self.pending = True
        if not self.in_readline:  # inside readline it is raised when readline returns (an exception
            raise KeyboardInterrupt  # cannot cross its C frames: Python would print and drop it)

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

    def offer(self, text: str) -> bool:
        """Start the next line with ``text``, to be edited rather than typed again; False (and
        nothing offered) where lines are not edited with readline."""
        if self.editor is None:
            return False
        self._offered = text
        return True

    def __call__(self, prompt: str) -> str:
        """Write ``prompt`` and return the line typed; KeyboardInterrupt at Ctrl-C (at once),
        EOFError at Ctrl-D (a half-typed line is dropped then)."""
        self._drain()  # signals already handled must not end this wait
        if self.pending:  # a Ctrl-C that Python swallowed on its way (see above)
            raise KeyboardInterrupt
        if self.editor is not None:
            return self._edit(prompt)
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

    @contextmanager
    def _readline(self) -> Iterator[None]:
        """While readline runs, a Ctrl-C only sets ``pending`` (the caller raises after)."""
        self.in_readline = True
        try:
            yield
        finally:
            self.in_readline = False

    def _edit(self, prompt: str) -> str:
        """The line read with readline (see the module's docstring for why a Ctrl-C still acts at
        once): the same select() wait, readline given each byte that arrives."""
        editor = self.editor
        assert editor is not None
        head, newline, last = prompt.rpartition("\n")  # readline draws one line of prompt
        sys.stdout.write(head + newline)
        sys.stdout.flush()
        waits = [self.fd] if self.wake is None else [self.fd, self.wake]
        editor.fd, editor.wake, editor.interrupted = self.fd, self.wake, lambda: self.pending
        try:
            with self._readline():
                editor.start(last)
                if self._offered:
                    editor.insert(self._offered)
                    self._offered = ""
            if self.pending:
                raise KeyboardInterrupt
            while not editor.done:
                ready = select.select(waits, [], [])[0]
                if self.wake in ready:
                    self._drain()
                    if self.pending:
                        raise KeyboardInterrupt
                    continue
                with self._readline():
                    editor.feed()
                if self.pending:  # a Ctrl-C while readline had the byte (its handler may have run there)
                    raise KeyboardInterrupt
        except BaseException:
            editor.abandon()
            raise
        if editor.line is None:
            raise EOFError
        line = editor.line.decode("utf-8", "replace")
        editor.remember(line)
        return line


def read_pipe(prompt: str) -> str:
    """A line from standard input when it is not a terminal (no prompt is written)."""
    line = sys.stdin.readline() if sys.stdin is not None else ""  # closed (<&-): the end at once
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


def at_terminal() -> bool:
    """Whether a person can be asked (standard input is a terminal; None when it was closed): the
    one place the command line tells a person from a pipe."""
    return is_terminal(sys.stdin)


@contextmanager
def lines() -> Iterator[tuple[Reader, bool]]:
    """(reader, at_terminal) for standard input: the Terminal reader at a terminal, else the pipe's."""
    if at_terminal():
        with Terminal() as terminal:
            yield terminal, True
    else:
        with suppress(AttributeError, ValueError, OSError):  # bytes the encoding cannot decode (a
            sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]  # strict codec) are replaced
        yield read_pipe, False
