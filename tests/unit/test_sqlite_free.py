"""The free space of a SQLite file (infra/stores/sqlite_free.py): a deleted row's stale
bytes are in it, a live row's are not."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from provmem.infra.stores.sqlite_free import free_regions, is_database, mapped


def _file(tmp_path: Path, delete: bool = True) -> Path:
    path = tmp_path / "t.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA secure_delete={'OFF' if delete else 'ON'}")  # OFF: stale copies
    conn.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)")
    rows = [(f"k{i}", f"said {'gone' if i % 7 == 0 else 'kept'}word{i} " * 5) for i in range(500)]
    conn.executemany("INSERT INTO t VALUES (?, ?)", rows)
    conn.commit()
    if delete:
        conn.execute("DELETE FROM t WHERE CAST(substr(k, 2) AS INTEGER) % 7 = 0")
        conn.commit()
    conn.close()
    return path


def _free(path: Path) -> bytes:
    data = mapped(path)
    assert data is not None and is_database(path)
    free = b"".join(region for _, region in free_regions(data))
    data.close()
    return free


def test_a_deleted_rows_bytes_are_in_the_free_space(tmp_path: Path) -> None:
    free = _free(_file(tmp_path))
    assert b"goneword7 " in free and b"goneword490 " in free


def test_live_rows_are_not_free_space(tmp_path: Path) -> None:
    """(secure_delete zeroes what a page no longer uses; without it, a page split leaves
    stale copies of live rows in the unallocated space, which count as free space.)"""
    assert b"word" not in _free(_file(tmp_path, delete=False))


def test_a_file_that_is_no_database_is_not_read_as_one(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("SQLite format 2")
    assert not is_database(other) and mapped(tmp_path / "gone.db") is None
