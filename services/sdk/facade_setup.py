"""Where the facade's embedded runtime keeps its data, and where its logs go."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...infra.settings import Settings


def default_data_dir() -> Path:
    """The per-user data folder (XDG on Linux, Application Support on macOS, LOCALAPPDATA
    on Windows), used when neither ``path`` nor ``PROVMEM_DATA_DIR`` says otherwise."""
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "provmem"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "provmem"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "provmem"


def embedded_settings(path: str | os.PathLike[str] | None) -> Settings:
    from ...infra.settings import Settings

    if path is not None:
        return Settings(data_dir=Path(path))
    settings = Settings()
    if "data_dir" in settings.model_fields_set:  # PROVMEM_DATA_DIR or .env
        return settings
    return Settings(data_dir=default_data_dir())


def configure_logging(level: str = "WARNING", *, json: bool = False) -> None:
    """Route provmem's structlog events into the standard ``logging`` module (so they go
    wherever the application's logging sends them; stderr by default), as key=value text
    or JSON lines. Called for you unless structlog was configured before."""
    import logging

    import structlog

    renderer = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
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
