"""The attribute-similarity threshold of the gate, calibrated with the real embedding
model on labelled general attribute pairs (not on a benchmark's words): synonyms that
must match and near misses that must not (core/facts/attribute_similarity.py).

Phrases are written as open readings key them (core/extraction/attributes.py): lower case, nouns
singular, generic heads ("count", "rate") left out; a few keep them, as a user may."""

from __future__ import annotations

import numpy as np
import pytest

from provmem.core.facts.attribute_similarity import (
    attribute_parts,
    attribute_similarity,
    calibrated_threshold,
)
from provmem.core.facts.gate import GateConfig
from provmem.core.facts.memory_state import AttributeVectors, as_unit
from provmem.infra.models.embedding import MiniLMEmbedder

SYNONYMS = [
    ("peak ram", "peak memory"),
    ("salary", "pay"),
    ("wage", "salary"),
    ("home city", "hometown"),
    ("disk usage", "storage used"),
    ("price", "cost"),
    ("employer", "company"),
    ("build duration", "build time"),
    ("car", "vehicle"),
    ("weight", "body weight"),
    ("subscriber", "follower"),
    ("bug", "defect"),
    ("server", "host"),
    ("customer", "client"),
    ("storage", "disk space"),
    ("revenue", "sales"),
    ("download", "install"),
    ("deploy time", "deployment duration"),
    ("user", "account"),
    ("cpu load", "processor usage"),
    ("failure", "error"),
    ("engineer", "developer"),
    ("job title", "position"),
    ("throughput", "request per second"),
    ("memory footprint", "memory use"),
    ("release date", "launch date"),  # one head, synonym modifiers: missed (kept apart)
    ("startup time", "boot time"),
    ("apartment rent", "monthly rent"),
]
NEAR_MISSES = [
    ("memory usage", "memory leak count"),
    ("memory usage", "memory leak"),
    ("build time", "build count"),
    ("staging latency", "production latency"),
    ("python version", "node version"),
    ("open issue", "open pull request"),
    ("cpu usage", "memory usage"),
    ("start date", "end date"),
    ("download", "upload"),
    ("uptime", "downtime"),
    ("read latency", "write latency"),
    ("frontend bundle", "backend bundle"),
    ("test", "commit"),
    ("deploy", "rollback"),
    ("star", "fork"),
    ("branch", "tag"),
    ("disk usage", "disk latency"),
    ("monthly cost", "monthly revenue"),
    ("birth date", "wedding date"),
    ("input token", "output token"),
    ("cache hit", "cache miss"),
    ("line of code", "file"),
    ("bug", "feature"),
    ("error", "warning"),
    ("revenue", "expense"),
    ("request", "user"),
    ("team size", "office size"),
    ("build time", "test time"),
    ("max connection", "idle connection"),
]
MUST_NOT = [("memory usage", "memory leak count"), ("build time", "build count")]
MUST_NOT += [("staging latency", "production latency")]


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder(threads=1)


def vectors(embedder: MiniLMEmbedder, phrase: str) -> AttributeVectors:
    parts = attribute_parts(phrase)
    return AttributeVectors(phrase, dict(zip(parts, map(as_unit, embedder.embed(parts)))))


def scores(embedder: MiniLMEmbedder, pairs: list[tuple[str, str]]) -> list[float]:
    return [attribute_similarity(vectors(embedder, a), vectors(embedder, b)) for a, b in pairs]


def test_the_gate_default_is_the_threshold_calibrated_on_the_labelled_pairs(
    embedder: MiniLMEmbedder,
) -> None:
    matching, distinct = scores(embedder, SYNONYMS), scores(embedder, NEAR_MISSES)
    threshold = calibrated_threshold(matching, distinct)
    assert GateConfig().attribute_similarity == pytest.approx(threshold, abs=0.01)
    right = sum(s >= threshold for s in matching) + sum(s < threshold for s in distinct)
    assert right / (len(matching) + len(distinct)) >= 0.85


def test_near_misses_that_share_a_word_stay_apart(embedder: MiniLMEmbedder) -> None:
    threshold = GateConfig().attribute_similarity
    assert all(s < threshold for s in scores(embedder, MUST_NOT))


def test_synonyms_that_share_no_head_match(embedder: MiniLMEmbedder) -> None:
    clear = [("price", "cost"), ("peak ram", "peak memory"), ("car", "vehicle")]
    assert all(s >= GateConfig().attribute_similarity for s in scores(embedder, clear))


def test_what_differs_is_compared_not_the_shared_words(embedder: MiniLMEmbedder) -> None:
    whole = embedder.embed(["memory usage", "memory leak"])
    raw = float(np.dot(as_unit(whole[0]), as_unit(whole[1])))
    assert scores(embedder, [("memory usage", "memory leak")])[0] < raw - 0.2
