"""``provmem eval``: a LoCoMo-format benchmark through the real pipeline, with a report.

Ingests every sample with :meth:`Memory.publish` and :meth:`Memory.sync`, asks its
questions with :meth:`Memory.query`, scores evidence recall beside raw-turn BM25 and dense
baselines, audits the stored memory (provenance, duplicates, gate, supersession) and
attributes every missed gold turn to the first layer that lost it. Metric definitions are
the pure functions of :mod:`.evaluation_metrics`; docs/evaluation.md explains them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress, TaskID

from provmem.core.events import Fact, FactChanged, FactOp, FactStatus
from provmem.core.facts.decision_reason import DecisionReason, ReasonKind
from provmem.core.retrieval.fusion import count_tokens, current
from provmem.infra.crypto.envelope import MissingDataKeyError
from provmem.services.memory.loaders import locomo_turns
from provmem.services.memory.memory import MAX_BATCH, MemoryService
from provmem.services.memory.results import Recollection
from provmem.services.tools import evaluation_metrics as m
from provmem.services.tools.evaluation_data import (
    ADVERSARIAL_LABEL,
    Question,
    RawBM25,
    RawDense,
    last_session_time,
    load_samples,
    questions,
)
from provmem.services.tools.evaluation_plots import EvaluationReport, Miss

LIMIT = max(m.KS)


@dataclass
class Sample:
    """One ingested conversation: its turns and how dia ids map to evidence ids."""

    sample_id: str
    scope: str
    now: datetime
    turns: list[dict[str, Any]]
    evidence_of: dict[str, str] = field(default_factory=dict)
    write_ms: float = 0.0

    @cached_property
    def dia_of(self) -> dict[str, str]:
        return {e: d for d, e in self.evidence_of.items()}

    @cached_property
    def text_of(self) -> dict[str, str]:
        return {t["turn_id"]: t["text"] for t in self.turns}


@dataclass
class Run:
    """Everything measured so far, by system and by sample."""

    asked: dict[str, list[m.Asked]] = field(
        default_factory=lambda: {"provmem": [], "bm25": [], "dense": []}
    )
    misses: list[Miss] = field(default_factory=list)
    store: Counter[str] = field(default_factory=Counter)
    updates: Counter[str] = field(default_factory=Counter)


async def run_evaluation(
    memory: MemoryService, dataset: Path, out_dir: Path, console: Console
) -> EvaluationReport:
    """Ingest ``dataset`` (LoCoMo format), ask its questions, write the report to ``out_dir``."""
    started = time.perf_counter()
    raw = load_samples(dataset)
    asked_of = {str(s["sample_id"]): questions(s) for s in raw}
    run = Run()
    memory.components.embedder.warm_up()  # model loading is not write-side cost per turn
    with Progress(console=console) as progress:
        ingest = progress.add_task("ingest turns", total=sum(_turn_count(s) for s in raw))
        ask = progress.add_task("questions", total=sum(len(q) for q in asked_of.values()))
        samples = [await _ingest(memory, s, progress, ingest) for s in raw]
        for sample in samples:
            await _evaluate_sample(memory, sample, asked_of[sample.sample_id], run, progress, ask)
    seconds = time.perf_counter() - started
    report = _report(memory, dataset, samples, run, seconds, await gate_stats(memory))
    report.write(out_dir)
    return report


def _turn_count(sample: dict[str, Any]) -> int:
    return sum(1 for _ in locomo_turns(sample))


async def _ingest(
    memory: MemoryService, raw: dict[str, Any], progress: Progress, task: TaskID
) -> Sample:
    turns = list(locomo_turns(raw))
    sample = Sample(str(raw["sample_id"]), turns[0]["scope"], last_session_time(raw), turns)
    started = time.perf_counter()
    for start in range(0, len(turns), MAX_BATCH):
        chunk = turns[start : start + MAX_BATCH]
        for result, turn in zip(await memory.publish(chunk), chunk, strict=True):
            if result.evidence_id is not None:
                sample.evidence_of[turn["turn_id"]] = result.evidence_id
    await memory.sync(lambda stage, n: progress.advance(task, n) if stage == "derive" else None)
    await memory.settle()  # on Kafka: wait for the workers
    sample.write_ms = (time.perf_counter() - started) * 1000
    return sample


async def _evaluate_sample(
    memory: MemoryService,
    sample: Sample,
    asked: Sequence[Question],
    run: Run,
    progress: Progress,
    task: TaskID,
) -> None:
    facts = {f.fact_id: f for f in await memory.facts(sample.scope)}
    cited = _cited_by_active(facts.values(), sample.dia_of)
    for question in asked:
        result = await _timed_query(memory, sample, question.text)
        outcome = _asked(question, result[0], result[1], sample.dia_of, cited)
        run.asked["provmem"].append(outcome)
        if not question.adversarial:
            run.misses += await _attribute(memory, sample, question, outcome)
        progress.advance(task)
    _score_baselines(memory, sample, [q for q in asked if not q.adversarial], run)
    run.store.update(await _audit_store(memory, sample, facts))
    run.updates.update(await _audit_updates(memory, sample, facts))


async def _timed_query(
    memory: MemoryService, sample: Sample, text: str
) -> tuple[Recollection, float]:
    started = time.perf_counter()
    result = await memory.query(sample.scope, text, limit=LIMIT, now=sample.now)
    return result, (time.perf_counter() - started) * 1000


def _asked(
    question: Question,
    result: Recollection,
    latency_ms: float,
    dia_of: dict[str, str],
    cited: set[str],
) -> m.Asked:
    ranked = tuple(
        m.Ranked(
            fact_id=b.fact.fact_id if b.fact else None,
            turns=tuple(dia_of.get(e, e) for e in b.evidence_ids),
            tokens=b.tokens,
            context=tuple(dia_of.get(e.evidence_id, "") for e in b.evidence if e.role != "direct"),
        )
        for b in result.bundles
    )
    omitted = tuple(m.unverifiable_omissions(question.gold, ranked, cited))
    return m.Asked(question.label, question.gold, result.path, ranked, latency_ms, omitted)


def _cited_by_active(facts: Any, dia_of: dict[str, str]) -> set[str]:
    return {
        dia_of.get(e, e) for f in facts if f.status is FactStatus.ACTIVE for e in f.evidence_ids
    }


def _score_baselines(
    memory: MemoryService, sample: Sample, asked: Sequence[Question], run: Run
) -> None:
    texts = [t["text"] for t in sample.turns]
    sizes = [count_tokens(t) for t in texts]
    systems: dict[str, RawBM25 | RawDense] = {
        "bm25": RawBM25(texts),
        "dense": RawDense(texts, memory.components.embedder),
    }
    for name, system in systems.items():
        for question in asked:
            started = time.perf_counter()
            order = system.rank(question.text, LIMIT)
            latency = (time.perf_counter() - started) * 1000
            ranked = tuple(m.Ranked(None, (sample.turns[i]["turn_id"],), sizes[i]) for i in order)
            run.asked[name].append(m.Asked(question.label, question.gold, "", ranked, latency))


async def _attribute(
    memory: MemoryService, sample: Sample, question: Question, outcome: m.Asked
) -> list[Miss]:
    """Each gold turn missing from the top k, with the first layer that lost it."""
    misses = []
    for dia_id in m.missed(question.gold, outcome.ranked, m.ATTRIBUTION_K):
        evidence_id = sample.evidence_of.get(dia_id)
        captured = evidence_id is not None and await memory.components.evidence.get(evidence_id)
        citing = await _citing(memory, evidence_id, sample.text_of[dia_id]) if captured else []
        rank = next((i + 1 for i, r in enumerate(outcome.ranked) if dia_id in r.turns), None)
        misses.append(
            Miss(
                sample_id=sample.sample_id,
                question=question.text,
                category=question.label,
                dia_id=dia_id,
                evidence_id=evidence_id or "",
                layer=m.first_losing_layer(bool(captured), citing).value,
                fact_ids=tuple(f.fact_id for f in citing),
                rank=rank,
            )
        )
    return misses


async def _citing(memory: MemoryService, evidence_id: str | None, text: str) -> list[m.CitingFact]:
    views, found = memory.components.views, []
    for fact_id in await views.facts_for_evidence(evidence_id or ""):
        fact = await views.get(fact_id)
        if fact is None or evidence_id not in fact.evidence_ids:
            continue
        position = fact.evidence_ids.index(evidence_id)
        similarity = _cosine(memory, fact.statement, text) if position else 1.0
        found.append(m.CitingFact(fact_id, fact.status.value, position, similarity))
    return found


def _cosine(memory: MemoryService, first: str, second: str) -> float:
    a, b = memory.components.embedder.embed([first, second])
    norm = (sum(x * x for x in a) * sum(y * y for y in b)) ** 0.5
    return sum(x * y for x, y in zip(a, b, strict=True)) / norm if norm else 0.0


def _unsupported(fact: Fact) -> bool:
    """Held for review because the evidence does not carry it (not merely tentative)."""
    if fact.status is not FactStatus.NEEDS_REVIEW:
        return False
    reason = DecisionReason.from_review_text(fact.review_reason or "")
    return reason is None or reason.kind is not ReasonKind.TENTATIVE


async def _audit_store(
    memory: MemoryService, sample: Sample, facts: dict[str, Fact]
) -> Counter[str]:
    """Fact counts by status, grounded and duplicate active facts."""
    counts: Counter[str] = Counter(f"status:{f.status.value}" for f in facts.values())
    counts["facts"] = len(facts)
    counts["unsupported"] = sum(1 for f in facts.values() if _unsupported(f))
    order = {e: i for i, e in enumerate(sample.evidence_of.values())}
    active = sorted(
        (f for f in facts.values() if f.status is FactStatus.ACTIVE),
        key=lambda f: (order.get(f.evidence_ids[0], len(order)), f.fact_id),
    )
    lengths: dict[str, int | None] = {}
    for fact in active:
        counts["grounded"] += await _grounded(memory, fact, lengths)
    vectors = memory.components.embedder.embed([f.statement for f in active])
    counts["duplicates"] += sum(m.duplicate_flags(vectors, m.DUPLICATE_COSINE))
    return counts


async def _grounded(memory: MemoryService, fact: Fact, lengths: dict[str, int | None]) -> bool:
    for evidence_id in fact.evidence_ids:
        if evidence_id not in lengths:
            lengths[evidence_id] = await _text_length(memory, evidence_id)
        spans = [(s.start, s.end) for s in fact.support if s.evidence_id == evidence_id]
        if m.spans_inside(spans, lengths[evidence_id]):
            return True
    return False


async def _text_length(memory: MemoryService, evidence_id: str) -> int | None:
    turn = await memory.components.evidence.get(evidence_id)
    if turn is None:
        return None
    try:
        return len(await memory.components.sealer.open(turn.text))
    except MissingDataKeyError:
        return None


async def _audit_updates(
    memory: MemoryService, sample: Sample, facts: dict[str, Fact]
) -> Counter[str]:
    """Query each superseded fact's statement: does its successor come first?"""
    counts: Counter[str] = Counter()
    for old in (f for f in facts.values() if f.status is FactStatus.SUPERSEDED):
        head = current(old, facts)
        if head.status is not FactStatus.ACTIVE:
            counts["no_active_successor"] += 1
            continue
        result = await memory.query(sample.scope, old.statement, limit=LIMIT, now=sample.now)
        ranked = [b.fact.fact_id if b.fact else None for b in result.bundles]
        counts["n"] += 1
        counts["successor_first"] += m.successor_first(ranked, head.fact_id, old.fact_id)
        counts["superseded_surfaced"] += old.fact_id in ranked
    return counts


async def gate_stats(memory: MemoryService) -> Counter[str]:
    """Gate decisions: counted by this process's runner on the embedded runtime, read back
    from the fact-changes topic when the workers decided (Kafka)."""
    components = memory.components
    if not components.runtime.derives_in_workers:
        return components.runner.gate_stats
    stats: Counter[str] = Counter()
    log, topic = components.log, components.names.fact_changes
    for partition in range(await log.partitions(topic)):
        offset = 0
        while batch := await log.read(topic, partition, offset, 1000):
            offset = batch[-1].offset + 1
            for record in batch:
                verdict = _verdict(record.value)
                if verdict:
                    stats[verdict] += 1
    return stats


def _verdict(raw: bytes | None) -> str | None:
    """The gate verdict one fact change records (a supersession counts once: its new fact)."""
    if raw is None:
        return None
    change = FactChanged.model_validate_json(raw)
    fact = change.fact
    if change.op is FactOp.ADD:
        return "REVIEW" if fact and fact.status is FactStatus.NEEDS_REVIEW else "ADD"
    if change.op is FactOp.NOOP:
        return "NOOP"
    if change.op is FactOp.UPDATE and fact is not None and fact.supersedes:
        return "UPDATE"
    reason = DecisionReason.from_text(change.reason)
    if change.op is FactOp.UPDATE and reason and reason.kind is ReasonKind.SAME_SLOT_AND_VALUE:
        return "MERGE"
    return None


def _report(
    memory: MemoryService,
    dataset: Path,
    samples: list[Sample],
    run: Run,
    seconds: float,
    stats: Counter[str],
) -> EvaluationReport:
    turns = sum(len(s.turns) for s in samples)
    llm_extractor = memory.components.settings.llm_base_url is not None
    return EvaluationReport(
        dataset=dataset.name,
        samples=len(samples),
        turns=turns,
        systems={n: m.category_rows(a, ADVERSARIAL_LABEL) for n, a in run.asked.items()},
        store=dict(run.store),
        gate={**{v: stats.get(v, 0) for v in m.VERDICTS}, "advisor_calls": stats["advisor_calls"]},
        write_ms_per_turn=sum(s.write_ms for s in samples) / max(1, turns),
        llm_calls=stats["advisor_calls"] + (turns if llm_extractor else 0),
        updates=dict(run.updates),
        misses=run.misses,
        seconds=seconds,
    )
