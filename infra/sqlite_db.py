"""A small helper to open the embedded SQLite files the same way everywhere."""

from __future__ import annotations

import sqlite3
from pathlib import Path


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
    return conn
