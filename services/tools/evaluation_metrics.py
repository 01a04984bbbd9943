"""Pure metric definitions of ``provmem eval``: no model, no store, no I/O.

A ranked result is a list of :class:`Ranked` items (a bundle, or a raw turn for the
baselines), each naming the dia ids of the turns it cites.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

KS = (5, 10, 20)
BUDGETS = (128, 256, 512, 1024)
ATTRIBUTION_K = 10
DUPLICATE_COSINE = 0.95
UNRELATED_COSINE = 0.6
VERDICTS = ("ADD", "NOOP", "UPDATE", "MERGE", "REVIEW")


@dataclass(frozen=True)
class Ranked:
    """One retrieved item: its fact (None for a raw turn), the turns it cites as
    provenance, raw turns read beside it (escalation context) and its context size."""

    fact_id: str | None
    turns: tuple[str, ...]
    tokens: int
    context: tuple[str, ...] = ()


def coverage(gold: Sequence[str], ranked: Sequence[Ranked], k: int) -> float:
    """Evidence recall@k: share of gold turns cited by the top ``k`` items."""
    covered = {t for item in ranked[:k] for t in item.turns}
    return sum(g in covered for g in gold) / len(gold)


def within_budget(ranked: Sequence[Ranked], budget: int) -> list[Ranked]:
    """Greedy in rank order: keep each item whose tokens still fit in ``budget``."""
    kept: list[Ranked] = []
    used = 0
    for item in ranked:
        if used + item.tokens <= budget:
            kept.append(item)
            used += item.tokens
    return kept


def budget_coverage(gold: Sequence[str], ranked: Sequence[Ranked], budget: int) -> float:
    """Evidence recall within a context of ``budget`` tokens."""
    kept = within_budget(ranked, budget)
    return coverage(gold, kept, len(kept)) if kept else 0.0


def all_covered(gold: Sequence[str], ranked: Sequence[Ranked], k: int) -> bool:
    return coverage(gold, ranked, k) == 1.0


def missed(gold: Sequence[str], ranked: Sequence[Ranked], k: int) -> list[str]:
    covered = {t for item in ranked[:k] for t in item.turns}
    return [g for g in gold if g not in covered]


def fact_covered(gold: Sequence[str], ranked: Sequence[Ranked], k: int) -> bool:
    """Some fact bundle among the top ``k`` cites some gold turn."""
    cited = {t for item in ranked[:k] if item.fact_id is not None for t in item.turns}
    return any(g in cited for g in gold)


def false_cache_hit(path: str, gold: Sequence[str], ranked: Sequence[Ranked], k: int) -> bool:
    """The router answered from memory although no top-``k`` fact holds any gold turn."""
    return path == "ANSWER" and not fact_covered(gold, ranked, k)


def abstained(path: str, gold: Sequence[str], ranked: Sequence[Ranked], k: int) -> bool:
    """Adversarial question handled: escalated, or no top-``k`` fact holds its evidence."""
    return path == "ESCALATE" or not fact_covered(gold, ranked, k)


def unverifiable_omissions(
    gold: Sequence[str], ranked: Sequence[Ranked], cited_by_active: set[str]
) -> list[str]:
    """Gold turns the raw tier surfaced (a fact-less item or escalation context) that no
    active fact's provenance covers: the memory could have kept them, and did not."""
    raw = {t for item in ranked if item.fact_id is None for t in item.turns}
    raw |= {t for item in ranked for t in item.context}
    return [g for g in gold if g in raw and g not in cited_by_active]


def successor_first(ranked_facts: Sequence[str | None], successor: str, superseded: str) -> bool:
    """The successor's bundle is returned and ranks above any bundle of the old fact."""
    if successor not in ranked_facts:
        return False
    old = ranked_facts.index(superseded) if superseded in ranked_facts else len(ranked_facts)
    return ranked_facts.index(successor) < old


def duplicate_flags(vectors: Sequence[Sequence[float]], threshold: float) -> list[bool]:
    """For facts in order: True when an earlier one has cosine ≥ ``threshold`` with it."""
    if len(vectors) == 0:
        return []
    matrix = np.asarray(vectors, dtype=np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    similarity = np.tril(matrix @ matrix.T, k=-1)
    return [bool(row[:i].max() >= threshold) if i else False for i, row in enumerate(similarity)]


def spans_inside(spans: Sequence[tuple[int, int]], text_length: int | None) -> bool:
    """Provenance check of one evidence: it is readable and every span lies in its text."""
    if text_length is None or not spans:
        return False
    return all(0 <= start < end <= text_length for start, end in spans)


class Layer(StrEnum):
    """Where a gold turn was lost, in pipeline order."""

    CAPTURE = "evidence capture"
    EXTRACTION = "extraction"
    WRITE_GATE = "write gate"
    CANONICAL = "canonical store"
    RETRIEVAL = "retrieval"


@dataclass(frozen=True)
class CitingFact:
    """A fact whose provenance cites the lost turn: where the turn sits in its evidence
    list and how similar its statement is to the turn's own text."""

    fact_id: str
    status: str
    position: int
    similarity: float


def first_losing_layer(
    captured: bool, citing: Sequence[CitingFact], unrelated: float = UNRELATED_COSINE
) -> Layer:
    """The first layer that lost a gold turn missing from the top-k.

    capture: no stored evidence; extraction: no fact in any status cites it; write gate:
    every citing fact got it as corroboration (not first evidence) of a statement about
    something else, or holds it for review only; canonical store: no citing fact is active;
    retrieval: an active fact cites it, yet it was not ranked in.
    """
    if not captured:
        return Layer.CAPTURE
    if not citing:
        return Layer.EXTRACTION
    if all(f.position > 0 and f.similarity < unrelated for f in citing):
        return Layer.WRITE_GATE
    if all(f.status == "needs-review" for f in citing):
        return Layer.WRITE_GATE
    if not any(f.status == "active" for f in citing):
        return Layer.CANONICAL
    return Layer.RETRIEVAL


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def share(flags: Sequence[bool]) -> float:
    return mean([float(f) for f in flags])


@dataclass(frozen=True)
class Asked:
    """One question put to one system: its gold turns, the router's path ("" for a
    baseline), the ranked result, query latency and unverifiable omissions."""

    category: str
    gold: tuple[str, ...]
    path: str
    ranked: tuple[Ranked, ...]
    latency_ms: float
    omitted: tuple[str, ...] = ()


def answer_row(asked: Sequence[Asked]) -> dict[str, float]:
    """Recall and routing figures of answerable questions (gold evidence known)."""
    row: dict[str, float] = {"n": len(asked)}
    for k in KS:
        row[f"recall@{k}"] = mean([coverage(a.gold, a.ranked, k) for a in asked])
    for budget in BUDGETS:
        row[f"recall@{budget}tok"] = mean(
            [budget_coverage(a.gold, a.ranked, budget) for a in asked]
        )
    row["tokens@10"] = mean([sum(r.tokens for r in a.ranked[:10]) for a in asked])
    multi = [a for a in asked if len(a.gold) > 1]
    row["multi_evidence_n"] = len(multi)
    row["all_covered@10"] = share([all_covered(a.gold, a.ranked, ATTRIBUTION_K) for a in multi])
    row["escalation_rate"] = share([a.path == "ESCALATE" for a in asked])
    answered = [a for a in asked if a.path == "ANSWER"]
    row["false_cache_hit_rate"] = share(
        [false_cache_hit(a.path, a.gold, a.ranked, ATTRIBUTION_K) for a in answered]
    )
    gold_turns = sum(len(a.gold) for a in asked)
    row["unverifiable_omission_rate"] = sum(len(a.omitted) for a in asked) / max(1, gold_turns)
    row["p50_ms"] = float(np.median([a.latency_ms for a in asked])) if asked else 0.0
    return row


def abstention_row(asked: Sequence[Asked]) -> dict[str, float]:
    """Adversarial questions: abstention and escalation."""
    return {
        "n": len(asked),
        "abstention_rate": share(
            [abstained(a.path, a.gold, a.ranked, ATTRIBUTION_K) for a in asked]
        ),
        "escalation_rate": share([a.path == "ESCALATE" for a in asked]),
    }


def category_rows(asked: Sequence[Asked], adversarial: str) -> dict[str, dict[str, float]]:
    """Per category, then ``overall`` over every non-adversarial category."""
    labels = sorted({a.category for a in asked}, key=_category_order)
    rows = {}
    for label in labels:
        group = [a for a in asked if a.category == label]
        rows[label] = abstention_row(group) if label == adversarial else answer_row(group)
    answerable = [a for a in asked if a.category != adversarial]
    if answerable:
        rows["overall"] = answer_row(answerable)
    return rows


_ORDER = ("multi-hop", "temporal", "open-domain", "single-hop", "uncategorised", "adversarial")


def _category_order(label: str) -> int:
    return _ORDER.index(label) if label in _ORDER else len(_ORDER)
