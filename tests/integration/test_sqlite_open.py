"""Several processes opening one new SQLite file at once (a fresh data folder, four
writers): each open puts the file in WAL mode, and SQLite refuses that switch at once
("database is locked", no busy wait) while another process holds the file. Before the
retry in infra/stores/sqlite.py about one round in ten lost a process this way (seen in
tests/integration/test_many_processes.py); with it, none may."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

OPENERS = 6
ROUNDS = 20


def _open_and_write(path: str, barrier: object, results: object) -> None:
    from provmem.infra.stores.sqlite import connect

    barrier.wait()  # type: ignore[attr-defined]
    try:
        conn = connect(Path(path))
        conn.execute("CREATE TABLE IF NOT EXISTS records (n INTEGER)")
        conn.execute("INSERT INTO records VALUES (1)")
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        results.put(mode)  # type: ignore[attr-defined]
    except Exception as error:  # noqa: BLE001 - reported to the test
        results.put(repr(error))  # type: ignore[attr-defined]


def test_processes_opening_a_new_file_together_all_open_it_in_wal_mode(tmp_path: Path) -> None:
    spawn = multiprocessing.get_context("spawn")
    for round_ in range(ROUNDS):
        path = str(tmp_path / f"log-{round_}.db")
        barrier, results = spawn.Barrier(OPENERS), spawn.Queue()
        openers = [
            spawn.Process(target=_open_and_write, args=(path, barrier, results))
            for _ in range(OPENERS)
        ]
        for opener in openers:
            opener.start()
        outcomes = [results.get(timeout=120) for _ in openers]
        for opener in openers:
            opener.join(timeout=60)
        assert outcomes == ["wal"] * OPENERS, (round_, outcomes)
