"""The stages a replay runs: the live pipeline's handlers, aimed at a new generation.

Nothing here derives or materializes by itself: :class:`Rederive` calls the Deriver (the
gate of the new generation) and hands its fact changes to the Materializer of the new
generation's views; :class:`Quiet` wraps the Materializer or the EvidenceIndexer. Both
keep records of other scopes out (``--scope``) and drop what the stage would send: the
log already holds those fact changes and dead letters, a replay must not add copies.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from pydantic import ValidationError

from provmem.core.ports import EvidenceStore, LogRecord
from provmem.core.scope import Scope
from provmem.streams.indexing import TombstonedTurns, decode_turn
from provmem.streams.outcome import Outcome
from provmem.streams.pipeline import Deriver
from provmem.streams.runner import Stage

ScopeFilter = Callable[[LogRecord], bool]


def scope_filter(scopes: Sequence[str]) -> ScopeFilter:
    """Keep records of these scope keys (every record when there are none).

    Tombstones are kept: they carry no scope and only remove what their key names."""
    wanted = frozenset(scopes)

    def keep(record: LogRecord) -> bool:
        if not wanted or record.value is None:
            return True
        return record_scope(record.value) in wanted

    return keep


def record_scope(value: bytes) -> str | None:
    """The scope key of a turn or a fact change, or None when the record does not say."""
    try:
        return Scope.model_validate(json.loads(value)["scope"]).key
    except (ValueError, KeyError, TypeError, ValidationError):
        return None


class Quiet:
    """Run a stage on the kept records; count them; send nothing."""

    def __init__(self, stage: Stage, keep: ScopeFilter) -> None:
        self._stage = stage
        self._keep = keep
        self.applied = 0

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        kept = [r for r in records if self._keep(r)]
        outcome = await self._stage.handle_batch(kept)
        self.applied += sum(r.value is not None for r in kept)
        return Outcome(state=outcome.state, decisions=outcome.decisions)


class Rederive:
    """Turns -> the new generation's gate -> its views, without writing to the log."""

    def __init__(
        self, deriver: Deriver, materializer: Stage, fact_changes: str, keep: ScopeFilter
    ) -> None:
        self._deriver = deriver
        self._materializer = materializer
        self._fact_changes = fact_changes
        self._keep = keep
        self.applied = 0

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        derived = await self._deriver.handle_batch([r for r in records if self._keep(r)])
        changes = [
            LogRecord(item.topic, item.record.partition, -1, item.record.key, item.record.value)
            for item in derived.outgoing
            if item.topic == self._fact_changes and item.record.value is not None
        ]
        await self._materializer.handle_batch(changes)
        self.applied += len(changes)
        return Outcome(state=derived.state, decisions=derived.decisions)


class RestoreEvidence:
    """The evidence view is a projection of the turns topic too: put each turn (idempotent;
    a tombstone deletes its evidence, so an erasure is never undone), then run ``stage``.
    A tombstone's key is keyed: ``tombstones`` finds the id it names (streams/indexing.py).

    This is what brings evidence back when the view store lost it (a Redis restart)."""

    def __init__(
        self, evidence: EvidenceStore, stage: Stage, tombstones: TombstonedTurns | None = None
    ) -> None:
        self._evidence = evidence
        self._stage = stage
        self._tombstones = tombstones or TombstonedTurns()

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        turns = [decode_turn(r.value) for r in records if r.value is not None]
        await self._tombstones.remember([t for t in turns if t is not None])
        named = await self._tombstones.named([r for r in records if r.value is None])
        for record in records:
            if record.value is None and record.key in named:
                await self._evidence.delete(named[record.key])
            elif record.value is not None and (turn := decode_turn(record.value)) is not None:
                await self._evidence.put(turn)
        return await self._stage.handle_batch(records)
