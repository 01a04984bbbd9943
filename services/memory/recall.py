"""Multi-route recall with provenance: routes, fusion, projection, budget, router.

Retrieval is separate from answer generation: the result holds facts, evidence, roles
and route diagnostics, never instructions or an answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from provmem.core.events import Fact, FactStatus
from provmem.core.ports import (
    EvidenceSealing,
    EvidenceStore,
    FactViews,
    QueryEmbedder,
    VectorHit,
    VectorIndex,
)
from provmem.core.retrieval.agreement import answer_first, asked_holder, asked_kind
from provmem.core.retrieval.fusion import (
    FusedBundle,
    Lookups,
    RouteResult,
    count_tokens,
    fuse,
    guaranteed_raw_hits,
    keep_raw_tier,
    pair_conflicts,
    project,
    spread,
    spread_gains,
    supporting_text,
    temporal_route,
)
from provmem.core.retrieval.relevance import (
    Similarity,
    checked_threshold,
    first_person,
    raw_roles,
    similarity_of,
    user_name,
)
from provmem.core.retrieval.sufficiency import Path, QueryIntent, Routing, analyze, route
from provmem.services.memory.results import BundleView, EvidenceItem, Recollection, RouteDiagnostic
from provmem.services.memory.search_routes import ROUTE_DEPTH, Asked, Routes
from provmem.streams.indexing import KeywordEncoder

ESCALATE_TOP = 5
EXPAND_TOP = 2  # escalation reads the raw neighbourhood of the best bundles only
NEIGHBOURS = 1
HOPS = 1
HOP_FACTS = 5
RAW_TIER = 10  # the fused top 10 ...
RAW_KEPT = 3  # ... always holds the raw tier's best 3 that both raw routes found (3 in 10
# places: a shorter top keeps its share, rounded up; docs/benchmarks.md)
# Reciprocal rank fusion weighs every route alike: no route has shown itself more reliable
# in general (on LoCoMo dev the evidence and fact routes each reach R@10 0.6-0.7).
WEIGHTS = {
    "dense_facts": 1.0,
    "bm25_facts": 1.0,
    "dense_evidence": 1.0,
    "bm25_evidence": 1.0,
    "anchor": 1.0,
    "dense_unnamed": 1.0,
    "unnamed_evidence": 1.0,
    "spoken": 1.0,
    "entity": 1.0,
    "slot": 1.0,
    "temporal": 1.0,
    "neighbours": 0.5,  # proximity, not a match: half credit (as SUPERSEDED_CREDIT)
}
QUOTES = 1  # one direct quote grounds the statement; every evidence id is still listed


@dataclass
class RecallDeps:
    views: FactViews
    evidence: EvidenceStore
    vectors: VectorIndex
    embedder: QueryEmbedder
    keywords: KeywordEncoder
    sealer: EvidenceSealing


class Recall:
    """Answers 'what do we remember about this?' with bundles and their provenance."""

    def __init__(self, deps: RecallDeps) -> None:
        self._deps = deps
        self._routes = Routes(deps.views, deps.evidence, deps.vectors, deps.embedder, deps.keywords)

    async def recall(
        self,
        scope_key: str,
        query: str,
        *,
        limit: int = 10,
        budget: int | None = None,
        now: datetime | None = None,
        escalate: bool = True,
        threshold: float | None = None,
        raw_turns_of: str | Sequence[str] | None = None,
    ) -> Recollection:
        """The bundles for ``query`` at or above the ``threshold`` similarity (a query in
        the first person asks about the scope's user); raw turns only of the roles in
        ``raw_turns_of`` (default the user's), those of other roles after the rest."""
        fit = _Fit(checked_threshold(threshold), raw_roles(raw_turns_of))
        user = user_name(scope_key)
        resolved = first_person(query, user)
        intent = analyze(resolved, now or datetime.now(UTC))
        routes, asked, found = await self._search(scope_key, resolved, intent)
        vector = asked.vector
        fit.similarity = _similarity(found.nearest)
        wanted = max(limit if budget is None else limit * 3, ESCALATE_TOP)
        ranked, bundles = await self._rank(scope_key, intent, routes, found, wanted)
        bundles = fit.relevant(bundles)
        routing = route(intent, [b.fact for b in bundles[:ESCALATE_TOP] if b.fact])
        expand = escalate and routing.path is Path.ESCALATE
        if expand:
            if not found.complete:  # the hop sees every bundle: rank with every fact read
                ranked, bundles = await self._rank(scope_key, intent, routes, found, None)
            bundles = fit.relevant(await self._hop(scope_key, bundles, vector))
        bundles = pair_conflicts(bundles, found.facts)  # conflicting facts together
        holder, kind = asked_holder(resolved, intent.entities), asked_kind(resolved)
        close = _attribute(found.nearest)
        present = intent.present_at is not None
        bundles = answer_first(bundles, holder, kind, close, present=present)  # any limit
        depth = min(limit, RAW_TIER)
        raw_best = guaranteed_raw_hits(ranked, depth, RAW_KEPT / RAW_TIER)
        bundles = keep_raw_tier(bundles, raw_best, depth)  # never pushed out by fusion
        kept = await self._fitting(bundles[: limit * 3], limit, budget, expand, fit)
        return Recollection(
            scope=scope_key,
            query=query,
            bundles=tuple(kept),
            path=routing.path.value,
            path_reasons=routing.reasons,
            routes=tuple(_diagnostic(r) for r in ranked),
            tokens=sum(v.tokens for v in kept),
        )

    async def _fitting(
        self,
        bundles: Sequence[FusedBundle],
        limit: int,
        budget: int | None,
        expand: bool,
        fit: _Fit,
    ) -> list[BundleView]:
        """Render the best bundles, in rank order (raw turns of the assistant, system and
        tools after the rest, and only of the roles asked for), until ``limit`` fit in
        ``budget`` tokens. A raw turn whose evidence the store does not hold is no result:
        another process indexed it from the log before the folder's owner stored it, or
        before an erasure reached that process's index (issue 30)."""
        views = [
            await self._view(bundle, expand and i < EXPAND_TOP, fit.similarity)
            for i, bundle in enumerate(bundles)
        ]
        views = [view for view in views if view.fact is not None or view.evidence]
        kept: list[BundleView] = []
        used = 0
        for view in fit.ordered(views):
            if len(kept) >= limit:
                break
            if budget is None or used + view.tokens <= budget:
                kept.append(view)
                used += view.tokens
        return kept

    async def _search(
        self, scope_key: str, query: str, intent: QueryIntent
    ) -> tuple[list[RouteResult], Asked, _Found]:
        """Every search route's ranking, the query vector, and the facts projection cannot
        do without: those of the evidence found and of the slots (with their supersession
        chains). Facts found only by the fact routes are left to :meth:`_rank`.

        The query is embedded in a worker thread while the work that needs no vector runs:
        the slot lookup, the anchor route and the reads those need.
        """
        routes = self._routes
        embedding = routes.embed(query, intent)
        slots = await routes.slot_ids(scope_key, query, intent)
        anchor = await routes.anchor(scope_key, query)
        found = _Found()
        await self._load(
            [*await self._linked(_items([anchor] if anchor else []), found), *slots.ids],
            scope_key,
            found,
        )
        asked = await embedding
        searched = await routes.searched(scope_key, asked)
        speakers = searched.speakers
        unspoken = [name for name in intent.entities if name not in speakers]
        if aliases := await routes.aliases(scope_key, unspoken):
            named = tuple(aliases.get(name, name) for name in intent.entities)
            asked = replace(asked, intent=replace(asked.intent, entities=named))
            searched = await routes.searched(scope_key, asked)  # the names' routes again
            speakers = searched.speakers + list(aliases)  # left out of the word routes too
        keyword = await routes.keyword(scope_key, routes.words(query, speakers))
        found.nearest = searched.nearest
        entity = searched.entity
        slot = slots.route((entity or searched.dense[0]).items)
        found_by = (*searched.dense, *keyword, anchor, searched.spoken, entity, slot)
        ranked = [r for r in found_by if r is not None]
        near = await routes.neighbours(ranked, RAW_KEPT)
        ranked += [near] if near is not None else []
        await self._load(await self._linked(_items(ranked), found), scope_key, found)
        return ranked, asked, found

    async def _rank(
        self,
        scope_key: str,
        intent: QueryIntent,
        routes: list[RouteResult],
        found: _Found,
        wanted: int | None,
    ) -> tuple[list[RouteResult], list[FusedBundle]]:
        """The routes (with the temporal one) and the fused bundles, best first.

        With ``wanted``, the facts only the fact routes found are read in fused order, twice
        ``wanted`` of them; the others are left out when they cannot reach the first
        ``wanted`` places (each would score what fusion gave it, below those places: a
        fact route finds active facts only). Otherwise, or when they could, every fact is
        read. A query naming a time reads every fact (the temporal route filters them).
        """
        unread = [f for f in fuse(routes, WEIGHTS) if f.item not in found.requested]
        unread = [f for f in unread if not f.item.startswith("ev_")]
        if wanted is None or intent.time_ranges:
            await self._load([f.item for f in unread], scope_key, found)
            found.complete = True
            lookups = Lookups(found.facts, found.facts_of_evidence)
            temporal = temporal_route(intent.time_ranges, routes, lookups, ROUTE_DEPTH)
            routes = routes + ([temporal] if temporal else [])
            return routes, spread(project(routes, lookups, WEIGHTS, **_asking(intent)))
        await self._load([f.item for f in unread[: 2 * wanted]], scope_key, found)
        left = unread[2 * wanted :]
        lookups = Lookups(found.facts, found.facts_of_evidence)
        ignore = {f.item for f in left}
        placed = spread_gains(project(routes, lookups, WEIGHTS, ignore=ignore, **_asking(intent)))
        if left and sum(gain > left[0].score for gain, _ in placed) < wanted:
            return await self._rank(scope_key, intent, routes, found, None)
        return routes, [bundle for _, bundle in placed]

    async def _linked(self, items: Sequence[str], found: _Found) -> list[str]:
        """The facts the evidence among ``items`` supports (evidence mapped before is
        skipped)."""
        linked: list[str] = []
        for item in dict.fromkeys(items):
            if item.startswith("ev_") and item not in found.facts_of_evidence:
                found.facts_of_evidence[item] = await self._deps.views.facts_for_evidence(item)
                linked += found.facts_of_evidence[item]
        return linked

    async def _load(self, ids: Sequence[str], scope_key: str, found: _Found) -> None:
        """Load the facts not requested before with their successors and predecessors
        (projection follows the supersession chains), one batched read per step; facts
        of other scopes are left out."""
        pending = [i for i in dict.fromkeys(ids) if i not in found.requested]
        while pending:
            found.requested.update(pending)
            loaded = await self._deps.views.get_many(pending)
            step = {i: f for i, f in loaded.items() if f.scope.key == scope_key}
            found.facts.update(step)
            chained = (i for f in step.values() for i in _linked_ids(f))
            pending = [i for i in dict.fromkeys(chained) if i not in found.requested]

    async def _hop(
        self, scope_key: str, bundles: list[FusedBundle], vector: Sequence[float]
    ) -> list[FusedBundle]:
        """Bounded multi-hop: the facts closest to the query among those about the names
        the top facts mention (an entity-scoped dense search per name, until five are found)."""
        seen = {b.key for b in bundles}
        extra: list[FusedBundle] = []
        statements = [b.fact.statement for b in bundles[:ESCALATE_TOP] if b.fact]
        names = [name for statement in statements for name in _names(statement)]
        for name in dict.fromkeys(names):
            if len(extra) >= HOP_FACTS * HOPS:  # what a further name would add is cut below
                break
            hits = await self._deps.vectors.search(scope_key, vector, HOP_FACTS, entity=name)
            found = await self._deps.views.get_many([hit.fact_id for hit in hits])
            for hit in hits:
                fact = found.get(hit.fact_id)
                if fact and hit.fact_id not in seen and fact.status is FactStatus.ACTIVE:
                    seen.add(hit.fact_id)
                    extra.append(FusedBundle(hit.fact_id, 0.0, {"hop"}, fact))
        return bundles + extra[: HOP_FACTS * HOPS]

    async def _view(self, bundle: FusedBundle, expand: bool, similar: Similarity) -> BundleView:
        items = [await self._item(e, "direct", bundle.fact) for e in bundle.evidence_ids[:QUOTES]]
        if expand:
            items += await self._context(bundle)
        present = [i for i in items if i is not None]
        text = (bundle.fact.statement if bundle.fact else "") + " ".join(i.quote for i in present)
        return BundleView(
            fact=bundle.fact,
            score=bundle.score,
            routes=tuple(sorted(bundle.routes)),
            evidence=tuple(present),
            similarity=similar.of([bundle.key, *bundle.evidence_ids]),
            history=tuple(bundle.history),
            conflicts=tuple(bundle.conflicts),
            tokens=count_tokens(text),
        )

    async def _context(self, bundle: FusedBundle) -> list[EvidenceItem | None]:
        """Escalation: the raw turns around the bundle's evidence, as support."""
        direct = set(bundle.evidence_ids)
        items: list[EvidenceItem | None] = []
        for evidence_id in bundle.evidence_ids[:2]:
            for turn in await self._deps.evidence.neighbours(evidence_id, NEIGHBOURS):
                if turn.evidence_id not in direct:
                    direct.add(turn.evidence_id)
                    items.append(await self._item(turn.evidence_id, "support", None))
        return items

    async def _item(self, evidence_id: str, role: str, fact: Fact | None) -> EvidenceItem | None:
        turn = await self._deps.evidence.get(evidence_id)
        if turn is None:
            return None
        text = await self._deps.sealer.open(turn.text)
        quote = supporting_text(text, evidence_id, fact)
        return EvidenceItem(
            evidence_id=evidence_id,
            role=role,
            source_uri=turn.source_uri,
            source_turn_id=turn.turn_id,
            speaker=turn.speaker,
            captured_at=turn.captured_at,
            quote=quote,
            speaker_role=turn.role,
        )


@dataclass
class _Fit:
    """What makes a result fit for a prompt: the relevance floor and the raw turns' roles."""

    threshold: float
    roles: frozenset[str]
    similarity: Similarity = field(default_factory=lambda: Similarity({}))

    def relevant(self, bundles: Sequence[FusedBundle]) -> list[FusedBundle]:
        """The bundles at or above the floor. A turn the neighbour route brought (the reply
        to a turn found, which often shares no word with the query) stands with the best
        hit it was read around."""
        scores = [self.similarity.of([b.key, *b.evidence_ids]) for b in bundles]
        best = max(scores, default=0.0)
        return [
            b
            for b, score in zip(bundles, scores, strict=True)
            if score >= self.threshold or ("neighbours" in b.routes and best >= self.threshold)
        ]

    def ordered(self, views: Sequence[BundleView]) -> list[BundleView]:
        """Facts and the user's raw turns first, then the raw turns of other roles asked
        for; those of roles not asked for left out."""
        raw_role = {id(v): _raw_role(v) for v in views}
        shown = [v for v in views if raw_role[id(v)] in self.roles | {None}]
        return sorted(shown, key=lambda v: raw_role[id(v)] not in (None, "user"))


def _raw_role(view: BundleView) -> str | None:
    """The role of a raw turn's speaker (None for a fact)."""
    if view.fact is not None:
        return None
    return next((e.speaker_role for e in view.evidence if e.role == "direct"), "user")


@dataclass
class _Found:
    """What one recall has read from the views so far."""

    facts: dict[str, Fact] = field(default_factory=dict)
    facts_of_evidence: dict[str, list[str]] = field(default_factory=dict)
    requested: set[str] = field(default_factory=set)  # fact ids asked of the views
    complete: bool = False  # every fact the routes found is read
    # the facts and raw turns nearest the query's own vector, by kind (the similarity's)
    nearest: dict[str, list[VectorHit]] = field(default_factory=dict)


def _similarity(nearest: Mapping[str, Sequence[VectorHit]]) -> Similarity:
    """How close the facts and raw turns nearest the query are to it."""
    hits = [nearest[kind] for kind in ("fact", "evidence")]
    return similarity_of([[(h.fact_id, h.score) for h in found] for found in hits], ROUTE_DEPTH)


def _attribute(nearest: Mapping[str, Sequence[VectorHit]]) -> dict[str, float]:
    """How close the facts and raw turns nearest what the query asks of the names it
    mentions are to it (the query's own vector when it names no one)."""
    return {hit.fact_id: hit.score for hit in nearest.get("asked", ())}


def _asking(intent: QueryIntent) -> dict[str, Any]:
    """What projection weighs by: the present a question asks about, whether it asks
    what the assistant said, and what it asks of time (a question about before)."""
    return {
        "present_at": intent.present_at,
        "of_assistant": intent.of_assistant,
        "asked": intent.asked,
    }


def _linked_ids(fact: Fact) -> list[str]:
    """The facts projection follows from ``fact``: its supersession chain and conflicts."""
    return [i for i in (fact.superseded_by, fact.supersedes, *fact.conflicts_with) if i]


def _items(routes: Sequence[RouteResult]) -> list[str]:
    return [item for result in routes for item in result.items]


_PROPER = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}")


def _names(text: str) -> list[str]:
    return list(dict.fromkeys(m.group(0) for m in _PROPER.finditer(text)))[:3]


def _diagnostic(result: RouteResult) -> RouteDiagnostic:
    return RouteDiagnostic(route=result.route, hits=len(result.items), note=result.note)


__all__ = ["Recall", "RecallDeps", "Routing"]
