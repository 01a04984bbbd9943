"""The free space of a SQLite file (infra/stores/sqlite_free.py): a deleted row's stale
bytes are in it, a live row's are not."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from provmem.infra.stores.sqlite_free import free_regions, is_database, mapped


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "t.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA secure_delete=OFF")  # the stale copy a rebalance can leave
    conn.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)")
    rows = [(f"k{i}", f"said {'gone' if i % 7 == 0 else 'kept'}word{i} " * 5) for i in range(500)]
    conn.executemany("INSERT INTO t VALUES (?, ?)", rows)
    conn.commit()
    conn.execute("DELETE FROM t WHERE CAST(substr(k, 2) AS INTEGER) % 7 = 0")
    conn.commit()
    conn.close()
    return path


def test_a_deleted_rows_bytes_are_free_space_and_a_live_rows_are_not(tmp_path: Path) -> None:
    path = _file(tmp_path)
    data = mapped(path)
    assert data is not None and is_database(path)
    free = b"".join(region for _, region in free_regions(data))
    data.close()
    assert b"goneword7 " in free and b"goneword490 " in free
    assert b"keptword1 " not in free and b"keptword499 " not in free


def test_a_file_that_is_no_database_is_not_read_as_one(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("SQLite format 2")
    assert not is_database(other) and mapped(tmp_path / "gone.db") is None
