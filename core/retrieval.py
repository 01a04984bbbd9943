"""Retrieval, pure part: fuse route rankings, project hits onto facts, fit a token budget.

Routes return ranked item ids: facts (``fact_...``) or raw evidence (``ev_...``).
Reciprocal rank fusion combines them; evidence hits are projected onto the active facts
they support (or stay raw evidence when no fact covers them); superseded facts are
projected onto their active successor and kept as its history.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .events import Fact, FactStatus

T = TypeVar("T")
RRF_K = 60
_TOKEN = re.compile(r"\w+|[^\w\s]")


def supporting_text(text: str, evidence_id: str, fact: Fact | None) -> str:
    """The parts of an evidence text that support ``fact`` (the whole text without one)."""
    spans = [s for s in fact.support if s.evidence_id == evidence_id] if fact else []
    return " … ".join(text[s.start : s.end] for s in spans) if spans else text


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


SUPERSEDED_CREDIT = 0.5  # a hit on an old version counts half for its successor

Target = tuple[str, Fact | None, str | None, float]


def project(
    results: Sequence[RouteResult],
    lookups: Lookups,
    weights: Mapping[str, float] | None = None,
    k: int = RRF_K,
    ignore: Collection[str] = (),
) -> list[Bundle]:
    """Project each route's hits onto bundles, then fuse the bundle rankings by RRF.

    Within a route a bundle counts once, with its best hit (credit over rank), so a fact
    with many supporting turns is not counted once per turn, and a half-credit hit on an
    old version does not mask a better-credited hit further down. Items in ``ignore``
    are passed over; the items after them keep their ranks.
    """
    bundles: dict[str, Bundle] = {}
    landings: dict[str, list[Target]] = {}  # an item found by several routes lands once
    for result in results:
        weight = (weights or {}).get(result.route, 1.0)
        best: dict[str, float] = {}
        for rank, item in enumerate(result.items, start=1):
            if item in ignore:
                continue
            if item not in landings:
                landings[item] = _targets(item, lookups)
            for key, fact, evidence, credit in landings[item]:
                bundle = bundles.get(key) or bundles.setdefault(
                    key, Bundle(key, 0.0, set(), fact, evidence)
                )
                _note_history(bundle, item, lookups)
                if evidence and fact is not None:
                    bundle.via_evidence.add(evidence)
                best[key] = max(best.get(key, 0.0), weight * credit / (k + rank))
        for key, contribution in best.items():
            bundles[key].score += contribution
            bundles[key].routes.add(result.route)
    return sorted(bundles.values(), key=lambda b: (-b.score, b.key))


def _targets(item: str, lookups: Lookups) -> list[Target]:
    """Where one hit lands: its active fact(s), else the raw evidence itself."""
    if item in lookups.facts:
        return _landing(lookups.facts[item], None, lookups)
    landed: list[Target] = []
    for fact_id in sorted(lookups.facts_of_evidence.get(item, ())):
        if fact_id in lookups.facts:
            landed += _landing(lookups.facts[fact_id], item, lookups)
    unique = {target[0]: target for target in sorted(landed, key=lambda t: -t[3])}
    return list(unique.values()) or [(item, None, item, 1.0)]


def _landing(fact: Fact, evidence: str | None, lookups: Lookups) -> list[Target]:
    successor = current(fact, lookups.facts)
    if successor.status is not FactStatus.ACTIVE:
        return []
    credit = 1.0 if successor is fact else SUPERSEDED_CREDIT
    return [(successor.fact_id, successor, evidence, credit)]


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


def spread(bundles: Sequence[Bundle]) -> list[Bundle]:
    """Rank order with redundant provenance last: a bundle whose evidence turns are all
    cited by better bundles adds no new evidence, so it yields its place (stable)."""
    cited: set[str] = set()
    fresh: list[Bundle] = []
    redundant: list[Bundle] = []
    for bundle in bundles:
        evidence = set(bundle.evidence_ids)
        (redundant if evidence and evidence <= cited else fresh).append(bundle)
        cited |= evidence
    return fresh + redundant


def temporal_route(
    ranges: Sequence[str], routes: Sequence[RouteResult], lookups: Lookups, depth: int = 30
) -> RouteResult | None:
    """The active facts the other routes found whose time lies in one of ``ranges``
    (ISO dates or ``first/last`` ranges), in order of their best rank in any route.

    Bounded by what the routes returned: never a scan of the scope.
    """
    if not ranges:
        return None
    best: dict[str, int] = {}
    for result in routes:
        for rank, item in enumerate(result.items):
            for fact_id in lookups.facts_of_evidence.get(item, (item,)):
                best[fact_id] = min(best.get(fact_id, rank), rank)
    inside = [
        fact
        for fact_id in best
        if (fact := lookups.facts.get(fact_id)) is not None
        and fact.status is FactStatus.ACTIVE
        and _within(fact, ranges)
    ]
    inside.sort(key=lambda f: (best[f.fact_id], f.fact_id))
    return RouteResult("temporal", tuple(f.fact_id for f in inside[:depth]), ", ".join(ranges))


def _within(fact: Fact, ranges: Sequence[str]) -> bool:
    moment = (fact.valid_from or fact.last_verified_at).date().isoformat()
    for value in ranges:
        first, _, last = value.partition("/")
        if first <= moment <= (last or first):
            return True
    return False
