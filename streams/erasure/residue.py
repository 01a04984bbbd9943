"""What an erasure leaves in bytes: marks recorded at erasure time, purge, byte audit.

The Eraser (streams/erasure/eraser.py) calls three things here:

- :meth:`ErasureResidue.start` before it deletes anything: notes the fact ids the erased
  evidence supports (so the marks can name the facts that go, and only those);
- :meth:`ErasureResidue.purge` once the views have applied the cascade: every store that
  can (a :class:`~provmem.streams.erasure.ports.PurgeableStore`) drops deleted data
  physically (the vector shard is rebuilt, SQLite files are checkpointed and their WAL
  truncated; secure_delete zeroed the rows);
- :meth:`ErasureResidue.marks`: keyed fingerprints (infra/residue.py) of the erased ids
  and of the erased content's words and numbers, for the ledger (never plaintext).

:func:`byte_audit` scans every byte the process can reach for those marks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import structlog

from provmem.config import Settings
from provmem.core.events import ErasureRequested, ErasureTarget, TurnRecorded
from provmem.core.ports import ScrubbableStore
from provmem.streams.erasure.baseline import common_words
from provmem.streams.erasure.log_audit import Awaiting, LogAudit, key_copies
from provmem.streams.erasure.ports import ErasureDeps
from provmem.streams.erasure.steps import StepClock
from provmem.streams.runtime.adapters import (
    ErasedMarks,
    Hit,
    ResidueScanner,
    marks_of,
)
from provmem.streams.runtime.index_slots import reader_slots

log = structlog.get_logger(__name__)
#: The ledger entry field holding the marks.
MARKS_FIELD = "residue"


@dataclass
class ErasureResidue:
    """One request's residue bookkeeping (see the module docstring)."""

    deps: ErasureDeps
    request: ErasureRequested
    erased_ids: list[str]
    words: ErasedMarks
    candidate_facts: list[str] = field(default_factory=list)

    @classmethod
    async def start(
        cls,
        deps: ErasureDeps,
        request: ErasureRequested,
        erased_ids: list[str],
        texts: Sequence[str],
        live: Sequence[TurnRecorded],
    ) -> ErasureResidue:
        """Before the cascade, while the texts can be read: the marks of the erased words
        (``texts``, the speakers of the erased turns) that no kept turn says, and the
        facts that may go (a subject's: all of its facts)."""
        erased = set(erased_ids)
        gone = [t.speaker for t in live if t.evidence_id in erased]
        kept = await _words(deps, [t for t in live if t.evidence_id not in erased])
        key = deps.secrets.audit_key
        common = await common_words(deps.settings)  # the stores' own: never a mark
        scope_words = request.scope.key.split("/")
        words = marks_of(key, [], [*texts, *gone], [*kept, *scope_words], common)
        facts: list[str] = []
        if request.target is ErasureTarget.SUBJECT and deps.deriver is not None:
            _, versions = await deps.deriver.gate.versions(request.scope.key)
            facts = [v.fact_id for v in versions]
        else:
            for evidence_id in erased_ids:
                facts += await deps.views.facts_for_evidence(evidence_id)
        return cls(deps, request, erased_ids, words, list(dict.fromkeys(facts)))

    async def purge(self, clock: StepClock | None = None) -> dict[str, int]:
        """Physically drop what the cascade deleted, store by store (the stores that
        cannot keep nothing deleted at rest, or cannot help it)."""
        lap = (clock if clock is not None else StepClock()).lap
        done: dict[str, int] = {}
        for name, store in self.deps.capabilities.purgeable:
            done[name] = int(await store.purge())
            lap(f"purge.{name}")  # which store's purge grows with the folder
        log.info("erasure.purged", request_id=self.request.request_id, stores=sorted(done))
        await self._scrub()
        lap("scrub")
        return done

    async def _scrub(self) -> None:
        """A view file that still holds a mark after the purge is rewritten: SQLite's
        secure_delete zeroes deleted cells, not a stale copy a page rebalance left in a
        page's free space. (The log is no ScrubbableStore: compaction with secure_delete
        removes its records, and its keys are keyed fingerprints.) Only the files of the
        stores that can be scrubbed are read, each when its store asks, once, and of a
        database only its free space (infra/stores/sqlite_free.py): a live row holding a
        mark is found by the audit, and a rewrite would keep it."""
        key = self.deps.secrets.audit_key
        held = HeldMarks(ResidueScanner(key, ErasedMarks.from_json(await self.marks())))
        for name, store in self.deps.capabilities.purgeable:
            if isinstance(store, ScrubbableStore) and await store.scrub(held.holds):
                log.info("erasure.scrubbed", request_id=self.request.request_id, store=name)
                held.read.clear()  # rewritten: read again if asked

    async def facts_gone(self) -> list[str]:
        """The facts that went: the candidates the views no longer hold."""
        survivors = await self.deps.views.get_many(self.candidate_facts)
        return [f for f in self.candidate_facts if f not in survivors]

    async def marks(self) -> dict[str, Any]:
        """The ledger field: the word marks and the marks of the erased ids (the evidence,
        and the facts that went among the candidates)."""
        gone = await self.facts_gone()
        key = self.deps.secrets.audit_key
        ids = marks_of(key, [*self.erased_ids, *gone], [], [])
        return replace(self.words, ids=ids.ids).to_json()


@dataclass
class HeldMarks:
    """Which SQLite files hold a mark, each read when first asked about, by a child
    process (infra/residue_apart.py: this one holds their connections), with its WAL."""

    scanner: ResidueScanner
    read: dict[Path, bool] = field(default_factory=dict)

    def holds(self, path: Path) -> bool:
        path = path.resolve()
        if path not in self.read:
            self.read.update(self._scan(_database_of(path)))
        return self.read[path]

    def _scan(self, database: Path) -> dict[Path, bool]:
        files = (database, database.with_name(database.name + "-wal"))
        names = tuple(f.name for f in files if f.exists())
        scan = self.scanner.scan_folder
        hits = scan(database.parent, names, free_only=True) if names else []
        held = {(database.parent / hit.location).resolve() for hit in hits}
        return {f: f in held for f in files}


def _database_of(path: Path) -> Path:
    """The database file of ``path`` (itself, or the database of its WAL)."""
    return path.with_name(path.name.removesuffix("-wal"))


async def _words(deps: ErasureDeps, turns: Sequence[TurnRecorded]) -> list[str]:
    words = []
    for turn in turns:
        words.append(turn.speaker)
        try:
            words.append(await deps.sealer.open(turn.text))
        except LookupError:
            continue  # its subject's key is gone
    return words


@dataclass(frozen=True)
class ByteFindings:
    """What the byte audit found: hits per place, each hit (store, location, offset,
    kind and the term's keyed fingerprint), and the log records awaiting compaction."""

    found: dict[str, int]
    awaiting: Awaiting = Awaiting()
    hits: tuple[Hit, ...] = ()


async def byte_audit(
    deps: ErasureDeps,
    marks: dict[str, Any] | None,
    scope_key: str,
    files: bool = True,
    skip: tuple[str, ...] = (),
    partition: int | None = None,
) -> ByteFindings:
    """Hits of the marks (the ledger field, :meth:`ErasureResidue.marks`) in every byte this
    process reaches: files under the data folder, Redis keys and values under the prefix
    (distributed runtime), the Qdrant server's payloads (when configured) and every record
    the log retains, opened with the live keys (streams/erasure/log_audit.py); and the retained
    copies of the scope's data key (``log_data_keys``). No marks (an entry written before
    they were kept): nothing to scan. ``files`` False: not the data folder (see
    :func:`owns_its_folder`); ``skip``: entries of the data folder not scanned (live
    readers' index slots, :func:`slots_apart`). ``partition`` given (an evidence or session
    erasure's scoped verification): only the scope's records on that partition of the
    turns and fact-changes topics, no file and no store outside the folder.

    A record's key always counts: the turns and fact-changes keys are keyed fingerprints
    (infra/log/record_keys.py), so an erased id as a key, a tombstone's included, is residue.
    Not hits: a word that is part of a scope key (an identifier on every record,
    not content). A sealed record (infra/log/sealed.py) counts whatever its scope; only a
    record written before the log was sealed may hold a word of another scope (two
    subjects may share a word) or an erased id in the erasure request, in the log's file
    too: those are not hits. A hit in a record a later one of its key supersedes awaits
    the broker's compaction (:class:`~provmem.streams.erasure.log_audit.Awaiting`)."""
    if marks is None:
        return ByteFindings({})
    key = deps.secrets.audit_key
    scan = LogAudit(ResidueScanner(key, ErasedMarks.from_json(marks)), scope_key, partition)
    found = {
        "bytes_log": await scan.log(deps),
        "log_data_keys": await key_copies(deps, scope_key),
        "bytes_files": 0,
        "bytes_redis": 0,
        "bytes_qdrant": 0,
    }
    settings = deps.settings
    if partition is not None:
        return ByteFindings(found, scan.awaiting_compaction(), tuple(scan.reported))
    if files and settings.data_dir.exists():
        hits = await asyncio.to_thread(scan.hits.scan_folder, settings.data_dir, (), skip)
        found["bytes_files"] = scan.counted(hits)
    for store in deps.elsewhere:  # the root's own clients of Redis, of a Qdrant server
        found[f"bytes_{store.place}"] = scan.counted(await scan.hits.scan_held(store))
    for hit in scan.reported:
        log.warning("erasure.residue", **hit.to_json())  # the term as its keyed fingerprint
    return ByteFindings(found, scan.awaiting_compaction(), tuple(scan.reported))


def owns_its_folder(settings: Settings) -> bool:
    """Whether an erasure's own files are all its data folder holds. On the embedded
    runtime one process owns the folder and applies the erasure inline; on the distributed
    one the folder holds a process's local replicas (another process's, on a shared
    folder), each applying the erasure in its own time: ``provmem audit erasure`` scans
    them where they run, the worker's verification scans Redis, the log and Qdrant."""
    return settings.runtime != "kafka"


def slots_apart(settings: Settings, request_id: str) -> tuple[str, ...]:
    """The data folder's entries an erasure's verification leaves to other processes: the
    index slots of live readers (streams/runtime/index_slots.py). Each holds the vector
    points its reader indexed before the erasure, ids only, until the reader's next sync
    (before its next read) empties it and reads the compacted log again, or its close
    removes it; ``provmem audit erasure`` later scans them too. A crashed reader's slot,
    which nobody would rebuild, is removed here."""
    slots = reader_slots(settings.data_dir)
    if slots.live or slots.removed:
        live = [slot.name for slot in slots.live]
        log.info("erasure.reader_slots", request_id=request_id, live=live, removed=slots.removed)
    return tuple(slot.name for slot in slots.live)
