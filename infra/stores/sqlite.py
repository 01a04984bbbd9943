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
    _write_ahead(conn)
    conn.execute("PRAGMA synchronous=FULL" if durable else "PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute("PRAGMA secure_delete=ON")  # deleted rows are zeroed, free pages too
    return conn


#: How long an open waits for another process's switch of a new file to WAL.
WAL_SWITCH_WAIT_S = 30.0


def _write_ahead(conn: sqlite3.Connection) -> None:
    """Put the file in WAL mode (the mode stays with the file). The switch needs the file
    alone, and SQLite answers "database is locked" at once, without its busy wait, when
    several processes open a new file together (four writers on a fresh folder): retried
    until the file is in WAL mode, which one of them will have set."""
    deadline = time.monotonic() + WAL_SWITCH_WAIT_S
    while True:
        try:
            if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal":
                return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError("database is locked: could not switch it to WAL")
        time.sleep(0.02)


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
