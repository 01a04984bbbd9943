"""The in-process runner: drives pipeline stages over any EventLog until caught up.

Used by the embedded runtime for everything, and by a reading process of the
distributed runtime to keep its own local vector index current.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from provmem.core.ports import Append, EventLog, LogRecord, StateStore
from provmem.streams.outcome import Outcome, Outgoing, execute
from provmem.streams.topics import TopicNames
from provmem.streams.topology import StageSpec

BATCH = 1024


class Stage(Protocol):
    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome: ...


@dataclass(frozen=True)
class StageBinding:
    """A stage consuming one topic as one consumer group."""

    name: str
    topic: str
    group: str
    stage: Stage

    @classmethod
    def of(cls, spec: StageSpec, names: TopicNames, group: str, stage: Stage) -> StageBinding:
        """A binding of the topology row ``spec`` (its name and input topic)."""
        return cls(spec.name, spec.input(names), group, stage)


Progress = Callable[[str, int], None]


class Runner:
    """Runs stages in order, each partition from its committed offset to the end."""

    def __init__(
        self, log: EventLog, state: StateStore | None, bindings: Sequence[StageBinding]
    ) -> None:
        self._log = log
        self._state = state
        self._bindings = bindings
        self.gate_stats: Counter[str] = Counter()

    async def run_until_idle(self, progress: Progress | None = None) -> dict[str, int]:
        """Process everything already on the log; return records handled per stage."""
        handled: dict[str, int] = {}
        for binding in self._bindings:
            handled[binding.name] = await self._drain(binding, progress)
        return handled

    async def _drain(self, binding: StageBinding, progress: Progress | None) -> int:
        total = 0
        for partition in range(await self._log.partitions(binding.topic)):
            total += await self._drain_partition(binding, partition, progress)
        return total

    async def _drain_partition(
        self, binding: StageBinding, partition: int, progress: Progress | None
    ) -> int:
        total = 0
        offset = await self._log.committed(binding.group, binding.topic, partition)
        while batch := await self._log.read(binding.topic, partition, offset, BATCH):
            await self._apply(await binding.stage.handle_batch(batch))
            offset = batch[-1].offset + 1
            await self._log.commit(binding.group, binding.topic, partition, offset)
            total += len(batch)
            if progress is not None:
                progress(binding.name, len(batch))
        return total

    async def _apply(self, outcome: Outcome) -> None:
        for decision in outcome.decisions:
            self.gate_stats[decision.verdict.value] += 1
            self.gate_stats["advisor_calls"] += decision.advised
        save = self._state.save if self._state is not None else None
        await execute(outcome, self._send, save)

    async def _send(self, outgoing: Sequence[Outgoing]) -> None:
        await send_all(self._log, outgoing)


async def send_all(log: EventLog, outgoing: Sequence[Outgoing]) -> None:
    """Append outgoing records, one append call per topic, keeping their order."""
    by_topic: dict[str, list[Append]] = defaultdict(list)
    for item in outgoing:
        by_topic[item.topic].append(item.record)
    for topic, records in by_topic.items():
        await log.append(topic, records)
