"""A small helper to open the embedded SQLite files the same way everywhere."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import structlog

_log = structlog.get_logger(__name__)


def connect(path: Path, durable: bool = True) -> sqlite3.Connection:
    """Open (creating) a SQLite file in WAL mode.

    ``durable`` fsyncs every commit (the log: the source of truth). Views are projections
    of the log, so they commit without fsync (still crash-consistent in WAL mode: a power
    cut can only lose their last commits, which replaying from the log restores)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL" if durable else "PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute("PRAGMA secure_delete=ON")  # deleted rows are zeroed, free pages too
    return conn


def rewrite(conn: sqlite3.Connection) -> bool:
    """Rewrite the whole file (VACUUM, its scratch copy in memory), then checkpoint: no
    page keeps bytes of a deleted cell, wherever a page rebalance left them."""
    conn.execute("PRAGMA temp_store=MEMORY")
    conn.execute("VACUUM")
    return checkpoint(conn)


def scrubbed(conn: sqlite3.Connection, path: Path, holds: Callable[[Path], bool]) -> bool:
    """Rewrite the file at ``path`` if ``holds`` finds a trace in it or its WAL."""
    if not any(holds(p) for p in (path, path.with_name(path.name + "-wal"))):
        return False
    rewrite(conn)
    _log.info("sqlite.rewritten", file=path.name)
    return True


def checkpoint(conn: sqlite3.Connection, attempts: int = 50) -> bool:
    """Copy the WAL into the database file and truncate it to zero bytes, so the WAL no
    longer holds page images from before a delete (an erasure's rows). Another
    connection's open read can hold it back: retried, then False (and logged)."""
    for attempt in range(attempts):
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if not busy:
            return True
        time.sleep(min(0.01 * (attempt + 1), 0.2))
    _log.warning("sqlite.checkpoint_busy", attempts=attempts)
    return False
