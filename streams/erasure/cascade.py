"""The erasure cascade: the destructive steps of one request, in the order that keeps a
crash harmless.

1. :func:`scope_log` reads the scope's turns (and the ids already tombstoned) from its
   turns partition, up to the request's control record on the distributed runtime;
2. :meth:`Cascade.run` tombstones the erased turns, re-derives the scope's memory from
   what remains (or, when nothing remains, erases every fact from its version alone),
   publishes the fact changes and their tombstones, cleans the other stores (evidence,
   index points, cached embeddings; a subject's views and data key), saves the gate's
   new state, waits for the views and compacts the log. What each step removes is
   journaled (streams/erasure/journal.py). See core/erasure.py for why re-derivation
   makes every view equal a fresh replay.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

import structlog

from provmem.core.erasure import changes_between, erasure_of, remaining
from provmem.core.events import ErasureRequested, ErasureTarget, FactChanged, FactOp, TurnRecorded
from provmem.core.ports import EventLog, LogRecord
from provmem.core.scope import partition_for
from provmem.streams.erasure.journal import Journal
from provmem.streams.erasure.log_compaction import CryptoCompaction
from provmem.streams.erasure.ports import ErasureDeps, GateKeeper, ScopeCompacting
from provmem.streams.erasure.steps import StepClock
from provmem.streams.gate_store import FactVersion
from provmem.streams.outcome import Outgoing
from provmem.streams.runner import send_all
from provmem.streams.runtime.adapters import RecordKeys, raw_log, record_keys, scope_records
from provmem.streams.topics import FACT_CHANGES, TURNS, TopicSpec

log = structlog.get_logger(__name__)
_T = TypeVar("_T")
SaveGate = Callable[[], Awaitable[None]]
#: A subject's views being deleted by scope (None for other requests).
Views = asyncio.Future[int] | None


@dataclass(frozen=True)
class ScopeLog:
    """One pass over the scope's turns partition (up to a control record's offset).

    A tombstone's key is a keyed fingerprint of the evidence id (infra/log/record_keys.py),
    so the ids tombstoned are found by fingerprinting the scope's turns (:meth:`resolve`).
    ``legacy``: turns whose record carries the raw id as its key (written before keyed
    keys); their erasure tombstones that key too, or compaction would keep the record."""

    turns: list[TurnRecorded] = field(default_factory=list)
    tombstoned: set[str] = field(default_factory=set)
    tombstone_keys: set[bytes] = field(default_factory=set)
    legacy: set[str] = field(default_factory=set)
    latest: dict[str, TurnRecorded] = field(default_factory=dict)  # in log order

    def collect(self, scope_key: str, record: LogRecord) -> None:
        """A tombstone counts while it is the latest record of its key: a record that
        reads as one (sealed under a retired log key) is followed by its copy sealed
        again (streams/erasure/log_compaction.py), and a turn published again is live again."""
        if record.value is None:
            self.tombstone_keys.add(record.key or b"")
        elif (turn := _turn(record.value)) is not None and turn.scope.key == scope_key:
            self.tombstone_keys.discard(record.key or b"")
            self._add(turn)
            if record.key == TURNS.key(turn):
                self.legacy.add(turn.evidence_id)

    def _add(self, turn: TurnRecorded) -> None:
        """A turn once, where its latest record puts it (a replay derives it there)."""
        self.latest.pop(turn.evidence_id, None)
        self.latest[turn.evidence_id] = turn

    async def resolve(self, keys: RecordKeys) -> ScopeLog:
        """The scope's turns, and the evidence ids the tombstones name among them."""
        self.turns[:] = self.latest.values()
        ids = [turn.evidence_id for turn in self.turns]
        self.tombstoned.update((await keys.names(self.tombstone_keys, ids)).values())
        return self


async def scope_log(deps: ErasureDeps, scope_key: str, until: int | None) -> ScopeLog:
    """The scope's turns and the ids tombstoned, in one pass over its partition (the
    records before offset ``until``, when given). An empty read is the partition's end:
    a Kafka fetch that stalls before it raises (infra/log/kafka.py ``ReadStalled``) and the
    erasure fails and runs again, never re-deriving the scope from part of its turns
    (which would erase the facts of the turns it did not read). A log that reads by scope
    (the embedded one) reads only the scope's records and the tombstones: the others are
    skipped by :meth:`ScopeLog.collect` anyway."""
    partition = partition_for(scope_key, deps.settings.partitions)
    scan = ScopeLog()
    async for record in scope_records(deps.log, deps.names.turns, partition, scope_key):
        if until is not None and record.offset >= until:
            break
        scan.collect(scope_key, record)
    return await scan.resolve(record_keys(deps.log))


@dataclass(frozen=True)
class Erasing:
    """One request's cascade: what it erases, what it keeps, and its journal."""

    request: ErasureRequested
    live: list[TurnRecorded]
    erased_ids: list[str]
    texts: list[str]
    views: Views
    journal: Journal
    legacy: frozenset[str] = frozenset()  # erased ids with raw-keyed records (ScopeLog)

    @property
    def subject(self) -> bool:
        return self.request.target is ErasureTarget.SUBJECT

    @property
    def scope_key(self) -> str:
        return self.request.scope.key


class Cascade:
    """Runs the destructive steps against one runtime's stores and the scope's gate."""

    def __init__(self, deps: ErasureDeps, gate: GateKeeper, clock: StepClock | None = None) -> None:
        self.deps = deps
        self.gate = gate
        self.clock = clock if clock is not None else StepClock()

    async def run(self, job: Erasing) -> dict[str, int]:
        """Send, then save state: tombstones and fact changes go out before the gate's
        new memory is saved, so a crash in between re-derives the same changes."""
        deps, lap = self.deps, self.clock.lap
        partition = partition_for(job.request.scope.key, deps.settings.partitions)
        compaction = None if job.subject else await CryptoCompaction.begin(deps, job.scope_key)
        lap("cascade.compaction_begin")
        tombstones = [TURNS.tombstone(partition, e) for e in job.erased_ids]
        await deps.log.append(deps.names.turns, tombstones)  # keyed by the sealed log
        await self._forget_legacy(TURNS, partition, job.legacy)
        lap("cascade.tombstones")
        kept = remaining(job.live, set(job.erased_ids))
        if kept:
            changes, save = await self._rederive(job, kept)
        else:
            changes, save = await self._erase_all(job)
        lap("cascade.rederive")
        await job.journal.note(fact_counts(changes))
        await self._publish(changes, partition, job)
        lap("cascade.publish")
        if job.subject:
            counts = await self._clean_while_compacting(job, save)
            lap("cascade.clean_and_compact")
            await deps.settle(partition)
            lap("cascade.settle")
        else:
            counts = await self._clean_stores(job)
            lap("cascade.clean_stores")
            if compaction is not None:
                await compaction.switched()  # the gate state too is sealed under the new key
            await save()
            lap("cascade.gate_save")
            await deps.settle(partition)
            lap("cascade.settle")
            counts["log_records_compacted"] = await self._compact(job.scope_key, compaction)
            lap("cascade.compact")
        await job.journal.note(counts)
        return counts | fact_counts(changes)

    async def _rederive(
        self, job: Erasing, kept: list[TurnRecorded]
    ) -> tuple[list[FactChanged], SaveGate]:
        """Rebuild the scope's memory from its remaining turns; the changes are the
        difference (see core/erasure.py)."""
        scope_key, deriver = job.request.scope.key, self.gate.deriver
        revision, before = await deriver.gate.load(scope_key, {})
        after = await deriver.rebuild(kept)
        changes = changes_between(before, after, job.request.request_id)
        save = partial(deriver.gate.replace, scope_key, revision, before, after, job.erased_ids)
        return changes, save

    async def _erase_all(self, job: Erasing) -> tuple[list[FactChanged], SaveGate]:
        """Nothing of the scope remains: a rebuild would be empty, so every fact is erased
        (what ``changes_between`` gives against an empty memory), from the facts' versions
        alone: no re-derivation, no vectors decoded."""
        scope_key, gate = job.request.scope.key, self.gate.deriver.gate
        revision, versions = await gate.versions(scope_key)
        versions.sort(key=lambda v: v.fact_id)
        changes = [erase_change(v, job.request.request_id) for v in versions]
        fact_ids = [v.fact_id for v in versions]
        return changes, partial(gate.clear, scope_key, revision, fact_ids, job.erased_ids)

    async def _publish(self, changes: list[FactChanged], partition: int, job: Erasing) -> None:
        """The fact changes, then a tombstone for each erased fact. A subject erasure on a
        log that compacts at once (the embedded one) appends the tombstones alone: it
        compacts before any stage reads on (its views and index points went by scope),
        so its ERASE changes would be appended only to be removed unread, and a reader
        that meets a fact's tombstone alone takes it for the ERASE (services/subscriptions.py).
        """
        topic = self.deps.names.fact_changes
        compacts_at_once = self.deps.capabilities.compacting is not None
        sent = [] if job.subject and compacts_at_once else changes
        out = [Outgoing(topic, FACT_CHANGES.record(partition, c)) for c in sent]
        out += [
            Outgoing(topic, FACT_CHANGES.tombstone(partition, c.fact_id))
            for c in changes
            if c.op is FactOp.ERASE
        ]
        await send_all(self.deps.log, out)
        if job.legacy:  # an older log: its fact records may be keyed by the raw id too
            await self._forget_legacy(FACT_CHANGES, partition, self._legacy_facts(changes))

    def _legacy_facts(self, changes: list[FactChanged]) -> set[str]:
        """The facts whose raw-keyed records go: on a log that compacts at once every
        changed one (its keyed change supersedes them); on Kafka the erased ones (a raw
        tombstone of a fact that lives on would read as its erasure)."""
        if self.deps.capabilities.compacting is not None:
            return {c.fact_id for c in changes}
        return {c.fact_id for c in changes if c.op is FactOp.ERASE}

    async def _forget_legacy(self, topic: TopicSpec, partition: int, ids: Iterable[str]) -> None:
        """Records appended before keyed record keys, under the raw ids: compaction drops
        a record only for a later one of the same key. A log that compacts on demand
        deletes them; on Kafka a tombstone under the raw key goes (through the log under
        the sealer, which would key it), and stays until the broker's cleaner drops it."""
        name, ordered = topic.name(self.deps.names.prefix), sorted(ids)
        compacting = self.deps.capabilities.compacting
        if compacting is not None:
            await compacting.expunge(name, partition, [topic.key_for(i) for i in ordered])
        elif ordered:
            tombstones = [topic.tombstone(partition, i) for i in ordered]
            await raw_log(self.deps.log).append(name, tombstones)

    async def _clean_while_compacting(self, job: Erasing, save: SaveGate) -> dict[str, int]:
        """A subject erasure deletes the scope's views and index points by scope, so the
        views need none of the fact changes it sent: the log is compacted (in a thread of
        the embedded log) while the other stores are cleaned, and the views' consumers
        then read the tombstones only."""
        compaction = await started(self._compact(job.scope_key))
        try:
            counts = await self._clean_stores(job)
            await save()
        finally:
            compacted = await compaction
        return {**counts, "log_records_compacted": compacted}

    async def _clean_stores(self, job: Erasing) -> dict[str, int]:
        """Evidence, index points, cached embeddings and (for a subject) the data key.
        A subject's views and index points go by scope (``job.views``, started earlier):
        the fact changes it sent then find nothing left to delete."""
        deps = self.deps
        points = await self._delete_points(job)
        if job.views is not None:
            await job.views
        evidence = await deps.evidence.delete_many(job.erased_ids)
        cached = deps.embedder.forget(job.texts)
        shredded = await deps.sealer.shred(job.scope_key) if job.subject else {}
        return {
            "evidence_store": evidence,
            "vector_index": points,
            "embedding_cache": cached,
            "data_keys": shredded.get("data_keys", 0),
            "log_keys": shredded.get("log_keys", 0),
        }

    async def _delete_points(self, job: Erasing) -> int:
        """The erased turns' evidence points (every point of the scope, facts too, for a
        subject); fact points otherwise go as the views apply the fact changes."""
        vectors = self.deps.vectors
        if vectors is None:
            return 0
        if job.subject:
            return await vectors.delete_scope(job.request.scope.key)
        await vectors.delete(job.erased_ids)
        return len(job.erased_ids)

    async def _compact(self, scope_key: str, crypto: CryptoCompaction | None = None) -> int:
        """Records the log no longer holds, or holds only under a destroyed key (a log
        that compacts by scope: of the scope's records on its partition alone)."""
        compacting = self.deps.capabilities.compacting
        if compacting is None:  # the broker compacts in its own time: crypto-compaction
            return 0 if crypto is None else await crypto.finish()
        names = self.deps.names
        if isinstance(compacting, ScopeCompacting):  # the scope's records of its partition
            partition = partition_for(scope_key, self.deps.settings.partitions)
            compacted = compacting.compact_scope(
                scope_key, partition, names.turns, names.fact_changes
            )
            return int(await compacted)
        return int(await compacting.compact(names.turns, names.fact_changes))


async def delete_views(deps: ErasureDeps, request: ErasureRequested) -> Views:
    """A subject's views go by scope (all of its facts go), started now: the embedded
    views delete in a worker thread while the cascade goes on (None otherwise)."""
    if request.target is not ErasureTarget.SUBJECT:
        return None
    return await started(deps.views.delete_scope(request.scope.key))


async def started(work: Awaitable[_T]) -> asyncio.Future[_T]:
    """``work`` as a task that has begun: one pass of the event loop lets it reach its
    first wait (a store's worker thread), so it overlaps what the caller does next."""
    task = asyncio.ensure_future(work)
    await asyncio.sleep(0)
    return task


def fact_counts(changes: list[FactChanged]) -> dict[str, int]:
    erased = sum(c.op is FactOp.ERASE for c in changes)
    return {"facts_erased": erased, "facts_revalidated": len(changes) - erased}


def erase_change(fact: FactVersion, cause: str) -> FactChanged:
    """The ERASE change of a fact known by its version alone (no vector, no validation)."""
    return erasure_of(fact.fact_id, fact.scope, fact.version, cause)


def _turn(raw: bytes) -> TurnRecorded | None:
    try:
        return TURNS.decode(raw)
    except ValueError:
        return None


async def views_applied(
    log: EventLog, group: str, topic: str, partition: int, timeout_s: float = 120.0
) -> None:
    """Wait until ``group`` has committed everything now on the partition (the views
    of a distributed runtime apply fact changes in another agent, maybe another worker)."""
    end = await log.end_offset(topic, partition)
    deadline = time.monotonic() + timeout_s
    while await log.committed(group, topic, partition) < end:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{topic}[{partition}] not applied up to {end} in {timeout_s} s")
        await asyncio.sleep(0.1)
