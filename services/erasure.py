"""Compliance erasure: tombstones, re-derivation of the scope, store cleanup, receipt, audit.

The embedded runtime runs the whole cascade in-process. See core/erasure.py for why
re-derivation makes every view equal a fresh replay without the erased evidence.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import structlog

from ..core.erasure import changes_between, fingerprint, fragments_in, remaining, shingles, targeted
from ..core.events import ErasureCompleted, ErasureRequested, ErasureTarget, FactOp, TurnRecorded
from ..core.ports import Append, LogRecord, StateStore
from ..core.scope import Scope, partition_for
from ..infra.crypto import master_key, subject_key_id
from ..streams.outcome import Outcome, Outgoing
from ..streams.runner import send_all
from ..streams.topics import ERASURE_RECEIPTS, ERASURE_REQUESTS, FACT_CHANGES, TURNS
from .bootstrap import Components

LEDGER = "erasure|"
log = structlog.get_logger(__name__)


def erasure_request(
    scope: str, evidence_ids: list[str], session: str | None, subject: bool, reason: str = ""
) -> ErasureRequested:
    """A request whose id follows from what it erases, so filing it twice is one erasure."""
    parsed = Scope.parse(scope)
    if subject:
        target, ids = ErasureTarget.SUBJECT, ()
    elif session is not None:
        target, ids = ErasureTarget.SESSION, (session,)
    else:
        target, ids = ErasureTarget.EVIDENCE, tuple(sorted(set(evidence_ids)))
    seed = "\x1f".join([parsed.key, target.value, *ids])
    request_id = "er_" + hashlib.sha256(seed.encode()).hexdigest()[:24]
    return ErasureRequested(
        request_id=request_id,
        scope=parsed,
        target=target,
        ids=ids,
        requested_at=datetime.now(UTC),
        reason=reason,
    )


class ErasureUnavailableError(RuntimeError):
    """This runtime cannot run an erasure from here."""


@dataclass(frozen=True)
class Residue:
    found: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.found.values())


class Eraser:
    """Runs erasure requests against one runtime's components."""

    def __init__(self, components: Components) -> None:
        if components.state is None or components.deriver is None:
            raise ErasureUnavailableError(
                "erasure runs where the gate state lives: use the embedded runtime, or file "
                "the request on the erasure-requests topic for the workers"
            )
        self._c = components
        self._state: StateStore = components.state
        self._secret = hmac.new(
            master_key(components.settings), b"provmem-audit", hashlib.sha256
        ).digest()

    async def erase(self, request: ErasureRequested) -> ErasureCompleted:
        """Erase what the request targets; idempotent by request id."""
        done = await self._ledger(request.request_id)
        if done is not None:
            return ErasureCompleted.model_validate(done["receipt"])
        started = time.perf_counter()
        await self._c.runner.run_until_idle()
        turns, tombstoned = await self._scope_log(request.scope.key)
        live = remaining(turns, tombstoned)
        erased_ids = list(dict.fromkeys(targeted(request, turns)))  # tombstoned too: resumable
        texts = await self._texts([t for t in live if t.evidence_id in erased_ids])
        removed = await self._cascade(request, live, erased_ids, texts)
        seconds = time.perf_counter() - started
        residue = await self._verify(request, erased_ids, texts, removed["facts_erased"])
        receipt = self._receipt(request, erased_ids, removed, seconds, residue)
        await self._record(request, erased_ids, removed, texts, receipt)
        return receipt

    async def _texts(self, turns: list[TurnRecorded]) -> list[str]:
        """Plaintext of the turns to erase, while it can still be read (for the audit)."""
        texts = []
        for turn in turns:
            try:
                texts.append(await self._c.sealer.open(turn.text))
            except LookupError:
                continue  # already shredded by an interrupted run of this request
        return texts

    async def _scope_log(self, scope_key: str) -> tuple[list[TurnRecorded], set[str]]:
        """One pass over the scope's turns partition: its turns, and the ids tombstoned."""
        log, topic = self._c.log, self._c.names.turns
        partition = partition_for(scope_key, self._c.settings.partitions)
        turns: list[TurnRecorded] = []
        dead: set[str] = set()
        offset = 0
        while batch := await log.read(topic, partition, offset, 1000):
            offset = batch[-1].offset + 1
            for record in batch:
                if record.value is None:
                    dead.add((record.key or b"").decode())
                elif (turn := _turn(record.value)) is not None and turn.scope.key == scope_key:
                    turns.append(turn)
        return turns, dead

    async def _cascade(
        self,
        request: ErasureRequested,
        live: list[TurnRecorded],
        erased_ids: list[str],
        texts: list[str],
    ) -> dict[str, int]:
        scope_key = request.scope.key
        partition = partition_for(scope_key, self._c.settings.partitions)
        await self._c.log.append(
            self._c.names.turns, [Append(partition, e.encode(), None) for e in erased_ids]
        )
        changes = await self._rederive(scope_key, live, erased_ids, request.request_id)
        await self._publish_changes(changes, partition)
        counts = await self._clean_stores(request, erased_ids, texts)
        await self._c.runner.run_until_idle()
        counts["log_records_compacted"] = await self._compact()
        counts["facts_erased"] = sum(c.op is FactOp.ERASE for c in changes)
        counts["facts_revalidated"] = sum(c.op is not FactOp.ERASE for c in changes)
        return counts

    async def _rederive(
        self, scope_key: str, live: list[TurnRecorded], erased_ids: list[str], cause: str
    ) -> list:  # type: ignore[type-arg]
        assert self._c.deriver is not None  # noqa: S101 - checked in __init__
        gate = self._c.deriver.gate
        revision, before = await gate.load(scope_key, {})
        kept = remaining(live, set(erased_ids))
        after = await self._c.deriver.rebuild(kept)
        await gate.replace(scope_key, revision, before, after, erased_ids)
        return changes_between(before, after, cause)

    async def _publish_changes(self, changes: list, partition: int) -> None:  # type: ignore[type-arg]
        topic = self._c.names.fact_changes
        out = [
            Outgoing(topic, Append(partition, c.fact_id.encode(), FACT_CHANGES.encode(c)))
            for c in changes
        ]
        out += [
            Outgoing(topic, Append(partition, c.fact_id.encode(), None))
            for c in changes
            if c.op is FactOp.ERASE
        ]
        await send_all(self._c.log, out)

    async def _clean_stores(
        self, request: ErasureRequested, erased_ids: list[str], texts: list[str]
    ) -> dict[str, int]:
        evidence = sum([await self._c.evidence.delete(e) for e in erased_ids])
        await self._c.vectors.delete(erased_ids)
        cached = self._c.embedder.forget(texts)
        keys = 0
        if request.target is ErasureTarget.SUBJECT:
            key_id = subject_key_id(request.scope.key)
            keys = int(await self._c.keys.destroy(key_id))
            self._c.sealer.forget(key_id)
        return {
            "evidence_store": evidence,
            "vector_index": len(erased_ids),
            "embedding_cache": cached,
            "data_keys": keys,
        }

    async def _compact(self) -> int:
        compact = getattr(self._c.log, "compact", None)
        if compact is None:
            return 0  # Kafka compacts on the broker (log cleaner)
        return int(await compact(self._c.names.turns)) + int(
            await compact(self._c.names.fact_changes)
        )

    async def _verify(
        self, request: ErasureRequested, erased_ids: list[str], texts: list[str], facts_erased: int
    ) -> Residue:
        prints = {fingerprint(self._secret, s) for t in texts for s in shingles(t)}
        residue = await self._scan(request.scope.key, erased_ids, prints)
        residue.found["embedding_cache"] = sum(self._c.embedder.cached(t) for t in texts)
        return residue

    async def audit(self, request_id: str) -> Residue:
        """Scan every store for traces of what the request erased."""
        entry = await self._ledger(request_id)
        if entry is None:
            raise LookupError(f"erasure {request_id}: no such request")
        return await self._scan(entry["scope"], entry["evidence_ids"], set(entry["fragments"]))

    async def _scan(self, scope_key: str, erased_ids: list[str], prints: set[str]) -> Residue:
        found = {"evidence_store": 0, "fact_views": 0, "vector_index": 0, "gate_state": 0, "log": 0}
        for evidence_id in erased_ids:
            found["evidence_store"] += await self._c.evidence.get(evidence_id) is not None
            found["fact_views"] += len(await self._c.views.facts_for_evidence(evidence_id))
            found["vector_index"] += await self._payload(evidence_id) is not None
        found["gate_state"] += await self._gate_residue(scope_key, erased_ids)
        found["fact_views"] += await self._fragment_residue(scope_key, prints)
        found["log"] = await self._log_residue(erased_ids, prints)
        return Residue(found)

    async def _payload(self, item_id: str) -> object:
        payload = getattr(self._c.vectors, "payload", None)
        return None if payload is None else await payload(item_id)

    async def _gate_residue(self, scope_key: str, erased_ids: list[str]) -> int:
        assert self._c.deriver is not None  # noqa: S101 - checked in __init__
        gate = self._c.deriver.gate
        seen = sum(
            [await self._state.load(k) is not None for k in gate.seen_keys(scope_key, erased_ids)]
        )
        _, memory = await gate.load(scope_key, {})
        cited = sum(bool(set(f.evidence_ids) & set(erased_ids)) for f in memory.facts.values())
        return seen + cited

    async def _fragment_residue(self, scope_key: str, prints: set[str]) -> int:
        count = 0
        for fact in await self._c.views.facts_in_scope(scope_key):
            for version in [fact, *await self._c.views.history(fact.fact_id)]:
                count += fragments_in(version.statement, prints, self._secret) > 0
        return count

    async def _log_residue(self, erased_ids: list[str], prints: set[str]) -> int:
        """Readable traces left on the log: records that still cite erased evidence."""
        log, count = self._c.log, 0
        erased = set(erased_ids)
        for topic in (self._c.names.turns, self._c.names.fact_changes):
            for partition in range(await log.partitions(topic)):
                offset = 0
                while batch := await log.read(topic, partition, offset, 1000):
                    offset = batch[-1].offset + 1
                    count += sum(_cites(r.value, erased) for r in batch)
        return count

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
            scope_key_hash=hashlib.sha256(request.scope.key.encode()).hexdigest()[:32],
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
        removed: dict[str, int],
        texts: list[str],
        receipt: ErasureCompleted,
    ) -> None:
        prints = sorted({fingerprint(self._secret, s) for t in texts for s in shingles(t)})
        entry = {
            "scope": request.scope.key,
            "evidence_ids": erased_ids,
            "fragments": prints,
            "receipt": receipt.model_dump(mode="json"),
        }
        await self._state.save(LEDGER + request.request_id, json.dumps(entry).encode())
        partition = 0
        record = Append(partition, request.request_id.encode(), ERASURE_RECEIPTS.encode(receipt))
        await self._c.log.append(self._c.names.erasure_receipts, [record])

    async def receipt(self, request_id: str) -> ErasureCompleted | None:
        entry = await self._ledger(request_id)
        return None if entry is None else ErasureCompleted.model_validate(entry["receipt"])

    async def _ledger(self, request_id: str) -> dict | None:  # type: ignore[type-arg]
        raw = await self._state.load(LEDGER + request_id)
        return None if raw is None else json.loads(raw)


def _turn(raw: bytes | None) -> TurnRecorded | None:
    if raw is None:
        return None
    try:
        turn = TURNS.decode(raw)
    except ValueError:
        return None
    return turn if isinstance(turn, TurnRecorded) else None


_EVIDENCE_ID = re.compile(rb"ev_[0-9a-f]{32}")


def _cites(value: bytes | None, erased: set[str]) -> bool:
    """Whether a fact-change record still names erased evidence (turns are sealed)."""
    if value is None or value.startswith(b'{"schema_version":1,"evidence_id"'):
        return False
    return any(m.decode() in erased for m in _EVIDENCE_ID.findall(value))


class ErasureStage:
    """Erasure requests from the topic -> the cascade (each request once, by its id)."""

    def __init__(self, eraser: Eraser) -> None:
        self._eraser = eraser

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        for record in records:
            if record.value is None:
                continue
            try:
                request = ERASURE_REQUESTS.decode(record.value)
            except ValueError as error:
                log.warning("erasure.undecodable", offset=record.offset, reason=str(error))
                continue
            if isinstance(request, ErasureRequested):
                await self._eraser.erase(request)
        return Outcome()
