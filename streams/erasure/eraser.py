"""The Eraser: one erasure request, from its request to its receipt, on either runtime.

It runs where the scope's gate state lives: in-process on the embedded runtime, in the
derive agent that owns the scope's turns partition on the distributed one (the routes:
streams/erasure/requests.py). :meth:`Eraser.erase` walks these steps:

1. the ledger (streams/erasure/ledger.py): a request already done returns its receipt;
   a replay's pending generation is discarded (streams/runtime/generations.py);
2. the scope's turns, and which of them the request erases (streams/erasure/cascade.py);
3. the journal (streams/erasure/journal.py): the ids to erase, saved before anything is
   destroyed, merged with those of a crashed run;
4. the residue marks (streams/erasure/residue.py), while the erased text can be read;
5. the cascade (streams/erasure/cascade.py): tombstones, re-derivation, fact changes,
   store cleanup, gate state, compaction; then the stores purge what was deleted;
6. the verification (streams/erasure/audit.py): what of the request can still be found,
   by the audit's own scans: a subject's, every byte the process reaches included; an
   evidence or session erasure's, where the erased content went (the full byte audit is
   ``provmem audit erasure``);
7. the receipt, recorded in the ledger (with what the verification found) and on the
   erasure-receipts topic; the journal is closed. A receipt whose ``residue_found`` is
   not 0 says the erasure is not verified (logged as ``erasure.unverified``).

The seconds of each step are logged as ``erasure.steps`` (streams/erasure/steps.py).
"""

from __future__ import annotations

import time

from provmem.core.erasure import erased_by, remaining
from provmem.core.events import ErasureCompleted, ErasureRequested, TurnRecorded
from provmem.streams.erasure.audit import ErasureAudit, Residue
from provmem.streams.erasure.cascade import Cascade, Erasing, delete_views, scope_log
from provmem.streams.erasure.fingerprints import fingerprints
from provmem.streams.erasure.journal import merged
from provmem.streams.erasure.ledger import AuditKeys, Erased, ErasureLedger
from provmem.streams.erasure.ports import ErasureDeps
from provmem.streams.erasure.residue import ErasureResidue
from provmem.streams.erasure.steps import StepClock
from provmem.streams.runtime.generations import discard_pending

__all__ = ["Eraser", "Residue"]


class Eraser:
    """Runs erasure requests, audits them and reads their receipts, against one
    runtime's stores (:class:`~provmem.streams.erasure.ports.ErasureDeps`)."""

    def __init__(self, deps: ErasureDeps) -> None:
        self.deps = deps
        self.keys = AuditKeys.of(deps.secrets)
        self.ledger = ErasureLedger(deps.ledger, deps.log, deps.names, self.keys)
        self.auditor = ErasureAudit(deps, self.keys)
        self.clock = StepClock()  # the steps of the last request erased here

    async def erase(self, request: ErasureRequested, until: int | None = None) -> ErasureCompleted:
        """Erase what the request targets among the scope's turns (those before offset
        ``until`` of its partition, when given); idempotent by request id."""
        done = await self.ledger.receipt(request.request_id)
        if done is not None:
            return done
        deps, gate = self.deps, self.deps.gate_here()
        started = time.perf_counter()
        clock = self.clock = StepClock(request.request_id)
        await deps.catch_up()
        clock.lap("catch_up")
        await discard_pending(deps.settings, request.request_id)  # built before: may hold copies
        clock.lap("replay_discard")
        scope = await scope_log(deps, request.scope.key, until)
        live = remaining(scope.turns, scope.tombstoned)
        erased_ids = erased_by(request, scope.turns)  # tombstoned too; orphaned actions
        clock.lap("scope_read")
        journal = await self.ledger.journal(request.request_id, erased_ids)
        erased_ids = journal.evidence_ids  # with those a crashed run of it erased
        clock.lap("journal")
        texts = await self._texts([t for t in live if t.evidence_id in erased_ids])
        trace = await ErasureResidue.start(deps, request, erased_ids, texts, live)
        clock.lap("residue_start")
        views = await delete_views(deps, request)
        prints = await self._fingerprints(texts, remaining(live, set(erased_ids)))
        legacy = frozenset(scope.legacy & set(erased_ids))
        clock.lap("views")
        job = Erasing(request, live, erased_ids, texts, views, journal, legacy)
        removed = await Cascade(deps, gate, clock).run(job)
        await trace.purge(clock)
        facts, marks = await trace.facts_gone(), await trace.marks()
        residue = await self.auditor.verify(request, erased_ids, texts, prints, marks, gate)
        clock.lap("audit")
        seconds = time.perf_counter() - started
        counts = merged(journal.counts, removed)
        erased = Erased(
            request, erased_ids, counts, prints, seconds, residue.found, residue.awaiting,
            tuple(facts), residue.findings, residue.verified_by,
        )  # fmt: skip
        receipt = self.ledger.receipt_of(erased)
        deps.before_receipt()
        await self.ledger.record(erased, receipt, marks)
        await journal.close()
        clock.lap("receipt")
        clock.report()
        return receipt

    async def audit(self, request_id: str) -> Residue:
        """Scan every store this process can see for traces of what the request erased."""
        recorded = await self.ledger.recorded(request_id)
        if recorded is None:
            raise LookupError(f"erasure {request_id}: no such request")
        return await self.auditor.audit(recorded)

    async def erased(self, request_id: str) -> dict[str, list[str]]:
        """Which evidence and facts the request erased (ids, opened from the ledger)."""
        recorded = await self.ledger.recorded(request_id)
        if recorded is None:
            raise LookupError(f"erasure {request_id}: no such request")
        return {"evidence_ids": recorded.evidence_ids, "fact_ids": recorded.fact_ids}

    async def receipt(self, request_id: str) -> ErasureCompleted | None:
        return await self.ledger.receipt(request_id)

    async def _fingerprints(self, texts: list[str], kept: list[TurnRecorded]) -> set[str]:
        """Keyed fingerprints of the erased text's word runs, except runs that live
        evidence of the scope also says (those are not a trace of the erased turns)."""
        mark = self.keys.mark()
        erased = fingerprints(texts, mark)
        if not erased or not kept:
            return erased
        return erased - fingerprints(await self._texts(kept), mark)

    async def _texts(self, turns: list[TurnRecorded]) -> list[str]:
        """Plaintext of the turns, while it can still be read (for the audit)."""
        texts = []
        for turn in turns:
            try:
                texts.append(await self.deps.sealer.open(turn.text))
            except LookupError:
                continue  # already shredded by an interrupted run of this request
        return texts
