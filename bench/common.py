"""What the quality benchmarks share: an embedded memory, ingestion, ranks and baselines.

Every benchmark here measures the code it runs against through the public service API
(`Memory`: publish, sync, facts, fact, query), so a change to the extractor or the gate
moves the numbers without a change here.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from provmem.config import Settings
from provmem.core.events import Fact, FactStatus
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.services.memory.memory import MAX_BATCH, MemoryService
from provmem.services.memory.results import Recollection
from provmem.streams.runtime.components import build

WORD = re.compile(r"[a-z0-9]+")


@asynccontextmanager
async def embedded_memory(folder: Path, partitions: int = 4) -> AsyncIterator[MemoryService]:
    """The real embedded pipeline (rules extractor, gate, views, qdrant-edge) in `folder`."""
    components = await build(Settings(data_dir=folder, partitions=partitions))
    try:
        yield MemoryService(components)
    finally:
        await components.close()


async def publish_turns(
    memory: MemoryService, turns: Sequence[Mapping[str, Any]]
) -> dict[str, str]:
    """Publish turns in the largest batches allowed, then derive; evidence id -> turn id."""
    published = await evidence_turns(memory, turns)
    return {evidence: str(turn["turn_id"]) for evidence, turn in published.items()}


async def evidence_turns(
    memory: MemoryService, turns: Sequence[Mapping[str, Any]]
) -> dict[str, Mapping[str, Any]]:
    """Publish turns, then derive; evidence id -> the turn (ids repeat across scopes)."""
    found: dict[str, Mapping[str, Any]] = {}
    for start in range(0, len(turns), MAX_BATCH):
        chunk = turns[start : start + MAX_BATCH]
        for result, turn in zip(await memory.publish(chunk), chunk, strict=True):
            if result.evidence_id is None:
                raise RuntimeError(f"turn {turn.get('turn_id')}: {result.status} {result.error}")
            found[result.evidence_id] = turn
    await memory.sync()
    return found


def ranked_turns(result: Recollection, turn_of: Mapping[str, str]) -> list[list[str]]:
    """Each bundle's provenance as source turn ids, in rank order."""
    return [[turn_of.get(e, "") for e in b.evidence_ids] for b in result.bundles]


def covered(ranked: Sequence[Sequence[str]], k: int) -> set[str]:
    return {turn for item in ranked[:k] for turn in item}


def first_rank(ranked: Sequence[Sequence[str]], turn_id: str) -> int | None:
    return next((i for i, item in enumerate(ranked) if turn_id in item), None)


def active(facts: Sequence[Fact]) -> list[Fact]:
    return [f for f in facts if f.status == FactStatus.ACTIVE]


def raw_embedding_rate(texts: Sequence[str], embedder: MiniLMEmbedder | None = None) -> float:
    """Texts per second of the MiniLM model alone (batches of 64, no cache), after a warm-up."""
    model = embedder or MiniLMEmbedder()
    model.embed_transient(list(texts[:8]))
    start = time.perf_counter()
    for i in range(0, len(texts), 64):
        model.embed_transient(list(texts[i : i + 64]))
    return len(texts) / (time.perf_counter() - start)


def tokens(text: str) -> list[str]:
    return WORD.findall(text.lower())


def token_f1(a: str, b: str) -> float:
    """SQuAD-style token F1 between two texts (lowercased alphanumeric tokens)."""
    left, right = tokens(a), tokens(b)
    common = sum(min(left.count(t), right.count(t)) for t in set(left))
    if not common:
        return 0.0
    precision, recall = common / len(left), common / len(right)
    return 2 * precision * recall / (precision + recall)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0
