"""Pipeline handlers shared by both runtimes: decode, call the pure core, say what to write.

A handler never sends anything itself: it returns an :class:`Outcome` and the
runtime sends the outgoing records first, then saves state, then commits the
input offset. A crash anywhere replays the input, and every step is idempotent
by id and version, so delivery is at-least-once with exactly-once effects.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

import structlog
from pydantic import ValidationError

from ..core.capture import TurnRejectedError
from ..core.events import FactChanged, FactOp, TurnRecorded
from ..core.gate import Decision, GateConfig, MergeAdvisor
from ..core.memory_state import as_unit
from ..core.ports import (
    Append,
    Embedder,
    EvidenceStore,
    Extractor,
    FactViews,
    LogRecord,
    VectorIndex,
    VectorPoint,
)
from ..core.scope import partition_for
from ..core.stages import Candidate, derive_fact_changes
from ..infra.crypto import EvidenceSealer
from .gate_store import GateStore
from .topics import FACT_CHANGES, TURNS, TopicNames

log = structlog.get_logger(__name__)


@dataclass(frozen=True)
class Outgoing:
    topic: str
    record: Append


@dataclass
class Outcome:
    """What a handler wants written: records to send, then state to save."""

    outgoing: list[Outgoing] = field(default_factory=list)
    state: dict[str, bytes] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)

    def merge(self, other: Outcome) -> None:
        self.outgoing.extend(other.outgoing)
        self.state.update(other.state)
        self.decisions.extend(other.decisions)


def _origin(record: LogRecord) -> tuple[str, int, int]:
    return (record.topic, record.partition, record.offset)


def dead_letter(
    names: TopicNames,
    stage: str,
    key: bytes | None,
    raw: bytes | None,
    error: str,
    origin: tuple[str, int, int],
) -> Outgoing:
    """The dead-letter record for a record that could not be processed, with its reason."""
    body = {
        "stage": stage,
        "error": error,
        "topic": origin[0],
        "partition": origin[1],
        "offset": origin[2],
        "value_b64": None if raw is None else base64.b64encode(raw).decode("ascii"),
    }
    return Outgoing(names.dead_letters, Append(0, key, json.dumps(body).encode("utf-8")))


def describe(error: Exception) -> str:
    """A one-line reason that names the failing fields."""
    if isinstance(error, ValidationError):
        return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    if isinstance(error, TurnRejectedError):
        return str(error)
    return f"{type(error).__name__}: {error}"


@dataclass(frozen=True)
class DeriveDeps:
    """What the derive stage needs besides the record: stores, crypto, models, gate config."""

    evidence: EvidenceStore
    gate: GateStore
    sealer: EvidenceSealer
    extractor: Extractor
    embedder: Embedder
    config: GateConfig
    advisor: MergeAdvisor | None = None


class Deriver:
    """Turns -> evidence view + gate decisions (fact changes)."""

    def __init__(self, names: TopicNames, partitions: int, deps: DeriveDeps) -> None:
        self._names = names
        self._partitions = partitions
        self._deps = deps

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        """Handle records in order; later turns of a scope see the earlier ones' state."""
        outcome = Outcome()
        for record in records:
            handled = await self.handle(record.key, record.value, _origin(record), outcome.state)
            outcome.merge(handled)
        return outcome

    async def handle(
        self,
        key: bytes | None,
        raw: bytes | None,
        origin: tuple[str, int, int],
        pending: dict[str, bytes],
    ) -> Outcome:
        if raw is None:
            return Outcome()  # a tombstone: erasure handles its effects
        try:
            turn = TURNS.decode(raw)
            assert isinstance(turn, TurnRecorded)  # noqa: S101 - TURNS carries TurnRecorded
            return await self._derive(turn, pending)
        except (ValidationError, ValueError, LookupError) as error:
            reason = describe(error)
            log.warning(
                "dead_letter",
                stage="derive",
                topic=origin[0],
                partition=origin[1],
                offset=origin[2],
                reason=reason,
            )
            return Outcome([dead_letter(self._names, "derive", key, raw, reason, origin)])

    async def _derive(self, turn: TurnRecorded, pending: dict[str, bytes]) -> Outcome:
        deps, scope_key = self._deps, turn.scope.key
        await deps.evidence.put(turn)
        if await deps.gate.seen(scope_key, turn.evidence_id, pending):
            return Outcome()
        candidates = await self._candidates(turn)
        revision, memory = await deps.gate.load(scope_key, pending)
        result = derive_fact_changes(
            turn, candidates, memory, deps.config, deps.extractor.version, deps.advisor
        )
        state = deps.gate.dump(scope_key, revision, memory, result.memory, turn.evidence_id)
        partition = partition_for(scope_key, self._partitions)
        outgoing = [self._out(change, partition) for change in result.changes]
        return Outcome(outgoing, state, list(result.decisions))

    async def _candidates(self, turn: TurnRecorded) -> list[Candidate]:
        text = await self._deps.sealer.open(turn.text)
        claims = self._deps.extractor.extract(
            text, speaker=turn.speaker, captured_at=turn.captured_at
        )
        vectors = self._deps.embedder.embed([c.statement for c in claims]) if claims else []
        return [Candidate(c, as_unit(v)) for c, v in zip(claims, vectors, strict=True)]

    def _out(self, change: FactChanged, partition: int) -> Outgoing:
        record = Append(partition, change.fact_id.encode(), FACT_CHANGES.encode(change))
        return Outgoing(self._names.fact_changes, record)


class Materializer:
    """Fact changes -> fact views and/or vector index entries (either may be absent)."""

    def __init__(
        self,
        names: TopicNames,
        views: FactViews | None,
        vectors: VectorIndex | None,
        embedder: Embedder | None,
    ) -> None:
        self._names = names
        self._views = views
        self._vectors = vectors
        self._embedder = embedder

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        """Decode a batch, dead-letter what does not decode, apply the rest together."""
        outcome, changes = Outcome(), []
        for record in records:
            if record.value is None:
                continue
            try:
                changes.append(_decode_change(record.value))
            except (ValidationError, ValueError) as error:
                letter = dead_letter(
                    self._names,
                    "materialize",
                    record.key,
                    record.value,
                    describe(error),
                    _origin(record),
                )
                outcome.outgoing.append(letter)
        await self.apply(changes)
        return outcome

    async def apply(self, changes: Sequence[FactChanged]) -> None:
        if self._views is not None:
            for change in changes:
                await self._views.apply(change)
        if self._vectors is not None:
            await self._index(changes)

    async def _index(self, changes: Sequence[FactChanged]) -> None:
        assert self._vectors is not None and self._embedder is not None  # noqa: S101
        erased = [c.fact_id for c in changes if c.op is FactOp.ERASE]
        fresh = [c for c in changes if c.op in (FactOp.ADD, FactOp.UPDATE) and c.fact]
        if erased:
            await self._vectors.delete(erased)
        if fresh:
            vectors = self._embedder.embed([c.fact.statement for c in fresh if c.fact])
            await self._vectors.upsert([_point(c, v) for c, v in zip(fresh, vectors, strict=True)])


def _decode_change(raw: bytes) -> FactChanged:
    change = FACT_CHANGES.decode(raw)
    assert isinstance(change, FactChanged)  # noqa: S101 - FACT_CHANGES carries FactChanged
    return change


def _point(change: FactChanged, vector: list[float]) -> VectorPoint:
    fact = change.fact
    assert fact is not None  # noqa: S101 - filtered above
    return VectorPoint(fact.fact_id, vector, fact.scope.key, fact.status.value, fact.statement)
