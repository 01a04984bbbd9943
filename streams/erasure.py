"""The erasure cascade, for both runtimes: tombstones, re-derivation, cleanup, receipt, audit.

It runs where the scope's gate state lives. The embedded runtime runs it in-process
(:class:`Eraser` over the process's components). The distributed runtime routes each
request to a *control record* on the scope's turns partition (:class:`ErasureRouter`);
the derive agent that owns the partition meets it after the scope's earlier turns and
runs the same cascade against its faust table (:class:`ScopeRecords`). See
core/erasure.py for why re-derivation makes every view equal a fresh replay.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import TypeVar

import structlog

from ..core.erasure import changes_between, erasure_of, remaining, targeted
from ..core.events import (
    ErasureCompleted,
    ErasureRequested,
    ErasureTarget,
    FactChanged,
    FactOp,
    TurnRecorded,
)
from ..core.memory_state import ScopeMemory
from ..core.ports import (
    Append,
    EventLog,
    EvidenceStore,
    FactViews,
    KeyStore,
    LogRecord,
    StateStore,
    VectorIndex,
)
from ..core.scope import partition_for
from ..infra.crypto import EvidenceSealer, master_key, subject_key_id
from ..infra.embedding import MiniLMEmbedder
from ..infra.residue import audit_key, ledger_box
from ..infra.settings import Settings
from .erasure_fingerprints import (
    LEGACY_SCHEME,
    SCHEME,
    Fingerprint,
    fingerprinter,
    fingerprints,
    fragments_in,
)
from .erasure_journal import Journal, keyed_print, merged
from .erasure_residue import MARKS_FIELD, ErasureResidue, byte_audit
from .gate_store import FactVersion
from .outcome import Origin, Outcome, Outgoing
from .pipeline import CONTROL_PREFIX, Deriver
from .runner import send_all
from .topics import ERASURE_RECEIPTS, ERASURE_REQUESTS, FACT_CHANGES, TURNS, TopicNames

LEDGER = "erasure|"
SCAN_BATCH = 1000
log = structlog.get_logger(__name__)

CatchUp = Callable[[], Awaitable[None]]
SaveGate = Callable[[], Awaitable[None]]
_T = TypeVar("_T")
#: A subject's views being deleted by scope (None for other requests).
Views = asyncio.Future[int] | None
#: Waits until the views have applied what is on a fact-changes partition.
Settle = Callable[[int], Awaitable[None]]


class ErasureUnavailableError(RuntimeError):
    """This process cannot run an erasure: the gate state lives elsewhere."""


async def _nothing() -> None:
    return None


async def _applied_inline(partition: int) -> None:
    return None


@dataclass(frozen=True)
class ErasureDeps:
    """What the cascade reads and writes. ``state`` and ``deriver`` are the gate's (absent
    in a process that only audits); ``ledger`` keeps what each request erased (ids and
    keyed fingerprints, never text) and its receipt; ``catch_up`` derives every turn
    already on the log, ``settle`` waits until the views have applied the changes sent."""

    settings: Settings
    names: TopicNames
    log: EventLog
    evidence: EvidenceStore
    views: FactViews
    keys: KeyStore
    sealer: EvidenceSealer
    vectors: VectorIndex | None
    embedder: MiniLMEmbedder
    ledger: StateStore
    state: StateStore | None = None
    deriver: Deriver | None = None
    catch_up: CatchUp = _nothing
    settle: Settle = _applied_inline


@dataclass(frozen=True)
class Residue:
    found: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.found.values())


@dataclass(frozen=True)
class _Scan:
    """One pass over the scope's turns partition (up to a control record's offset)."""

    turns: list[TurnRecorded]
    tombstoned: set[str]


class Eraser:
    """Runs erasure requests, and audits them, against one runtime's stores."""

    def __init__(self, deps: ErasureDeps) -> None:
        self._d = deps
        self._secret = hmac.new(
            master_key(deps.settings), b"provmem-audit", hashlib.sha256
        ).digest()
        self._mark = fingerprinter(SCHEME, self._secret)
        self._sealed, self._opened = ledger_box(audit_key(master_key(deps.settings)))

    async def erase(self, request: ErasureRequested, until: int | None = None) -> ErasureCompleted:
        """Erase what the request targets among the scope's turns (those before offset
        ``until`` of its partition, when given); idempotent by request id."""
        done = await self._ledger(request.request_id)
        if done is not None:
            return ErasureCompleted.model_validate(done["receipt"])
        state, deriver = self._gate_of()
        started = time.perf_counter()
        await self._d.catch_up()
        scan = await self._scope_log(request.scope.key, until)
        live = remaining(scan.turns, scan.tombstoned)
        erased_ids = list(dict.fromkeys(targeted(request, scan.turns)))  # tombstoned too
        journal = await Journal.resume(
            self._d.ledger, request.request_id, erased_ids, (self._sealed, self._opened)
        )
        erased_ids = journal.evidence_ids  # with those a crashed run of it erased
        texts = await self._texts([t for t in live if t.evidence_id in erased_ids])
        trace = await ErasureResidue.start(self._d, request, erased_ids, texts, live)
        views = await self._delete_views(request)
        prints = await self._fingerprints(texts, remaining(live, set(erased_ids)))
        removed = await self._cascade(request, live, erased_ids, texts, deriver, views, journal)
        await trace.purge()
        seconds = time.perf_counter() - started
        residue = await self._verify(request, erased_ids, texts, prints, state)
        receipt = self._receipt(
            request, erased_ids, merged(journal.counts, removed), seconds, residue
        )
        await self._record(request, erased_ids, prints, receipt, await trace.marks())
        await journal.close()
        return receipt

    async def _fingerprints(self, texts: list[str], kept: list[TurnRecorded]) -> set[str]:
        """Keyed fingerprints of the erased text's word runs, except runs that live
        evidence of the scope also says (those are not a trace of the erased turns)."""
        erased = fingerprints(texts, self._mark)
        if not erased or not kept:
            return erased
        return erased - fingerprints(await self._texts(kept), self._mark)

    async def _delete_views(self, request: ErasureRequested) -> Views:
        """A subject's views go by scope (all of its facts go), started now: the embedded
        views delete in a worker thread while the cascade goes on (None otherwise)."""
        if request.target is not ErasureTarget.SUBJECT:
            return None
        return await started(self._d.views.delete_scope(request.scope.key))

    def _gate_of(self) -> tuple[StateStore, Deriver]:
        if self._d.state is None or self._d.deriver is None:
            raise ErasureUnavailableError(
                "erasure runs where the gate state lives: use the embedded runtime, or file "
                "the request on the erasure-requests topic for the workers"
            )
        return self._d.state, self._d.deriver

    async def _texts(self, turns: list[TurnRecorded]) -> list[str]:
        """Plaintext of the turns to erase, while it can still be read (for the audit)."""
        texts = []
        for turn in turns:
            try:
                texts.append(await self._d.sealer.open(turn.text))
            except LookupError:
                continue  # already shredded by an interrupted run of this request
        return texts

    async def _scope_log(self, scope_key: str, until: int | None) -> _Scan:
        """The scope's turns and the ids tombstoned, in one pass over its partition."""
        log, topic = self._d.log, self._d.names.turns
        partition = partition_for(scope_key, self._d.settings.partitions)
        scan = _Scan([], set())
        offset = 0
        while batch := await log.read(topic, partition, offset, SCAN_BATCH):
            offset = batch[-1].offset + 1
            for record in batch:
                if until is not None and record.offset >= until:
                    return scan
                _collect(scan, scope_key, record)
        return scan

    async def _cascade(
        self,
        request: ErasureRequested,
        live: list[TurnRecorded],
        erased_ids: list[str],
        texts: list[str],
        deriver: Deriver,
        views: Views,
        journal: Journal,
    ) -> dict[str, int]:
        """Send, then save state: tombstones and fact changes go out before the gate's
        new memory is saved, so a crash in between re-derives the same changes. What
        each step removes is journaled (streams/erasure_journal.py)."""
        scope_key = request.scope.key
        partition = partition_for(scope_key, self._d.settings.partitions)
        await self._d.log.append(
            self._d.names.turns, [Append(partition, e.encode(), None) for e in erased_ids]
        )
        kept = remaining(live, set(erased_ids))
        if kept:
            changes, save = await self._rederive(request, kept, erased_ids, deriver)
        else:
            changes, save = await self._erase_all(request, erased_ids, deriver)
        await journal.note(_fact_counts(changes))
        await self._publish_changes(changes, partition, request)
        if request.target is ErasureTarget.SUBJECT:
            counts = await self._clean_while_compacting(request, erased_ids, texts, save, views)
            await self._d.settle(partition)
        else:
            counts = await self._clean_stores(request, erased_ids, texts, views)
            await save()
            await self._d.settle(partition)
            counts["log_records_compacted"] = await self._compact()
        await journal.note(counts)
        return counts | _fact_counts(changes)

    async def _rederive(
        self,
        request: ErasureRequested,
        kept: list[TurnRecorded],
        erased_ids: list[str],
        deriver: Deriver,
    ) -> tuple[list[FactChanged], SaveGate]:
        """Rebuild the scope's memory from its remaining turns; the changes are the
        difference (see core/erasure.py)."""
        scope_key = request.scope.key
        revision, before = await deriver.gate.load(scope_key, {})
        after = await deriver.rebuild(kept)
        changes = changes_between(before, after, request.request_id)
        return changes, partial(
            deriver.gate.replace, scope_key, revision, before, after, erased_ids
        )

    async def _erase_all(
        self, request: ErasureRequested, erased_ids: list[str], deriver: Deriver
    ) -> tuple[list[FactChanged], SaveGate]:
        """Nothing of the scope remains: a rebuild would be empty, so every fact is erased
        (what ``changes_between`` gives against an empty memory), from the facts' versions
        alone: no re-derivation, no vectors decoded."""
        scope_key = request.scope.key
        revision, versions = await deriver.gate.versions(scope_key)
        versions.sort(key=lambda v: v.fact_id)
        changes = [erase_change(v, request.request_id) for v in versions]
        fact_ids = [v.fact_id for v in versions]
        return changes, partial(deriver.gate.clear, scope_key, revision, fact_ids, erased_ids)

    async def _publish_changes(
        self, changes: list[FactChanged], partition: int, request: ErasureRequested
    ) -> None:
        """The fact changes, then a tombstone for each erased fact. A subject erasure on a
        log that compacts at once (the embedded one) appends the tombstones alone: it
        compacts before any stage reads on (its views and index points went by scope),
        so its ERASE changes would be appended only to be removed unread, and a reader
        that meets a fact's tombstone alone takes it for the ERASE (services/subscriptions.py).
        """
        topic = self._d.names.fact_changes
        tombstones_only = request.target is ErasureTarget.SUBJECT and self._compacts_at_once()
        out = [
            Outgoing(topic, Append(partition, c.fact_id.encode(), FACT_CHANGES.encode(c)))
            for c in ([] if tombstones_only else changes)
        ]
        out += [
            Outgoing(topic, Append(partition, c.fact_id.encode(), None))
            for c in changes
            if c.op is FactOp.ERASE
        ]
        await send_all(self._d.log, out)

    async def _clean_while_compacting(
        self,
        request: ErasureRequested,
        erased_ids: list[str],
        texts: list[str],
        save: SaveGate,
        views: Views,
    ) -> dict[str, int]:
        """A subject erasure deletes the scope's views and index points by scope, so the
        views need none of the fact changes it sent: the log is compacted (in a thread of
        the embedded log) while the other stores are cleaned, and the views' consumers
        then read the tombstones only."""
        compaction = await started(self._compact())
        try:
            counts = await self._clean_stores(request, erased_ids, texts, views)
            await save()
        finally:
            compacted = await compaction
        return {**counts, "log_records_compacted": compacted}

    async def _clean_stores(
        self, request: ErasureRequested, erased_ids: list[str], texts: list[str], views: Views
    ) -> dict[str, int]:
        """Evidence, index points, cached embeddings and (for a subject) the data key.
        A subject's views and index points go by scope (``views``, started earlier): the
        fact changes it sent then find nothing left to delete."""
        subject = request.target is ErasureTarget.SUBJECT
        points = await self._delete_points(request, erased_ids)
        if views is not None:
            await views
        evidence = await self._d.evidence.delete_many(erased_ids)
        cached = self._d.embedder.forget(texts)
        keys = 0
        if subject:
            key_id = subject_key_id(request.scope.key)
            keys = int(await self._d.keys.destroy(key_id))
            self._d.sealer.forget(key_id)
        return {
            "evidence_store": evidence,
            "vector_index": points,
            "embedding_cache": cached,
            "data_keys": keys,
        }

    async def _delete_points(self, request: ErasureRequested, erased_ids: list[str]) -> int:
        """The erased turns' evidence points (every point of the scope, facts too, for a
        subject); fact points otherwise go as the views apply the fact changes."""
        if self._d.vectors is None:
            return 0
        if request.target is ErasureTarget.SUBJECT:
            return await self._d.vectors.delete_scope(request.scope.key)
        await self._d.vectors.delete(erased_ids)
        return len(erased_ids)

    def _compacts_at_once(self) -> bool:
        return getattr(self._d.log, "compact", None) is not None

    async def _compact(self) -> int:
        compact = getattr(self._d.log, "compact", None)
        if compact is None:
            return 0  # Kafka compacts on the broker (log cleaner)
        return int(await compact(self._d.names.turns, self._d.names.fact_changes))

    async def _verify(
        self,
        request: ErasureRequested,
        erased_ids: list[str],
        texts: list[str],
        prints: set[str],
        state: StateStore,
    ) -> Residue:
        residue = await self._scan(request.scope.key, erased_ids, prints, self._mark)
        residue.found["gate_state"] = await self._gate_residue(state, request.scope.key, erased_ids)
        residue.found["embedding_cache"] = sum(self._d.embedder.cached(t) for t in texts)
        return residue

    async def audit(self, request_id: str) -> Residue:
        """Scan every store this process can see for traces of what the request erased
        (the gate state too where it lives here; a worker checks it before the receipt)."""
        entry = await self._ledger(request_id)
        if entry is None:
            raise LookupError(f"erasure {request_id}: no such request")
        scope_key, erased_ids = self._opened(entry["scope"]), self._opened(entry["evidence_ids"])
        mark = fingerprinter(entry.get("fingerprint_scheme", LEGACY_SCHEME), self._secret)
        residue = await self._scan(scope_key, erased_ids, set(entry["fragments"]), mark)
        residue.found.update(await byte_audit(self._d, entry, scope_key))
        if self._d.state is not None and self._d.deriver is not None:
            residue.found["gate_state"] = await self._gate_residue(
                self._d.state, scope_key, erased_ids
            )
        return residue

    async def _scan(
        self, scope_key: str, erased_ids: list[str], prints: set[str], mark: Fingerprint
    ) -> Residue:
        found = {"evidence_store": 0, "fact_views": 0, "vector_index": 0, "log": 0}
        for evidence_id in erased_ids:
            found["evidence_store"] += await self._d.evidence.get(evidence_id) is not None
            found["fact_views"] += len(await self._d.views.facts_for_evidence(evidence_id))
            found["vector_index"] += await self._payload(evidence_id) is not None
        found["fact_views"] += await self._fragment_residue(scope_key, prints, mark)
        found["log"] = await self._log_residue(erased_ids)
        return Residue(found)

    async def _payload(self, item_id: str) -> object:
        payload = getattr(self._d.vectors, "payload", None)
        return None if payload is None else await payload(item_id)

    async def _gate_residue(self, state: StateStore, scope_key: str, erased_ids: list[str]) -> int:
        assert self._d.deriver is not None  # noqa: S101 - only called where the gate lives
        gate = self._d.deriver.gate
        seen = sum([await state.load(k) is not None for k in gate.seen_keys(scope_key, erased_ids)])
        _, memory = await gate.load(scope_key, {})
        return seen + _cited(memory, set(erased_ids))

    async def _fragment_residue(self, scope_key: str, prints: set[str], mark: Fingerprint) -> int:
        count = 0
        for fact in await self._d.views.facts_in_scope(scope_key):
            for version in [fact, *await self._d.views.history(fact.fact_id)]:
                count += fragments_in(version.statement, prints, mark) > 0
        return count

    async def _log_residue(self, erased_ids: list[str]) -> int:
        """Readable traces that compaction would keep: the latest record of a key that is
        an erased turn, or a fact change still citing erased evidence. (The embedded log
        compacts at once; a Kafka broker's log cleaner drops the older records later.)"""
        erased, count = set(erased_ids), 0
        for topic in (self._d.names.turns, self._d.names.fact_changes):
            for partition in range(await self._d.log.partitions(topic)):
                latest = await self._latest(topic, partition)
                count += sum(_survives(key, value, erased) for key, value in latest.items())
        return count

    async def _latest(self, topic: str, partition: int) -> dict[bytes, bytes | None]:
        latest: dict[bytes, bytes | None] = {}
        offset = 0
        while batch := await self._d.log.read(topic, partition, offset, SCAN_BATCH):
            offset = batch[-1].offset + 1
            latest.update((r.key or b"", r.value) for r in batch)
        return latest

    def _receipt(
        self,
        request: ErasureRequested,
        erased_ids: list[str],
        removed: dict[str, int],
        seconds: float,
        residue: Residue,
    ) -> ErasureCompleted:
        stores = {k: v for k, v in removed.items() if not k.startswith("facts_")}
        return ErasureCompleted(
            request_id=request.request_id,
            scope_key_hash=keyed_print(self._secret, request.scope.key),
            evidence_erased=len(erased_ids),
            facts_erased=removed["facts_erased"],
            facts_revalidated=removed["facts_revalidated"],
            removed_per_store=stores,
            seconds_to_receipt=round(seconds, 4),
            residue_found=residue.total,
            verified_by="provmem-audit/1",
            completed_at=datetime.now(UTC),
        )

    async def _record(
        self,
        request: ErasureRequested,
        erased_ids: list[str],
        prints: set[str],
        receipt: ErasureCompleted,
        marks: dict[str, object],
    ) -> None:
        entry = {
            "scope": self._sealed(request.scope.key),
            "evidence_ids": self._sealed(erased_ids),
            "fragments": sorted(prints),
            "fingerprint_scheme": SCHEME,
            MARKS_FIELD: marks,
            "receipt": receipt.model_dump(mode="json"),
        }
        await self._d.ledger.save(LEDGER + request.request_id, json.dumps(entry).encode())
        record = Append(0, request.request_id.encode(), ERASURE_RECEIPTS.encode(receipt))
        await self._d.log.append(self._d.names.erasure_receipts, [record])

    async def receipt(self, request_id: str) -> ErasureCompleted | None:
        entry = await self._ledger(request_id)
        return None if entry is None else ErasureCompleted.model_validate(entry["receipt"])

    async def _ledger(self, request_id: str) -> dict | None:  # type: ignore[type-arg]
        raw = await self._d.ledger.load(LEDGER + request_id)
        return None if raw is None else json.loads(raw)


async def started(work: Awaitable[_T]) -> asyncio.Future[_T]:
    """``work`` as a task that has begun: one pass of the event loop lets it reach its
    first wait (a store's worker thread), so it overlaps what the caller does next."""
    task = asyncio.ensure_future(work)
    await asyncio.sleep(0)
    return task


def _fact_counts(changes: list[FactChanged]) -> dict[str, int]:
    erased = sum(c.op is FactOp.ERASE for c in changes)
    return {"facts_erased": erased, "facts_revalidated": len(changes) - erased}


def erase_change(fact: FactVersion, cause: str) -> FactChanged:
    """The ERASE change of a fact known by its version alone (no vector, no validation)."""
    return erasure_of(fact.fact_id, fact.scope, fact.version, cause)


def _collect(scan: _Scan, scope_key: str, record: LogRecord) -> None:
    if record.value is None:
        scan.tombstoned.add((record.key or b"").decode())
    elif (turn := _turn(record.value)) is not None and turn.scope.key == scope_key:
        scan.turns.append(turn)


def _cited(memory: ScopeMemory, erased: set[str]) -> int:
    return sum(bool(set(f.evidence_ids) & erased) for f in memory.facts.values())


def _turn(raw: bytes | None) -> TurnRecorded | None:
    if raw is None:
        return None
    try:
        turn = TURNS.decode(raw)
    except ValueError:
        return None
    return turn if isinstance(turn, TurnRecorded) else None


_EVIDENCE_ID = re.compile(rb"ev_[0-9a-f]{32}")


def _survives(key: bytes, value: bytes | None, erased: set[str]) -> bool:
    """Whether a record that compaction keeps still holds an erased turn or names erased
    evidence in a fact change (turn records are sealed: their key is what counts)."""
    if value is None or key.startswith(CONTROL_PREFIX):
        return False  # a control record names ids, not content; it is tombstoned after
    if key.decode(errors="replace") in erased:
        return True
    if value.startswith(b'{"schema_version":1,"evidence_id"'):
        return False
    return any(m.decode() in erased for m in _EVIDENCE_ID.findall(value))


# ------------------------------------------------------------------- distributed runtime


def control_record(request: ErasureRequested, partitions: int) -> Append:
    """The request as a control record on its scope's turns partition: it lands after
    the scope's turns, in the order the partition's derive agent handles them."""
    return Append(
        partition_for(request.scope.key, partitions),
        CONTROL_PREFIX + request.request_id.encode(),
        ERASURE_REQUESTS.encode(request),
    )


def control_request(key: bytes | None, raw: bytes | None) -> ErasureRequested | None:
    """The erasure request a turns-topic record carries, if it is a control record."""
    if key is None or raw is None or not key.startswith(CONTROL_PREFIX):
        return None
    request = ERASURE_REQUESTS.decode(raw)
    return request if isinstance(request, ErasureRequested) else None


class ErasureRouter:
    """Erasure requests (erasure-requests topic) -> control records on the turns topic."""

    def __init__(self, names: TopicNames, partitions: int) -> None:
        self._names = names
        self._partitions = partitions

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        outcome = Outcome()
        for record in records:
            request = _request(record)
            if request is not None:
                append = control_record(request, self._partitions)
                outcome.outgoing.append(Outgoing(self._names.turns, append))
        return outcome


def _request(record: LogRecord) -> ErasureRequested | None:
    if record.value is None:
        return None
    try:
        request = ERASURE_REQUESTS.decode(record.value)
    except ValueError as error:
        log.warning("erasure.undecodable", offset=record.offset, reason=str(error))
        return None
    return request if isinstance(request, ErasureRequested) else None


class ScopeRecords:
    """The records of a turns partition: turns go to the deriver, erasure control records
    to the cascade, which runs against the same gate state."""

    def __init__(self, deriver: Deriver, eraser: Eraser) -> None:
        self._deriver = deriver
        self._eraser = eraser

    async def handle(
        self,
        key: bytes | None,
        raw: bytes | None,
        origin: Origin,
        pending: dict[str, bytes],
    ) -> Outcome:
        try:
            request = control_request(key, raw)
        except ValueError as error:
            log.warning("erasure.undecodable", origin=origin, reason=str(error))
            return Outcome()
        if request is None:
            return await self._deriver.handle(key, raw, origin, pending)
        receipt = await self._eraser.erase(request, until=origin.offset)
        log.info("erasure.completed", request_id=request.request_id, residue=receipt.residue_found)
        done = Append(origin.partition, key or b"", None)  # the compacted log drops it
        return Outcome([Outgoing(origin.topic, done)])


async def views_applied(
    log_: EventLog, group: str, topic: str, partition: int, timeout_s: float = 120.0
) -> None:
    """Wait until ``group`` has committed everything now on the partition (the views
    of a distributed runtime apply fact changes in another agent, maybe another worker)."""
    end = await log_.end_offset(topic, partition)
    deadline = time.monotonic() + timeout_s
    while await log_.committed(group, topic, partition) < end:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{topic}[{partition}] not applied up to {end} in {timeout_s} s")
        await asyncio.sleep(0.1)
