"""bench/locomo: evidence recall of provmem against raw-turn BM25 and dense baselines.

    python -m bench.locomo [--data ../shared/data/locomo/locomo-dev.json]

Ingests every conversation through the real embedded pipeline, queries every question
of categories 1-4 and reports, per category: evidence recall@5/@10/@20 (share of gold
evidence turns covered by the provenance of the top-k bundles), recall within a
512-token context, mean context tokens of the top 10, share escalated and p50/p95 query
latency, beside raw-turn BM25 and dense baselines computed in the same run (dense over the
turn text, and over "Speaker: text" as provmem's raw-evidence route sees a turn).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import embedded_memory, publish_turns
from provmem.core.retrieval.fusion import count_tokens
from provmem.services.memory.loaders import locomo_turns
from provmem.services.memory.memory import MemoryService
from provmem.services.memory.results import Recollection
from provmem.services.tools.evaluation_data import (
    CATEGORIES,
    Question,
    RawBM25,
    RawDense,
    last_session_time,
    questions,
)

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared/data/locomo/locomo-dev.json"
KS = (5, 10, 20)
BUDGET = 512


@dataclass
class Scores:
    recall: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    budget_recall: list[float] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    escalated: list[bool] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)


def coverage(gold: Sequence[str], ranked: Sequence[Sequence[str]], k: int) -> float:
    covered = {d for item in ranked[:k] for d in item}
    return sum(g in covered for g in gold) / len(gold)


def budget_coverage(
    gold: Sequence[str], ranked: Sequence[Sequence[str]], sizes: Sequence[int], budget: int = BUDGET
) -> float:
    covered: set[str] = set()
    used = 0
    for item, size in zip(ranked, sizes, strict=True):
        if used + size <= budget:
            covered.update(item)
            used += size
    return sum(g in covered for g in gold) / len(gold)


async def ingest(memory: MemoryService, sample: dict[str, Any]) -> dict[str, str]:
    """Publish a conversation; return evidence id -> dia_id."""
    return await publish_turns(memory, list(locomo_turns(sample)))


async def score_provmem(
    memory: MemoryService,
    sample: dict[str, Any],
    dia_of: dict[str, str],
    asked: Sequence[Question],
    scores: dict[int, Scores],
) -> None:
    scope = f"locomo/{sample['sample_id']}/dialogue"
    now = last_session_time(sample)
    for question in asked:
        started = time.perf_counter()
        result = await memory.query(scope, question.text, limit=max(KS), now=now)
        elapsed = (time.perf_counter() - started) * 1000
        ranked = [[dia_of.get(e, "") for e in b.evidence_ids] for b in result.bundles]
        record(
            scores[question.category],
            question,
            ranked,
            [b.tokens for b in result.bundles],
            elapsed,
            result,
        )


def record(
    score: Scores,
    question: Question,
    ranked: list[list[str]],
    sizes: list[int],
    elapsed_ms: float,
    result: Recollection | None = None,
) -> None:
    for k in KS:
        score.recall[k].append(coverage(question.gold, ranked, k))
    score.budget_recall.append(budget_coverage(question.gold, ranked, sizes))
    score.tokens.append(sum(sizes[:10]))
    score.latency_ms.append(elapsed_ms)
    score.escalated.append(result is not None and result.path == "ESCALATE")


def score_baseline(
    rank: Callable[[str, int], list[int]],
    turns: list[dict[str, Any]],
    asked: Sequence[Question],
    scores: dict[int, Scores],
) -> None:
    for question in asked:
        started = time.perf_counter()
        order = rank(question.text, max(KS))
        elapsed = (time.perf_counter() - started) * 1000
        ranked = [[turns[i]["turn_id"]] for i in order]
        sizes = [count_tokens(turns[i]["text"]) for i in order]
        record(scores[question.category or 0], question, ranked, sizes, elapsed)


async def run(data: Path, folder: Path) -> dict[str, dict[int, Scores]]:
    samples = json.loads(data.read_text())
    systems: dict[str, dict[int, Scores]] = {
        n: defaultdict(Scores) for n in ("provmem", "bm25", "dense", "dense+speaker")
    }
    async with embedded_memory(folder) as memory:
        embedder = memory.components.embedder
        for sample in samples:
            asked = [q for q in questions(sample) if q.category in (1, 2, 3, 4)]
            dia_of = await ingest(memory, sample)
            await score_provmem(memory, sample, dia_of, asked, systems["provmem"])
            turns = list(locomo_turns(sample))
            texts = [t["text"] for t in turns]
            score_baseline(RawBM25(texts).rank, turns, asked, systems["bm25"])
            score_baseline(RawDense(texts, embedder).rank, turns, asked, systems["dense"])
            spoken = [f"{t['speaker']}: {t['text']}" for t in turns]  # who said it, as provmem
            dense_speaker = RawDense(spoken, embedder).rank
            score_baseline(dense_speaker, turns, asked, systems["dense+speaker"])
    return systems


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _merged(per_category: dict[int, Scores]) -> Scores:
    total = Scores()
    for score in per_category.values():
        for k in KS:
            total.recall[k] += score.recall[k]
        total.budget_recall += score.budget_recall
        total.tokens += score.tokens
        total.escalated += score.escalated
        total.latency_ms += score.latency_ms
    return total


def table(systems: dict[str, dict[int, Scores]]) -> str:
    head = (
        "| system | category | n | R@5 | R@10 | R@20 | R@512tok | tokens@10 | escalated "
        "| p50 ms | p95 ms |"
    )
    lines = [head, "|" + "---|" * 11]
    for name, per_category in systems.items():
        rows = [(CATEGORIES[c], per_category[c]) for c in sorted(per_category)]
        rows.append(("overall", _merged(per_category)))
        for label, s in rows:
            lines.append(
                f"| {name} | {label} | {len(s.tokens)} | {_mean(s.recall[5]):.3f} "
                f"| {_mean(s.recall[10]):.3f} | {_mean(s.recall[20]):.3f} "
                f"| {_mean(s.budget_recall):.3f} | {_mean(s.tokens):.0f} "
                f"| {_mean([float(e) for e in s.escalated]):.0%} "
                f"| {statistics.median(s.latency_ms):.1f} | {_pct(s.latency_ms, 0.95):.1f} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-locomo-") as folder:
        systems = asyncio.run(run(args.data, Path(folder)))
    print(table(systems))
    ours, bm25 = _merged(systems["provmem"]), _merged(systems["bm25"])
    print(
        f"\nratio provmem/BM25: R@10 {_mean(ours.recall[10]) / _mean(bm25.recall[10]):.2f}, "
        f"tokens@10 {_mean(ours.tokens) / _mean(bm25.tokens):.2f}"
    )


if __name__ == "__main__":
    main()
