"""The memory service: publish turns, bring views up to date, query with provenance."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from provmem.core.capture import (
    TurnInput,
    TurnRejectedError,
    check_limits,
    record_turn,
    turn_evidence_id,
)
from provmem.core.erasure import successor, targeted
from provmem.core.events import (
    ErasureCompleted,
    ErasureRequested,
    ErasureTarget,
    Fact,
    FactStatus,
    TurnAction,
    TurnRecorded,
)
from provmem.core.retrieval.fusion import supporting_text
from provmem.core.scope import Scope, partition_for
from provmem.infra.crypto.envelope import is_blob
from provmem.infra.stores.leases import folder_lock
from provmem.services.erasure.subject import eraser_for
from provmem.services.memory.corrections import IN_REVIEW, OPEN, action_turn, target_fact
from provmem.services.memory.faults import fault_point
from provmem.services.memory.published import PublishedTurns
from provmem.services.memory.recall import Recall, RecallDeps
from provmem.services.memory.results import (
    ActionResult,
    ErasureQueued,
    EvidenceQuote,
    FactDetail,
    PublishResult,
    Recollection,
    TurnExplained,
)
from provmem.streams.erasure.eraser import Eraser
from provmem.streams.outcome import describe
from provmem.streams.runner import Progress, Runner, StageBinding
from provmem.streams.runtime.components import Components
from provmem.streams.runtime.wiring import clause_parser
from provmem.streams.topics import ERASURE_REQUESTS, TURNS
from provmem.streams.topology import ERASE

MAX_BATCH = 1000


def recall_for(components: Components) -> Recall:
    """The search over ``components``."""
    deps = RecallDeps(
        views=components.views,
        evidence=components.evidence,
        vectors=components.vectors,
        embedder=components.embedder,
        keywords=components.index.keywords,
        sealer=components.sealer,
    )
    return Recall(deps)


class MemoryService:
    """What users do with provmem, on whichever runtime the components belong to."""

    def __init__(self, components: Components) -> None:
        self._components = components
        self._eraser = eraser_for(components)  # one per process: its audit keys and word
        # baseline are built once, not per request
        self._erasures = _erasure_runner(components, self._eraser)
        self._published = PublishedTurns(components)
        self._capturing = asyncio.Lock()  # look-up and append of one batch, one at a time
        self._folder = _capture_lock(components)  # ... and across processes on one folder
        self._recall = recall_for(components)

    @property
    def components(self) -> Components:
        return self._components

    @property
    def eraser(self) -> Eraser:
        """This process's Eraser (runs requests where the gate state is here, audits and
        reads receipts on either runtime)."""
        return self._eraser

    async def publish(self, turns: Sequence[TurnInput | Mapping[str, Any]]) -> list[PublishResult]:
        """Validate, seal and append turns; one result per turn, in order. A bad turn is
        reported and costs no good one; ``accepted`` means on the log."""
        if len(turns) > MAX_BATCH:
            raise ValueError(f"turns: at most {MAX_BATCH} per call, got {len(turns)}")
        checked = [self._validate(index, raw) for index, raw in enumerate(turns)]
        fault_point(self._components.settings, "capture.before_reserve")
        async with self._capturing, folder_lock(self._folder):
            return await self._capture(checked)

    def _validate(
        self, index: int, raw: TurnInput | Mapping[str, Any]
    ) -> PublishResult | TurnInput:
        """The turn, or its rejection naming the field: every check capture can make."""
        try:
            turn = raw if isinstance(raw, TurnInput) else TurnInput.model_validate(raw)
            settings = self._components.settings
            check_limits(
                turn, datetime.now(UTC), settings.max_text_bytes, settings.max_future_skew_s
            )
            turn_evidence_id(turn)  # the scope with agent and session is valid
        except (ValidationError, TurnRejectedError) as error:
            return PublishResult(index=index, status="rejected", error=describe(error))
        return turn

    async def _capture(self, checked: Sequence[PublishResult | TurnInput]) -> list[PublishResult]:
        turns = [(i, t) for i, t in enumerate(checked) if isinstance(t, TurnInput)]
        on_log = await self._on_log(
            [(turn_evidence_id(t), t.resolved_scope().key) for _, t in turns]
        )
        results = [c for c in checked if isinstance(c, PublishResult)]
        self._read_keys_again({t.resolved_scope().key for _, t in turns})
        accepted: list[TurnRecorded] = []
        for index, turn in turns:
            sealed, content_hash = await self._components.sealer.seal(
                turn.resolved_scope().key, turn.text
            )
            result = _decided(index, turn_evidence_id(turn), content_hash, on_log)
            if result.status == "accepted":
                accepted.append(record_turn(turn, sealed, content_hash))
            results.append(result)
        fault_point(self._components.settings, "capture.after_reserve")
        await self._append(accepted)
        fault_point(self._components.settings, "capture.after_append")
        return sorted(results, key=lambda r: r.index)

    def _read_keys_again(self, scope_keys: Iterable[str]) -> None:
        """Seal under each subject's keys as the key store has them now (see
        :meth:`EvidenceSealer.read_again`)."""
        for scope_key in scope_keys:
            self._components.sealer.read_again(scope_key)

    async def _on_log(self, turns: Sequence[tuple[str, str]]) -> dict[str, str]:
        """Content hash of each (evidence id, scope key) already on the turns log (see
        published.py)."""
        by_partition: dict[int, list[str]] = {}
        for evidence_id, scope_key in dict.fromkeys(turns):
            partition = partition_for(scope_key, self._components.settings.partitions)
            by_partition.setdefault(partition, []).append(evidence_id)
        found: dict[str, str] = {}
        for partition, ids in by_partition.items():
            found.update(await self._published.content_hashes(partition, ids))
        return found

    async def _append(self, turns: Sequence[TurnRecorded]) -> None:
        if not turns:
            return
        partitions = self._components.settings.partitions
        records = [TURNS.record(partition_for(t.scope.key, partitions), t) for t in turns]
        offsets = await self._components.log.append(self._components.names.turns, records)
        for record, turn, offset in zip(records, turns, offsets, strict=True):
            await self._published.appended(record.partition, turn.evidence_id, offset)

    async def sync(self, progress: Progress | None = None) -> dict[str, int]:
        """Run this process's stages until they have handled everything on the log."""
        handled = await self._components.runner.run_until_idle(self._faulty(progress))
        if self._erasures is not None:
            handled.update(await self._erasures.run_until_idle(progress))
        return handled

    def _faulty(self, progress: Progress | None) -> Progress | None:
        """``progress``, dying after this process's first stage batch (the derive stage on
        the embedded runtime, the local index on Kafka) when the fault names it."""
        if self._components.settings.fault != "capture.mid_derive":
            return progress

        def reporting(stage: str, count: int) -> None:
            fault_point(self._components.settings, "capture.mid_derive")
            if progress is not None:
                progress(stage, count)

        return reporting

    async def request_erasure(self, request: ErasureRequested) -> ErasureCompleted | None:
        """:meth:`file_erasure`: the receipt on the embedded runtime, else None."""
        filed = await self.file_erasure(request)
        return filed if isinstance(filed, ErasureCompleted) else None

    async def file_erasure(self, request: ErasureRequested) -> ErasureCompleted | ErasureQueued:
        """File an erasure (as :meth:`erasure_to_file` says) on the erasure-requests topic;
        on the embedded runtime it runs at once and its receipt is returned, on Kafka the
        id of the request filed, whose receipt follows."""
        request = await self._reason_sealed(await self.erasure_to_file(request))
        record = ERASURE_REQUESTS.record(0, request)
        await self._components.log.append(self._components.names.erasure_requests, [record])
        receipt = None
        if self._erasures is not None:
            await self.sync()
            receipt = await self.erasure_receipt(request.request_id)
        return receipt or ErasureQueued(request_id=request.request_id)

    async def _reason_sealed(self, request: ErasureRequested) -> ErasureRequested:
        """The request with its reason sealed under the subject's data key: the request
        stays on its topic for years and the reason may name the person; an erasure of
        the subject shreds it with the key (read it back with :meth:`erasure_reason`)."""
        if not request.reason or is_blob(request.reason):
            return request
        sealed = await self._components.sealer.seal_blob(request.scope.key, request.reason)
        return request.model_copy(update={"reason": sealed})

    async def erasure_reason(self, request: ErasureRequested) -> str | None:
        """A filed request's reason (None: shredded with its subject)."""
        try:
            return await self._components.sealer.open_blob(request.reason)
        except LookupError:
            return None

    async def erasure_to_file(self, request: ErasureRequested) -> ErasureRequested:
        """The request to file for ``request``: itself, unless it completed and turns it
        targets are on the log again (the user came back, a session was written to, a
        turn was published again); then its successor, which erases them."""
        while await self.erasure_receipt(request.request_id) is not None:
            back = await self._targeted_on_log(request)
            if not back:
                return request
            request = successor(request, back)
        return request

    async def _targeted_on_log(self, request: ErasureRequested) -> list[str]:
        """The evidence ids ``request`` targets that are on the turns log now."""
        from provmem.streams.erasure.cascade import scope_log

        scope_key = request.scope.key
        if request.target is ErasureTarget.EVIDENCE:
            candidates = list(request.ids)
        else:
            scan = await scope_log(self._eraser.deps, scope_key, None)
            candidates = targeted(request, scan.turns)
        async with self._capturing:
            return sorted(await self._on_log([(i, scope_key) for i in candidates]))

    async def erasure_receipt(self, request_id: str) -> ErasureCompleted | None:
        """The receipt once the erasure completed (on Kafka: once a worker ran it)."""
        return await self._eraser.receipt(request_id)

    async def settle(self, timeout_s: float = 600.0) -> None:
        """Wait until everything published has been processed, then sync this process.

        On Kafka the workers process turns: wait until their consumer group has committed
        the end of the turns and fact-changes topics."""
        if self._components.runtime.derives_in_workers:
            deadline = time.monotonic() + timeout_s
            while not await self.workers_caught_up():
                if time.monotonic() > deadline:
                    raise TimeoutError(f"workers did not catch up within {timeout_s:.0f} s")
                await asyncio.sleep(0.2)
        await self.sync()

    async def workers_caught_up(self) -> bool:
        log = self._components.log
        for topic, group in self._components.pipeline_groups().items():
            for partition in range(await log.partitions(topic)):
                if await log.committed(group, topic, partition) < await log.end_offset(
                    topic, partition
                ):
                    return False
        return True

    async def facts(self, scope: str) -> list[Fact]:
        return await self._components.views.facts_in_scope(Scope.parse(scope).key)

    async def fact(self, fact_id: str) -> FactDetail | None:
        """One fact with the evidence that supports it and its earlier versions."""
        fact = await self._components.views.get(fact_id)
        if fact is None:
            return None
        history = await self._history(fact_id)
        return FactDetail(
            fact=fact,
            evidence=await self._quotes(fact),
            history=history,
            supersedes=await self._predecessors(fact),
        )

    async def correct(
        self, fact_id: str, statement: str, *, by: str, reason: str = "", scope: str | None = None
    ) -> ActionResult:
        """Say that a fact is wrong and what is right: the correction supersedes it."""
        return await self._act("correct", fact_id, statement, by, reason, scope, OPEN)

    async def retract(
        self, fact_id: str, *, by: str, reason: str, scope: str | None = None
    ) -> ActionResult:
        """Say that a fact is wrong: it is deleted; its evidence is left as it was."""
        return await self._act("retract", fact_id, reason, by, reason, scope, OPEN)

    async def review_queue(self, scope: str) -> list[FactDetail]:
        """Facts of ``scope`` waiting for review, with their reason and evidence."""
        waiting = [f for f in await self.facts(scope) if f.status is FactStatus.NEEDS_REVIEW]
        details = [await self.fact(f.fact_id) for f in waiting]
        return [d for d in details if d is not None]

    async def approve(
        self,
        fact_id: str,
        *,
        by: str,
        statement: str | None = None,
        reason: str = "",
        scope: str | None = None,
    ) -> ActionResult:
        """Promote a needs-review fact through the gate (an edited statement must be
        traceable to the fact's evidence)."""
        fact = await target_fact(self._components, fact_id, scope, IN_REVIEW, "approve")
        text = statement if statement is not None else fact.statement
        return await self._record_action("approve", fact, text, by, reason)

    async def reject(
        self, fact_id: str, *, by: str, reason: str, scope: str | None = None
    ) -> ActionResult:
        """Turn down a needs-review fact: it is deleted with the reason."""
        return await self._act("reject", fact_id, reason, by, reason, scope, IN_REVIEW)

    async def _act(
        self,
        action: TurnAction,
        fact_id: str,
        text: str,
        by: str,
        reason: str,
        scope: str | None,
        statuses: tuple[FactStatus, ...],
    ) -> ActionResult:
        fact = await target_fact(self._components, fact_id, scope, statuses, action)
        if action == "correct" and text.strip() == fact.statement:
            raise ValueError(f"correct: fact {fact_id} already says that")
        return await self._record_action(action, fact, text, by, reason)

    async def _record_action(
        self, action: TurnAction, fact: Fact, text: str, by: str, reason: str
    ) -> ActionResult:
        turn = await action_turn(self._components, fact, action, text, by, reason)
        async with self._capturing:
            if await self._on_log([(turn.evidence_id, turn.scope.key)]):
                raise ValueError(f"{action}: already recorded as {turn.evidence_id}")
            await self._append([turn])
        await self.sync()
        return ActionResult(
            action=action,
            fact_id=fact.fact_id,
            evidence_id=turn.evidence_id,
            scope=fact.scope.key,
            speaker=by,
        )

    async def query(
        self,
        scope: str,
        text: str,
        limit: int = 5,
        *,
        budget: int | None = None,
        now: datetime | None = None,
        escalate: bool = True,
        threshold: float | None = None,
        raw_turns_of: str | Sequence[str] | None = None,
    ) -> Recollection:
        """Fact-centred bundles for ``text`` in ``scope``, each with its provenance: those
        at or above the ``threshold`` similarity, raw turns only of ``raw_turns_of``."""
        scope_key = Scope.parse(scope).key
        if not text.strip():
            raise ValueError("query: must not be empty")
        return await self._recall.recall(
            scope_key,
            text,
            limit=limit,
            budget=budget,
            now=now,
            escalate=escalate,
            threshold=threshold,
            raw_turns_of=raw_turns_of,
        )

    async def _history(self, fact_id: str) -> tuple[Fact, ...]:
        """The fact's versions as a replay of the log would give them: a version that
        points at an erased fact (superseded by it, or superseding it) is gone with it,
        and the versions equal but for their number that its removal leaves side by side
        are one (the latest)."""
        versions = await self._components.views.history(fact_id)
        linked = {v.superseded_by or "" for v in versions} | {v.supersedes or "" for v in versions}
        present = await self._components.views.get_many(sorted(linked - {""}))
        kept = [v for v in versions if _links_in(v, present)]
        return tuple(
            v for v, later in zip(kept, [*kept[1:], None], strict=True) if not _same(v, later)
        )

    async def _predecessors(self, fact: Fact, depth: int = 10) -> tuple[Fact, ...]:
        """The facts this one superseded, newest first (bounded)."""
        chain: list[Fact] = []
        while fact.supersedes and len(chain) < depth:
            previous = await self._components.views.get(fact.supersedes)
            if previous is None:
                break
            chain.append(previous)
            fact = previous
        return tuple(chain)

    async def _quotes(self, fact: Fact) -> tuple[EvidenceQuote, ...]:
        quotes = []
        for evidence_id in fact.evidence_ids:
            quote = await self.evidence(evidence_id, fact.scope.key, fact)
            if quote is not None:
                quotes.append(quote)
        return tuple(quotes)

    async def explain(self, evidence_id: str) -> TurnExplained | None:
        """What the extractor made of each clause of a recorded turn (memory/explain.py)."""
        from provmem.services.memory.explain import explain_evidence  # the rules: only here

        c = self._components
        clauses = clause_parser(c.settings.parse_clauses)
        return await explain_evidence(c.evidence, c.sealer, c.views, evidence_id, clauses)

    async def evidence(
        self, evidence_id: str, scope_key: str | None = None, fact: Fact | None = None
    ) -> EvidenceQuote | None:
        """Decrypted evidence; with ``fact``, only the spans that support it."""
        turn = await self._components.evidence.get(evidence_id)
        if turn is None or (scope_key is not None and turn.scope.key != scope_key):
            return None
        text = await self._components.sealer.open(turn.text)
        return EvidenceQuote(
            evidence_id=turn.evidence_id,
            source_uri=turn.source_uri,
            source_turn_id=turn.turn_id,
            speaker=turn.speaker,
            captured_at=turn.captured_at,
            quote=supporting_text(text, evidence_id, fact),
        )


def _links_in(version: Fact, present: Mapping[str, Fact]) -> bool:
    links = (version.superseded_by, version.supersedes)
    return all(link is None or link in present for link in links)


def _same(version: Fact, later: Fact | None) -> bool:
    """True when ``later`` differs from ``version`` only by its version number."""
    if later is None:
        return False
    return version.model_dump(exclude={"version"}) == later.model_dump(exclude={"version"})


def _decided(
    index: int, evidence_id: str, content_hash: str, on_log: dict[str, str]
) -> PublishResult:
    """Accepted when new (noted in ``on_log``, so a repeat in the batch is a duplicate);
    duplicate when on the log with the same text; conflict when with another text."""
    known = on_log.get(evidence_id)
    if known is None:
        on_log[evidence_id] = content_hash
        return PublishResult(index=index, evidence_id=evidence_id, status="accepted")
    if known == content_hash:
        return PublishResult(index=index, evidence_id=evidence_id, status="duplicate")
    error = "turn_id: already recorded with a different text (a turn id names one turn)"
    return PublishResult(index=index, evidence_id=evidence_id, status="conflict", error=error)


def _capture_lock(components: Components) -> Path | None:
    """The lock file that makes one batch's look-up and append one step for every
    process on an embedded data folder: two processes given the same turn at once
    accept it once, the other answers ``duplicate`` (services/memory/published.py)."""
    if not components.runtime.memory_in_folder:
        return None
    return components.settings.data_dir / "capture.lock"


def _erasure_runner(components: Components, eraser: Eraser) -> Runner | None:
    """The embedded runtime runs erasure requests in-process, after the other stages."""
    if components.state is None:
        return None
    from provmem.services.erasure.subject import ErasureStage

    stage = ErasureStage(eraser)
    group = components.settings.consumer_group
    binding = StageBinding.of(ERASE, components.names, group, stage)
    return Runner(components.log, None, [binding])
