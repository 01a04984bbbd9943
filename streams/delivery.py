"""Delivery guard: every record of an assigned partition is handled, none is skipped.

A stream consumer may, in rare races, skip records: on Tansu, faust-streaming 0.15
sometimes drops records it fetched while the recovery after a rebalance seeks the
stream partitions back to their committed offsets (its read-offset check then
discards the re-fetched ones). The skipped records are never acknowledged, so the
committed offset stops short of the end and the turns they carry never become facts.

The guard keeps, per partition, the *frontier*: the offset below which every record
has been handled. A record delivered above the frontier means records were skipped:
it is not handled (per-scope order matters: a paraphrase must not be handled before
the statement it repeats); the runtime asks the log what lies at the frontier and
either seeks back to it, so the records come again in order, or, when compaction
removed those offsets, moves the frontier past them. A partition whose frontier
stays behind the log's end while the agent has nothing to do had its tail skipped,
and is sought back the same way. Redelivery is harmless: every handler is idempotent.

Pure bookkeeping: no I/O, the clock is injected.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

Partition = tuple[str, int]

#: How long an idle agent waits before it suspects a partition that is behind.
GRACE_S = 3.0


@dataclass
class _State:
    frontier: int
    above: set[int] = field(default_factory=set)
    in_flight: int | None = None
    sought_at: float | None = None


class DeliveryGuard:
    """Per-partition frontiers of one agent (one consumer of its topics)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, grace_s: float = GRACE_S):
        self._clock = clock
        self._grace_s = grace_s
        self._states: dict[Partition, _State] = {}
        self._last_activity = clock()

    def knows(self, tp: Partition) -> bool:
        return tp in self._states

    def start(self, tp: Partition, committed: int) -> None:
        """Track ``tp`` from its committed offset (where delivery resumes)."""
        self._states[tp] = _State(frontier=max(committed, 0))

    def begin(self, tp: Partition, offset: int) -> None:
        self._state(tp).in_flight = offset
        self._last_activity = self._clock()

    def done(self, tp: Partition, offset: int) -> None:
        state = self._state(tp)
        state.in_flight = None
        self._last_activity = self._clock()
        if offset == state.frontier:
            self._advance(state, offset + 1)
        elif offset > state.frontier:
            state.above.add(offset)
        # below the frontier: a redelivery, nothing to do

    def ahead(self, tp: Partition, offset: int) -> bool:
        """``offset`` is above the frontier: records before it were not handled."""
        return offset > self._state(tp).frontier

    def seeking(self, tp: Partition) -> bool:
        """A seek back to the frontier was issued within the grace period."""
        sought_at = self._state(tp).sought_at
        return sought_at is not None and self._clock() - sought_at < self._grace_s

    def abandon(self, tp: Partition) -> None:
        """The handler failed: the record is not handled (it will be redelivered)."""
        self._state(tp).in_flight = None

    def forget(self, tps: Iterable[Partition]) -> None:
        """Partitions revoked: their frontiers are another worker's now."""
        for tp in tps:
            self._states.pop(tp, None)

    def suspects(self) -> list[tuple[Partition, int]]:
        """Partitions that may have skipped records, with their frontiers.

        Skipped for certain when a later record was handled; possibly when the agent
        has been idle for the grace period (the caller compares with the log's end)."""
        now = self._clock()
        idle = now - self._last_activity >= self._grace_s
        return [
            (tp, state.frontier)
            for tp, state in self._states.items()
            if state.in_flight is None
            and (state.above or idle)
            and (state.sought_at is None or now - state.sought_at >= self._grace_s)
        ]

    def skip_to(self, tp: Partition, offset: int) -> None:
        """The log holds nothing between the frontier and ``offset`` (compacted)."""
        state = self._state(tp)
        if offset > state.frontier:
            self._advance(state, offset)

    def sought(self, tp: Partition) -> None:
        """A seek back to the frontier was issued: give the redelivery a grace period."""
        self._state(tp).sought_at = self._clock()

    def frontier(self, tp: Partition) -> int:
        return self._state(tp).frontier

    def _state(self, tp: Partition) -> _State:
        if tp not in self._states:
            raise KeyError(f"delivery guard: partition {tp} is not tracked")
        return self._states[tp]

    @staticmethod
    def _advance(state: _State, frontier: int) -> None:
        state.frontier = frontier
        state.sought_at = None
        state.above = {o for o in state.above if o >= frontier}
        while state.frontier in state.above:
            state.above.discard(state.frontier)
            state.frontier += 1
