"""The erasure audit: what of an erased request can still be found, store by store.

:meth:`ErasureAudit.verify` runs inside an erasure, before its receipt is written (the
receipt's ``residue_found``); :meth:`ErasureAudit.audit` runs any time later from the
ledger entry (``provmem audit erasure``). Both run the same scans: by id and by keyed
fingerprint in each store, and the byte audit (streams/erasure/residue.py) of every file
under the data folder, Redis, the Qdrant server and the log's retained records; but an
evidence or session erasure's verification is scoped to where the erased content went
(``provmem-audit-scoped/1``: its ids in the stores that held them, its marks in the
scope's facts and in the scope's partition of the turns and fact-changes topics, the gate
state, the embedding cache), so that its cost follows what is erased, not the folder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import structlog

from provmem.core.events import ErasureRequested, ErasureTarget
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.scope import partition_for
from provmem.streams.erasure.fingerprints import Fingerprint, fragments_in
from provmem.streams.erasure.ledger import (
    SCOPED_VERIFIED_BY,
    VERIFIED_BY,
    AuditKeys,
    Recorded,
)
from provmem.streams.erasure.log_audit import Awaiting
from provmem.streams.erasure.ports import ErasureDeps, GateKeeper
from provmem.streams.erasure.residue import (
    MARKS_FIELD,
    byte_audit,
    owns_its_folder,
    slots_apart,
)
from provmem.streams.pipeline import CONTROL_PREFIX
from provmem.streams.runtime.adapters import partition_records, record_keys, scope_records
from provmem.streams.topics import TURNS

log = structlog.get_logger(__name__)
_EVIDENCE_ID = re.compile(rb"ev_[0-9a-f]{32}")


@dataclass(frozen=True)
class Residue:
    """Traces found, per store (0 everywhere: nothing of the request remains), and the
    log records that still open and await the broker's compaction (not residue: a
    compacting broker drops them within the topics' bound; streams/erasure/log_audit.py)."""

    found: dict[str, int]
    awaiting: Awaiting = Awaiting()
    findings: tuple[dict[str, Any], ...] = ()  # each byte hit: store, location, offset...
    verified_by: str = VERIFIED_BY  # SCOPED_VERIFIED_BY: where the erased content went

    @property
    def total(self) -> int:
        return sum(self.found.values())


class ErasureAudit:
    """Scans the stores one process reaches for an erased request's traces."""

    def __init__(self, deps: ErasureDeps, keys: AuditKeys) -> None:
        self.deps = deps
        self.keys = keys

    async def verify(
        self,
        request: ErasureRequested,
        erased_ids: list[str],
        texts: Sequence[str],
        prints: set[str],
        marks: dict[str, Any],
        gate: GateKeeper,
    ) -> Residue:
        """Right after the cascade and the purge, with the erased texts still in hand: the
        audit's scans, bytes included (``marks``: the ledger field the audit will read; the
        data folder where the erasure owns it, but live readers' index slots, which rebuild
        at their next sync: streams/erasure/residue.py ``slots_apart``)."""
        scope_key, settings = request.scope.key, self.deps.settings
        files = owns_its_folder(settings)
        skip = slots_apart(settings, request.request_id) if files else ()
        mark = self.keys.mark()
        if request.target is ErasureTarget.SUBJECT:
            residue = await self._scan(scope_key, erased_ids, prints, mark, marks, files, skip)
        else:
            reach = partition_for(scope_key, settings.partitions)
            residue = await self._scan(scope_key, erased_ids, prints, mark, marks, False, (), reach)
        residue.found["gate_state"] = await self._gate_residue(gate, scope_key, erased_ids)
        residue.found["embedding_cache"] = sum(self.deps.embedder.cached(t) for t in texts)
        if residue.total:
            found = {k: v for k, v in residue.found.items() if v}
            log.error("erasure.unverified", request_id=request.request_id, residue=found)
        if residue.awaiting.records:
            log.warning(
                "erasure.awaiting_compaction",
                request_id=request.request_id,
                **residue.awaiting.to_json(),
            )
        return residue

    async def audit(self, recorded: Recorded) -> Residue:
        """From the ledger entry: every store this process can see, its bytes too, and
        the gate state where it lives here (a worker checks it before the receipt)."""
        scope_key, erased_ids = recorded.scope_key, recorded.evidence_ids
        mark, marks = self.keys.mark(recorded.scheme), recorded.fields.get(MARKS_FIELD)
        residue = await self._scan(scope_key, erased_ids, recorded.fragments, mark, marks)
        residue.found["vector_index"] += sum([await self._indexed(f) for f in recorded.fact_ids])
        gate = self.deps.gate()
        if gate is not None:
            residue.found["gate_state"] = await self._gate_residue(gate, scope_key, erased_ids)
        return residue

    async def _scan(
        self,
        scope_key: str,
        erased_ids: list[str],
        prints: set[str],
        mark: Fingerprint,
        marks: dict[str, Any] | None,
        files: bool = True,
        skip: tuple[str, ...] = (),
        partition: int | None = None,
    ) -> Residue:
        """The scans; ``partition`` given: scoped to where the erased content went
        (:data:`~provmem.streams.erasure.ledger.SCOPED_VERIFIED_BY`)."""
        deps = self.deps
        found = {"evidence_store": 0, "fact_views": 0, "vector_index": 0, "log": 0}
        for evidence_id in erased_ids:
            found["evidence_store"] += await deps.evidence.get(evidence_id) is not None
            found["fact_views"] += len(await deps.views.facts_for_evidence(evidence_id))
            found["vector_index"] += await self._indexed(evidence_id)
        found["fact_views"] += await self._fragment_residue(scope_key, prints, mark)
        found["log"] = await self._log_residue(erased_ids, partition, scope_key)
        findings = await byte_audit(deps, marks, scope_key, files, skip, partition)
        found.update(findings.found)
        hits = tuple(h.to_json() for h in findings.hits)
        by = VERIFIED_BY if partition is None else SCOPED_VERIFIED_BY
        return Residue(found, findings.awaiting, hits, by)

    async def _indexed(self, item_id: str) -> bool:
        payloads = self.deps.capabilities.payloads
        return payloads is not None and await payloads.payload(item_id) is not None

    async def _gate_residue(self, gate: GateKeeper, scope_key: str, erased_ids: list[str]) -> int:
        store = gate.deriver.gate
        keys = store.seen_keys(scope_key, erased_ids)
        seen = sum([await gate.state.load(k) is not None for k in keys])
        _, memory = await store.load(scope_key, {})
        return seen + _cited(memory, set(erased_ids))

    async def _fragment_residue(self, scope_key: str, prints: set[str], mark: Fingerprint) -> int:
        views, count = self.deps.views, 0
        for fact in await views.facts_in_scope(scope_key):
            for version in [fact, *await views.history(fact.fact_id)]:
                count += fragments_in(version.statement, prints, mark) > 0
        return count

    async def _log_residue(
        self, erased_ids: list[str], only: int | None = None, scope_key: str = ""
    ) -> int:
        """Readable traces that compaction would keep: the latest record of a key that is
        an erased turn, or a fact change still citing erased evidence. (The embedded log
        compacts at once; a Kafka broker's log cleaner drops the older records later.)
        ``only``: that partition alone (the scope's), read by scope where the log can."""
        erased, names, count = set(erased_ids), self.deps.names, 0
        printer = await record_keys(self.deps.log).printer()
        scope = scope_key if only is not None else None
        keys = {printer(i) for i in erased} | {TURNS.key_for(i) for i in erased}  # older: raw
        for partition in await self._partitions(names.turns, only):
            latest = await self._latest(names.turns, partition, scope)
            count += sum(_turn_survives(key, value, keys) for key, value in latest.items())
        for partition in await self._partitions(names.fact_changes, only):
            latest = await self._latest(names.fact_changes, partition, scope)
            count += sum(_change_survives(value, erased) for value in latest.values())
        return count

    async def _partitions(self, topic: str, only: int | None) -> list[int]:
        every = range(await self.deps.log.partitions(topic))
        return [p for p in every if only is None or p == only]

    async def _latest(
        self, topic: str, partition: int, scope: str | None = None
    ) -> dict[bytes, bytes | None]:
        """The latest record of each key of the partition (of ``scope``'s records and
        those that show none, when given: a key's records are all of one scope)."""
        log = self.deps.log
        if scope is None:
            records = partition_records(log, topic, partition)
        else:
            records = scope_records(log, topic, partition, scope)
        return {r.key or b"": r.value async for r in records}


def _cited(memory: ScopeMemory, erased: set[str]) -> int:
    return sum(bool(set(f.evidence_ids) & erased) for f in memory.facts.values())


def _turn_survives(key: bytes, value: bytes | None, erased: set[bytes]) -> bool:
    """A turns record that compaction keeps is a trace when its key is an erased turn's
    (turn records are sealed: the key is what counts; ``erased`` holds both key forms,
    keyed and raw). A control record names ids, not content, and is tombstoned after
    its erasure ran."""
    if value is None or key.startswith(CONTROL_PREFIX):
        return False
    return key in erased


def _change_survives(value: bytes | None, erased: set[str]) -> bool:
    """A fact change that compaction keeps is a trace when it names erased evidence."""
    if value is None:
        return False
    return any(m.decode() in erased for m in _EVIDENCE_ID.findall(value))
