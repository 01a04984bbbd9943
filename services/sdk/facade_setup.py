"""Where the facade's embedded runtime keeps its data, and where its logs go."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from provmem.config import Settings


def embedded_settings(path: str | os.PathLike[str] | None) -> Settings:
    from provmem.config import Settings

    # path None: PROVMEM_DATA_DIR (or .env), else the per-user folder (default_data_dir)
    return Settings() if path is None else Settings(data_dir=Path(path))


def configure_logging(level: str = "WARNING", *, json: bool = False) -> None:
    """Route provmem's structlog events into the standard ``logging`` module (so they go
    wherever the application's logging sends them; stderr by default), as key=value text
    or JSON lines. Called for you unless structlog was configured before."""
    import logging

    import structlog

    from provmem.services.memory.logs import console_traceback, short_traceback

    renderer = (
        structlog.processors.JSONRenderer()
        if json
        else structlog.dev.ConsoleRenderer(colors=False, exception_formatter=console_traceback)
    )
    # a failure: one line and a short traceback, never local variables (they may hold
    # what a user said)
    tracebacks = [structlog.processors.ExceptionRenderer(short_traceback)] if json else []
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            *tracebacks,
            renderer,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
    )
    logging.getLogger("provmem").setLevel(level.upper())


def quiet_logging() -> None:
    """Library use prints nothing on stdout: logs go to ``logging`` unless the
    application configured structlog itself."""

    import structlog

    if not structlog.is_configured():
        configure_logging()
