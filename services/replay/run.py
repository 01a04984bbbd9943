"""Replay: rebuild every view from the log into a new generation, check it, switch it in.

Two ways (``mode``):

- ``fact-changes``: the Materializer projects the fact-changes topic into the new
  generation's facts view and vector index (dense and BM25 points); the gate state is
  kept (the new generation shares the live gate namespace).
- ``turns``: the Deriver re-derives every turn with the current extractor into a fresh
  gate namespace, and its fact changes go straight to the new generation's views (not to
  the log: a re-derivation must not publish a second copy of every change).

Both re-index the raw evidence tier from the turns topic. The replay's consumer groups
are the ones the new generation's live pipeline will use (``Runtime.view_groups``), so
their committed offsets are the checkpoint: a re-run with ``resume`` continues from
them, and after the switch the live pipeline continues from where the replay stopped.

The replay catches up with the live pipeline, compares the views scope by scope
(services/replay_checksum.py), then switches the generation pointer in one atomic write
(infra/stores/generations.py). Processes built before the switch keep reading the old
generation until they rebuild their components; the caller then drops the old one
(:func:`retire_generations`) once nothing holds it open.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

import structlog
from pydantic import BaseModel

from provmem.config import Settings
from provmem.core.erasure import changes_between
from provmem.core.ports import StateStore
from provmem.core.scope import Scope, partition_for
from provmem.infra.log.sealed import record_keys
from provmem.infra.stores.generations import (
    Generation,
    GenerationPointer,
    PendingReplay,
    PointerState,
)
from provmem.services.memory.memory import MemoryService
from provmem.services.replay.checksum import ChecksumReport, checksum_report, scopes_on_log
from provmem.services.replay.generations import (
    ReplayError,
    open_pointer,
    replay_lease,
    replay_state_path,
    retire_generations,
    without_retired,
)
from provmem.services.replay.stages import Quiet, Rederive, RestoreEvidence, scope_filter
from provmem.streams.indexing import EvidenceIndexer, TombstonedTurns
from provmem.streams.outcome import Outgoing
from provmem.streams.pipeline import Deriver, Materializer
from provmem.streams.runner import Runner, StageBinding, send_all
from provmem.streams.runtime.components import Components, build, runtime_for
from provmem.streams.runtime.generations import drop_generation
from provmem.streams.topics import FACT_CHANGES
from provmem.streams.topology import DERIVE, INDEX_EVIDENCE, MATERIALIZE

if TYPE_CHECKING:
    from provmem.infra.stores.embedded import EmbeddedStateStore

Mode = Literal["fact-changes", "turns"]
MODES: tuple[Mode, ...] = ("fact-changes", "turns")
#: Called with (records just handled, records this run has to handle in all).
Progress = Callable[[int, int], None]
#: Called with the built generation's components before it is switched in (or dropped).
Inspect = Callable[[Components], Awaitable[None]]
log = structlog.get_logger(__name__)


class ReplayInterrupted(RuntimeError):
    """Stopped after the record limit; the checkpoint is kept and ``resume`` continues."""

    def __init__(self, job_id: str, handled: int) -> None:
        super().__init__(f"replay {job_id} stopped after {handled} records (resume continues)")
        self.job_id = job_id
        self.handled = handled


@dataclass(frozen=True)
class ReplayPlan:
    """What to replay. ``scopes`` narrows it to a check of those scopes (never switched
    in); ``limit`` stops after that many records, as an interruption would."""

    mode: str = "fact-changes"
    scopes: tuple[str, ...] = ()
    resume: bool = False
    switch: bool = True
    limit: int | None = None
    job_id: str | None = None

    def checked(self) -> ReplayPlan:
        if self.mode not in MODES:
            raise ReplayError(f"from: must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.limit is not None and self.limit < 1:
            raise ReplayError(f"limit: must be at least 1, not {self.limit}")
        keys = tuple(sorted({_scope_key(s) for s in self.scopes}))
        return replace(self, scopes=keys, job_id=self.job_id or f"rp_{uuid.uuid4().hex[:16]}")


def _scope_key(text: str) -> str:
    try:
        return Scope.parse(text).key
    except ValueError as error:
        raise ReplayError(f"scope: {error}") from error


class ReplayResult(BaseModel):
    job_id: str
    mode: str
    scopes: list[str]
    resumed: bool
    live_generation: int
    generation: int
    records: int
    facts: int
    seconds: float
    stage_seconds: dict[str, float]
    report: ChecksumReport
    switched: bool
    note: str


class Replayer:
    """Runs replays against one process's live components.

    ``settle`` brings the live views up to date (default: ``Memory.settle``); ``exclusive``
    runs the final catch-up and the switch with the live pipeline held still (the API
    passes its pipeline lock; the CLI has nothing else running)."""

    def __init__(
        self,
        live: Components,
        settle: Callable[[], Awaitable[object]] | None = None,
        exclusive: Callable[[Awaitable[Any]], Awaitable[Any]] | None = None,
    ) -> None:
        self._live = live
        self._settings = live.settings
        self._settle = settle or MemoryService(live).settle
        self._exclusive = exclusive or _at_once

    async def run(
        self,
        plan: ReplayPlan,
        progress: Progress | None = None,
        before_switch: Inspect | None = None,
    ) -> ReplayResult:
        """Replay as planned; ``before_switch`` sees the built generation's components."""
        plan = plan.checked()
        self._refuse(plan)
        assert plan.job_id is not None  # noqa: S101 - set by ReplayPlan.checked
        async with replay_lease(self._settings, plan.job_id):
            await self._refuse_switch(plan)
            return await self._run(plan, progress, before_switch)

    async def _run(
        self, plan: ReplayPlan, progress: Progress | None, before_switch: Inspect | None
    ) -> ReplayResult:
        started = time.perf_counter()
        discarded: ReplayDiscardedError | None = None
        async with AsyncExitStack() as stack:
            pointer = await open_pointer(self._settings, stack)
            state, pending, resumed = await self._begin(pointer, plan)
            target = await build(self._settings, pending.target)
            stack.push_async_callback(target.close)
            work = _Rebuild(self._live, target, pending, plan, progress)
            stack.push_async_callback(work.close)
            await work.catch_up(self._live_settle(plan))
            report = await self._report(target, pending)
            if before_switch is not None:
                await before_switch(target)
            try:
                switched, note = await self._exclusive(
                    self._finish(pointer, state, pending, plan, work)
                )
            except ReplayDiscardedError as error:
                discarded, switched = error, False
        if not switched:  # a check only, or discarded: its files are closed now, drop them
            await drop_generation(self._settings, pending.target, keep_gate=state.live.gate)
        if discarded is not None:
            raise discarded
        return ReplayResult(
            job_id=pending.job_id,
            mode=pending.mode,
            scopes=list(pending.scopes),
            resumed=resumed,
            live_generation=state.live.views,
            generation=pending.target.views,
            records=work.handled,
            facts=work.facts,
            seconds=round(time.perf_counter() - started, 3),
            stage_seconds={k: round(v, 3) for k, v in work.stage_seconds.items()},
            report=report,
            switched=switched,
            note=note,
        )

    def _refuse(self, plan: ReplayPlan) -> None:
        whole_log = not plan.scopes
        refusal = self._live.runtime.replay_refusal(plan.mode, plan.switch, whole_log)
        if refusal is not None:
            raise ReplayError(refusal)

    async def _refuse_switch(self, plan: ReplayPlan) -> None:
        """A replay that will switch the gate state refuses while workers derive with it."""
        if _switches_gate(plan):
            refusal = await self._live.runtime.switch_refusal(plan.mode)
            if refusal is not None:
                raise ReplayError(refusal)

    def _live_settle(self, plan: ReplayPlan) -> Callable[[], Awaitable[object]]:
        """How the live views are brought up to date: as given, but with the workers
        stopped for a switch from turns, this process's sync (the replay derives what
        they left)."""
        if _switches_gate(plan) and self._live.runtime.derives_in_workers:
            return MemoryService(self._live).sync
        return self._settle

    async def _begin(
        self, pointer: GenerationPointer, plan: ReplayPlan
    ) -> tuple[PointerState, PendingReplay, bool]:
        """Resume the pending replay, or record a new one with a new generation."""
        state = await without_retired(self._settings, pointer, await pointer.read())
        pending = state.pending
        if pending is not None and plan.resume:
            if (pending.mode, pending.scopes) != (plan.mode, plan.scopes):
                raise ReplayError(
                    f"resume: the interrupted replay {pending.job_id} is --from {pending.mode}"
                    f" with scopes {list(pending.scopes) or 'all'}; re-run it with those, "
                    "or without --resume to start over"
                )
            return state, pending, True
        if pending is not None:
            log.info("replay.discard_pending", job=pending.job_id)
            await drop_generation(self._settings, pending.target, keep_gate=state.live.gate)
        number = state.next_number()
        gate = number if plan.mode == "turns" else state.live.gate
        assert plan.job_id is not None  # noqa: S101 - set by ReplayPlan.checked
        pending = PendingReplay(plan.job_id, plan.mode, Generation(number, gate), plan.scopes)
        state = state.with_changes(pending=pending, last_number=number)
        await pointer.write(state)
        return state, pending, False

    async def _report(self, target: Components, pending: PendingReplay) -> ChecksumReport:
        names = self._live.names
        scopes = list(pending.scopes) or await scopes_on_log(
            self._live.log, (names.turns, names.fact_changes)
        )
        exact = pending.mode == "fact-changes"
        return await checksum_report(self._live, target, scopes, exact=exact)

    async def _finish(
        self,
        pointer: GenerationPointer,
        state: PointerState,
        pending: PendingReplay,
        plan: ReplayPlan,
        work: _Rebuild,
    ) -> tuple[bool, str]:
        current = (await pointer.read()).pending
        if current is None or current.job_id != pending.job_id:
            raise ReplayDiscardedError(
                f"replay {pending.job_id}: an erasure discarded the generation it was building"
                " (built before the erasure, it could hold what was erased); run it again"
            )
        if pending.scopes or not plan.switch:
            why = "a check of chosen scopes" if pending.scopes else "switch not asked"
            await pointer.write(state.with_changes(pending=None))
            return False, f"{why}: generation {pending.target.views} checked and dropped"
        live = MemoryService(self._live)  # inside the exclusive hold: not self._settle
        derives_here = _switches_gate(plan) and self._live.runtime.derives_in_workers
        await (live.sync() if derives_here else live.settle())  # what arrived since the report
        await work.drain()
        if pending.mode == "turns":
            await self._refuse_switch(plan)  # a worker that started meanwhile
            ends = await work.hand_over_fact_changes()
            runtime = self._live.runtime
            await runtime.hand_over_gate(pending.target, await work.gate_records())
            await runtime.hand_over_groups(state.live, pending.target, ends)
        retired = (*state.retired, state.live)
        await pointer.write(state.with_changes(live=pending.target, pending=None, retired=retired))
        if pending.mode != "turns" or not self._live.runtime.derives_in_workers:
            await work.drain()  # what workers wrote to the old generation meanwhile (kafka)
        # (from turns on Kafka its derive group is now the new workers': what came after
        # the hand-over is theirs to derive, with the gate state they were handed)
        return True, f"generation {pending.target.views} is live; {state.live.views} retired"


class ReplayDiscardedError(ReplayError):
    """An erasure discarded the generation the replay was building (see
    streams/runtime/generations.py)."""


class _Rebuild:
    """The replay's stages over the target generation, with checkpoints and progress."""

    def __init__(
        self,
        live: Components,
        target: Components,
        pending: PendingReplay,
        plan: ReplayPlan,
        progress: Progress | None,
    ) -> None:
        self._live, self._target, self._pending = live, target, pending
        self._plan, self._progress = plan, progress
        self._stack = AsyncExitStack()
        self._state: StateStore | None = target.state
        self._gate_file: EmbeddedStateStore | None = None  # Kafka: the replay's own gate
        self._built: list[StageBinding] | None = None
        self._counters: list[Quiet | Rederive] = []
        self.handled = 0
        self.stage_seconds: dict[str, float] = {}

    @property
    def facts(self) -> int:
        return self._counters[0].applied if self._counters else 0

    async def close(self) -> None:
        await self._stack.aclose()

    async def catch_up(self, settle: Callable[[], Awaitable[object]]) -> None:
        """Alternate live settling and draining until the replay has nothing left to do."""
        bindings = await self._bindings()
        while True:
            await settle()
            if await self._drain(bindings) == 0:
                return

    async def drain(self) -> int:
        return await self._drain(await self._bindings())

    async def _drain(self, bindings: list[StageBinding]) -> int:
        total = await self._remaining(bindings)
        handled = 0

        def advance(_stage: str, count: int) -> None:
            nonlocal handled
            handled += count
            self.handled += count
            if self._progress is not None:
                self._progress(count, total)
            if self._plan.limit is not None and self.handled >= self._plan.limit:
                raise ReplayInterrupted(self._pending.job_id, self.handled)

        for binding in bindings:
            started = time.perf_counter()
            await Runner(self._target.log, self._state, [binding]).run_until_idle(advance)
            seconds = time.perf_counter() - started
            self.stage_seconds[binding.name] = self.stage_seconds.get(binding.name, 0) + seconds
        return handled

    async def _remaining(self, bindings: list[StageBinding]) -> int:
        log, left = self._target.log, 0
        for binding in bindings:
            for partition in range(await log.partitions(binding.topic)):
                end = await log.end_offset(binding.topic, partition)
                left += end - await log.committed(binding.group, binding.topic, partition)
        return left

    async def _bindings(self) -> list[StageBinding]:
        if self._built is None:
            self._built = await self._make_bindings()
        return self._built

    async def _make_bindings(self) -> list[StageBinding]:
        target, names, keep = self._target, self._target.names, scope_filter(self._pending.scopes)
        facts_group, evidence_group = target.runtime.view_groups(self._pending.target)
        materializer = Materializer(names, target.views, target.index)
        if self._pending.mode == "turns":
            deriver = await self._target_deriver()
            first = Rederive(deriver, materializer, names.fact_changes, keep)
            group = self._pending.target.derive_group(target.settings.consumer_group)
            head = StageBinding.of(DERIVE, names, group, first)
        else:
            first = Quiet(materializer, keep)  # type: ignore[assignment]
            head = StageBinding.of(MATERIALIZE, names, facts_group, first)
        tombstones = TombstonedTurns(record_keys(target.log), target.log)
        indexer = EvidenceIndexer(target.index, target.sealer, tombstones)
        evidence = Quiet(RestoreEvidence(target.evidence, indexer, tombstones), keep)
        self._counters = [first, evidence]
        return [head, StageBinding.of(INDEX_EVIDENCE, names, evidence_group, evidence)]

    async def _target_deriver(self) -> Deriver:
        """The target generation's deriver; on Kafka with gate state in a local file."""
        if self._target.deriver is not None:
            return self._target.deriver
        from provmem.infra.crypto.sealing import SealedGateState, ViewSealer
        from provmem.infra.stores.embedded import EmbeddedStateStore, EmbeddedStores
        from provmem.streams.gate_store import GateStore
        from provmem.streams.runtime.wiring import derive_deps

        target, settings = self._target, self._target.settings
        stores = EmbeddedStores(replay_state_path(settings, self._pending.target))
        self._stack.push_async_callback(stores.close)
        self._gate_file = EmbeddedStateStore(stores)
        state = SealedGateState(self._gate_file, ViewSealer(target.sealer))
        deps = derive_deps(settings, target.evidence, state, target.sealer, target.embedder)
        deps = replace(deps, gate=GateStore(state, self._pending.target.gate_namespace()))
        self._state = state
        return Deriver(target.names, settings.partitions, deps)

    async def gate_records(self) -> dict[str, bytes]:
        """The re-derived gate state as stored (raw keys, sealed values) when the replay
        kept it in a file of its own (Kafka: the workers' is in their faust tables)."""
        if self._gate_file is None:
            return {}
        prefix = self._pending.target.gate_namespace() + "gate|"
        return await self._gate_file.load_many(await self._gate_file.keys_with_prefix(prefix))

    async def hand_over_fact_changes(self) -> dict[int, int]:
        """Before a re-derived generation goes live: its views start reading fact changes
        at the end of the topic (it derived everything before itself), and the log gets
        the changes that turn the old gate's facts into the new ones, for subscribers.
        The end offsets it started the views at."""
        live, target, names = self._live, self._target, self._target.names
        group, _ = target.runtime.view_groups(self._pending.target)
        ends = {}
        for partition in range(await target.log.partitions(names.fact_changes)):
            ends[partition] = await target.log.end_offset(names.fact_changes, partition)
        await self._publish_differences(live, target)
        for partition, end in ends.items():
            await target.log.commit(group, names.fact_changes, partition, end)
        return ends

    async def _publish_differences(self, live: Components, target: Components) -> None:
        if live.deriver is None or target.deriver is None:
            return
        scopes = await scopes_on_log(live.log, (live.names.turns, live.names.fact_changes))
        out: list[Outgoing] = []
        for scope in scopes:
            _, before = await live.deriver.gate.load(scope, {})
            _, after = await target.deriver.gate.load(scope, {})
            partition = partition_for(scope, live.settings.partitions)
            for change in changes_between(before, after, f"replay:{self._pending.job_id}"):
                change = change.model_copy(update={"reason": "re-derived by a replay"})
                record = FACT_CHANGES.record(partition, change)
                out.append(Outgoing(live.names.fact_changes, record))
        await send_all(live.log, out)


def _switches_gate(plan: ReplayPlan) -> bool:
    """A replay that switches a re-derived gate state in (from turns, whole log)."""
    return plan.mode == "turns" and plan.switch and not plan.scopes


async def _at_once(work: Awaitable[Any]) -> Any:
    return await work


def refuse(settings: Settings, plan: ReplayPlan) -> None:
    """ReplayError when this runtime cannot run the plan, said before anything is built or
    reached (running workers refuse a switch from turns once the lease is held:
    :meth:`Replayer.run`)."""
    plan = plan.checked()
    refusal = runtime_for(settings).replay_refusal(plan.mode, plan.switch, not plan.scopes)
    if refusal is not None:
        raise ReplayError(refusal)


async def replay(
    settings: Settings, plan: ReplayPlan, progress: Progress | None = None
) -> ReplayResult:
    """Run a replay in a process of its own (the CLI): build, replay, close, retire."""
    refuse(settings, plan)
    live = await build(settings)
    try:
        result = await Replayer(live).run(plan, progress)
    finally:
        await live.close()
    if result.switched:
        await retire_generations(settings)
    return result
