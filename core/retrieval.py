"""Retrieval, pure part: fuse route rankings, project hits onto facts, fit a token budget.

Routes return ranked item ids: facts (``fact_...``) or raw evidence (``ev_...``).
Reciprocal rank fusion combines them; evidence hits are projected onto the active facts
they support (or stay raw evidence when no fact covers them); superseded facts are
projected onto their active successor and kept as its history.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .events import Fact, FactStatus

T = TypeVar("T")
RRF_K = 60
_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Approximate context tokens: words and punctuation marks."""
    return len(_TOKEN.findall(text))


@dataclass(frozen=True)
class RouteResult:
    """One route's ranking, best first, with why it ran."""

    route: str
    items: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class Fused:
    item: str
    score: float
    routes: tuple[str, ...]


def fuse(
    results: Sequence[RouteResult], weights: Mapping[str, float] | None = None, k: int = RRF_K
) -> list[Fused]:
    """Reciprocal rank fusion: score = Σ weight / (k + rank) over the routes that found it."""
    scores: defaultdict[str, float] = defaultdict(float)
    routes: defaultdict[str, list[str]] = defaultdict(list)
    for result in results:
        weight = (weights or {}).get(result.route, 1.0)
        for rank, item in enumerate(result.items, start=1):
            scores[item] += weight / (k + rank)
            routes[item].append(result.route)
    ordered = sorted(scores, key=lambda i: (-scores[i], i))
    return [Fused(i, scores[i], tuple(routes[i])) for i in ordered]


@dataclass
class Bundle:
    """A fact (or a raw evidence turn no fact covers) with the hits that led to it."""

    key: str
    score: float
    routes: set[str]
    fact: Fact | None = None
    evidence_id: str | None = None
    history: list[Fact] = field(default_factory=list)
    via_evidence: set[str] = field(default_factory=set)

    @property
    def evidence_ids(self) -> tuple[str, ...]:
        if self.fact is not None:
            return self.fact.evidence_ids
        return (self.evidence_id,) if self.evidence_id else ()


@dataclass(frozen=True)
class Lookups:
    """What projection needs to know about the items (read from the views)."""

    facts: Mapping[str, Fact]
    facts_of_evidence: Mapping[str, Sequence[str]]


def project(fused: Sequence[Fused], lookups: Lookups) -> list[Bundle]:
    """Group fused hits into fact-centred bundles, best first."""
    bundles: dict[str, Bundle] = {}
    for hit in fused:
        for key, fact, evidence in _targets(hit.item, lookups):
            bundle = bundles.setdefault(key, Bundle(key, 0.0, set(), fact, evidence))
            bundle.score += hit.score / max(1, len(_targets(hit.item, lookups)))
            bundle.routes.update(hit.routes)
            if evidence and fact is not None:
                bundle.via_evidence.add(evidence)
            _note_history(bundle, hit.item, lookups)
    return sorted(bundles.values(), key=lambda b: (-b.score, b.key))


def _targets(item: str, lookups: Lookups) -> list[tuple[str, Fact | None, str | None]]:
    """Where one hit lands: its active fact(s), else the raw evidence itself."""
    if item in lookups.facts:
        fact = current(lookups.facts[item], lookups.facts)
        return [(fact.fact_id, fact, None)] if fact.status is FactStatus.ACTIVE else []
    facts = [
        lookups.facts[f] for f in lookups.facts_of_evidence.get(item, ()) if f in lookups.facts
    ]
    active = {current(f, lookups.facts) for f in facts}
    landed: list[tuple[str, Fact | None, str | None]] = [
        (f.fact_id, f, item)
        for f in sorted(active, key=lambda f: f.fact_id)
        if f.status is FactStatus.ACTIVE
    ]
    return landed or [(item, None, item)]


def current(fact: Fact, facts: Mapping[str, Fact], depth: int = 20) -> Fact:
    """Follow ``superseded_by`` to the fact that replaced this one (bounded)."""
    while fact.superseded_by and fact.superseded_by in facts and depth > 0:
        fact, depth = facts[fact.superseded_by], depth - 1
    return fact


def _note_history(bundle: Bundle, item: str, lookups: Lookups) -> None:
    fact = lookups.facts.get(item)
    if fact is not None and bundle.fact is not None and fact.fact_id != bundle.fact.fact_id:
        if fact not in bundle.history:
            bundle.history.append(fact)


def within_budget(bundles: Sequence[T], budget: int, size: Callable[[T], int]) -> list[T]:
    """The best bundles whose rendered sizes fit in ``budget`` tokens, in rank order."""
    kept: list[T] = []
    used = 0
    for bundle in bundles:
        cost = size(bundle)
        if used + cost <= budget:
            kept.append(bundle)
            used += cost
    return kept
