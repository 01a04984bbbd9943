"""Index slots: several processes on one embedded data folder, each with a vector index.

The first process to open the folder's index (``vectors``) owns it: it derives,
materializes the views, runs erasures and indexes into it. Every other process takes a
reader slot ``vectors-rN`` (N = 1, 2, ...): a fresh Qdrant Edge shard of its own that it
fills from the shared log (fact changes and turns) under consumer groups of that slot,
at each sync. A reader appends turns to the log (the owner derives them) and reads the
shared views; its slot folder is removed when it closes. Erasures reach a reader's slot
through the log: after each erasure the owner completed, the reader empties its slot and
reads the compacted log again at its next sync (before its next read).

An erasure's verification (streams/erasure/residue.py) asks :func:`reader_slots`: a slot
whose lock is free is a crashed reader's, and it is removed (nobody would rebuild it);
a slot whose reader lives is that reader's until its next sync or close, and is not
scanned then (``provmem audit erasure`` later scans every slot).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from provmem.core.ports import EventLog
from provmem.infra.models.embedding import DIM as EMBEDDING_DIM
from provmem.infra.vectors.edge import EdgeVectorIndex, VectorIndexLocked
from provmem.streams.runner import Progress, Runner, StageBinding

#: Reader slots per data folder (processes beside the owner).
MAX_READERS = 64


@dataclass
class IndexSlot:
    """Slot 0 is the owner's index; a reader's slot holds its lock file open."""

    number: int
    index: EdgeVectorIndex
    folder: Path
    lock: IO[str] | None = None
    groups: dict[str, str] = field(default_factory=dict)
    topics: Sequence[str] = ()

    async def start_over(self, log: EventLog) -> None:
        """Empty the slot and read the log again from its start."""
        await self.index.reset()
        for group, topic in zip(self.groups.values(), self.topics, strict=True):
            for partition in range(await log.partitions(topic)):
                await log.commit(group, topic, partition, 0)

    async def release(self) -> None:
        """A reader's slot goes with its process (after its index closed)."""
        if self.lock is None:
            return
        shutil.rmtree(self.folder, ignore_errors=True)
        fcntl.flock(self.lock, fcntl.LOCK_UN)
        self.lock.close()


@dataclass(frozen=True)
class ReaderSlots:
    """The reader slots of a data folder, as an erasure finds them: the folders of live
    readers (each rebuilds from the log at its next sync) and how many abandoned ones
    (a crashed reader's, lock free) it removed."""

    live: tuple[Path, ...] = ()
    removed: int = 0


def reader_slots(data_dir: Path) -> ReaderSlots:
    """The reader slots under a data folder (every generation's index: ``vectors*-rN``);
    an abandoned one is removed under its lock, so no reader takes it meanwhile."""
    live, removed = [], 0
    for lock_path in sorted(data_dir.glob("vectors*-r*.lock")):
        folder = lock_path.with_suffix("")
        with lock_path.open("a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                live.append(folder)
                continue
            removed += folder.exists()
            shutil.rmtree(folder, ignore_errors=True)
            fcntl.flock(lock, fcntl.LOCK_UN)
    return ReaderSlots(tuple(live), removed)


def slot_groups(number: int, view_groups: tuple[str, str]) -> dict[str, str]:
    """The consumer groups a slot's stages read as: the owner's are the views' own."""
    facts, evidence = view_groups
    if number == 0:
        return {"materialize": facts, "index-evidence": evidence}
    return {"index": f"{facts}.r{number}", "index-evidence": f"{evidence}.r{number}"}


async def claim_index(
    folder: Path, view_groups: tuple[str, str], log: EventLog, topics: Sequence[str]
) -> IndexSlot:
    """The owner's index when it is free, else the first free reader slot (its groups
    reset: the slot starts empty). ``topics``: the fact changes', then the turns'."""
    owner = EdgeVectorIndex(folder, EMBEDDING_DIM)
    try:
        with _claiming(folder):  # two first opens would both create the shard's folders
            await owner.open()
    except VectorIndexLocked:
        return await _reader_slot(folder, view_groups, log, topics)
    holder_file(folder).write_text(f"pid {os.getpid()} ({_command()})\n")
    return IndexSlot(0, owner, folder)


@contextmanager
def _claiming(folder: Path) -> Iterator[None]:
    """Held while a process opens (maybe creates) the owner's index: a short flock."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with folder.with_name(folder.name + ".claim").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _command() -> str:
    """The program and its command word, nothing more: the holder file stays in the folder
    and an argument (a scope, an evidence id being erased) would be residue there."""
    program = Path(sys.argv[0] if sys.argv and sys.argv[0] else "python")
    words = [program.parent.name if program.name == "__main__.py" else program.name]
    if len(sys.argv) > 1 and sys.argv[1].isalpha():
        words.append(sys.argv[1])
    return " ".join(words)


def holder_file(folder: Path) -> Path:
    return folder.with_name(folder.name + ".holder")


def holder(folder: Path) -> str:
    """Who owns the folder's index, as its owner wrote it: "pid N (command)"."""
    try:
        return holder_file(folder).read_text().strip() or "another process"
    except OSError:
        return "another process"


async def _reader_slot(
    folder: Path, view_groups: tuple[str, str], log: EventLog, topics: Sequence[str]
) -> IndexSlot:
    for number in range(1, MAX_READERS + 1):
        path = folder.with_name(f"{folder.name}-r{number}")
        lock = path.with_name(path.name + ".lock").open("a")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            continue
        shutil.rmtree(path, ignore_errors=True)  # a crashed reader's: rebuilt from the log
        slot = IndexSlot(number, EdgeVectorIndex(path, EMBEDDING_DIM), path, lock)
        slot.groups, slot.topics = slot_groups(number, view_groups), topics
        await slot.start_over(log)
        return slot
    raise VectorIndexLocked(f"{folder}: all {MAX_READERS} reader slots are in use")


class ReaderRunner(Runner):
    """A reader slot's stages. After each erasure the owner completed (its consumer group
    passed another erasure request) the slot starts over from the log, which the
    erasure compacted and shredded: no erased point outlives it here."""

    def __init__(
        self,
        log: EventLog,
        bindings: Sequence[StageBinding],
        slot: IndexSlot,
        erasures: tuple[str, str],
    ) -> None:
        """``erasures``: the owner's consumer group of the erasure requests, their topic."""
        super().__init__(log, None, bindings)
        self._slot = slot
        self._group, self._topic = erasures
        self._seen: int | None = None

    async def run_until_idle(self, progress: Progress | None = None) -> dict[str, int]:
        done = await self._erasures_done()
        if self._seen is not None and done > self._seen:
            await self._slot.start_over(self._log)
        self._seen = done
        return await super().run_until_idle(progress)

    async def _erasures_done(self) -> int:
        partitions = range(await self._log.partitions(self._topic))
        return sum([await self._log.committed(self._group, self._topic, p) for p in partitions])
