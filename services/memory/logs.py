"""Logging: structlog only, configured once by the entry point."""

from __future__ import annotations

import logging

import structlog


def configure_logging(level: str = "WARNING") -> None:
    """Send structured logs to stderr at ``level``."""
    numeric = logging.getLevelName(level.upper())
    logging.basicConfig(level=numeric, format="%(message)s")
    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=_stderr()),
    )


def _stderr():  # type: ignore[no-untyped-def]
    import sys

    return sys.stderr
