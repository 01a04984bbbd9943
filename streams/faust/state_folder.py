"""Each worker's own folder for its RocksDB table state.

The gate table lives in RocksDB databases (one per partition) under the worker's state
folder. RocksDB locks a database for one process, so two workers on one host must not
share a folder: a worker claims the first free slot ``<worker_name>-<n>`` under
``data_dir/faust`` by holding an exclusive lock on ``<slot>.lock`` for its lifetime. A
worker restarted on the same host claims the same slot again (the lowest free one), so
it finds the databases and the changelog offsets it stored there; the state is a cache
of the compacted changelog either way (see docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import fcntl
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import IO

#: Slots tried per host before giving up (more workers than this on one host: an error).
MAX_SLOTS = 64


@dataclass
class StateFolder:
    """A claimed state folder; the claim lasts while this object (its lock file) lives."""

    path: Path
    lock: IO[bytes]

    def release(self) -> None:
        self.lock.close()


def worker_name(configured: str | None) -> str:
    """The stable name of this host's workers: the configured one, else the host name."""
    return configured or socket.gethostname()


def claim_state_folder(root: Path, name: str) -> StateFolder:
    """Claim the first slot ``root/<name>-<n>`` no other live process holds."""
    root.mkdir(parents=True, exist_ok=True)
    for slot in range(MAX_SLOTS):
        path = root / f"{name}-{slot}"
        lock = (root / f"{name}-{slot}.lock").open("ab")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            continue
        path.mkdir(exist_ok=True)
        return StateFolder(path, lock)
    raise RuntimeError(
        f"worker_name: all {MAX_SLOTS} state folders of {name!r} under {root} are held "
        "by running workers"
    )
