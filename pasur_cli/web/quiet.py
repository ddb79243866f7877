"""The scoreboard server's stderr: each thing said on one line, never a traceback, and one line
said again only ``REPORT`` seconds later (a flood of bad connections cannot flood the terminal).
Used for uvicorn's loggers, asyncio's (and the event loop's exception handler) and pasur's own."""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
from typing import Any

REPORT = 10.0  # seconds before the same line is said again
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio", "pasur.serve")


class OneLine(logging.Formatter):
    """A record as one line: its message, and its exception's type and text (no traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        text = " ".join(record.getMessage().split())
        if record.exc_info and record.exc_info[1] is not None:
            text += ": " + traceback.format_exception_only(record.exc_info[1])[-1].strip()
        return text


class Repeats(logging.Filter):
    """Lets a line (a logger and its message template) through at most once every ``REPORT`` seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.said: dict[tuple[str, str], float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key, now = (record.name, str(record.msg)), time.monotonic()
        if now - self.said.get(key, -REPORT) < REPORT:
            return False
        self.said[key] = now
        return True


def config() -> dict[str, Any]:
    """The logging configuration uvicorn is given (``log_config``): every server logger through
    ``OneLine`` and ``Repeats`` to stderr, warnings and worse."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"()": OneLine}},
        "filters": {"repeats": {"()": Repeats}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                                "formatter": "line", "filters": ["repeats"]}},
        "loggers": {name: {"handlers": ["stderr"], "level": "WARNING", "propagate": False} for name in LOGGERS},
    }


def loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler: what asyncio would log (a failed accept, a task's
    error), as one line through the ``asyncio`` logger."""
    logging.getLogger("asyncio").error(str(context.get("message", "")), exc_info=context.get("exception"))
