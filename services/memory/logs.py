"""Logging: structlog only, configured once by the entry point.

A failure is logged as one structured line plus a short traceback: the last frames of
each exception (file, line, function, code line) and never their local variables, which
may hold what a user said (structlog's default renderer with rich shows them all).
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
from typing import Any, TextIO

import structlog

__all__ = ["FRAMES", "configure_logging", "console_traceback", "short_traceback"]

#: The frames of each exception a logged traceback keeps (the innermost ones).
FRAMES = 6
_LONGEST_LINE = 300

ExcInfo = tuple[type[BaseException], BaseException, Any]


def configure_logging(level: str = "WARNING") -> None:
    """Send structured logs to stderr at ``level``."""
    numeric = logging.getLevelName(level.upper())
    logging.basicConfig(level=numeric, format="%(message)s")
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.StackInfoRenderer(),
            structlog.dev.set_exc_info,
            structlog.processors.TimeStamper(fmt="%Y-%m-%d %H:%M:%S", utc=False),
            structlog.dev.ConsoleRenderer(
                colors=_colors(sys.stderr), exception_formatter=console_traceback
            ),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
    )


def _colors(stream: TextIO) -> bool:
    """Colour only on a terminal, and never with ``NO_COLOR`` set (no escape codes in a file
    or a pipe that a collector or a grep reads)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def short_traceback(exc_info: ExcInfo) -> str:
    """The innermost :data:`FRAMES` frames of an exception and of those it chains, without
    local variables; lines cut at 300 characters."""
    _, error, _ = exc_info
    lines = traceback.format_exception(error, limit=-FRAMES, chain=True)
    text = "".join(lines).rstrip("\n")
    return "\n".join(_cut(line) for line in text.splitlines())


def console_traceback(sio: TextIO, exc_info: ExcInfo) -> None:
    """:func:`short_traceback` for structlog's ConsoleRenderer (``exception_formatter``)."""
    sio.write("\n" + short_traceback(exc_info))


def _cut(line: str) -> str:
    return line if len(line) <= _LONGEST_LINE else line[:_LONGEST_LINE] + " [...]"
