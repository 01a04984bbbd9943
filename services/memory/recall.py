"""Multi-route recall with provenance: routes, fusion, projection, budget, router.

Retrieval is separate from answer generation: the result holds facts, evidence, roles
and route diagnostics, never instructions or an answer.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ...core.events import Fact, FactStatus
from ...core.ports import EvidenceStore, FactViews, VectorIndex
from ...core.retrieval import (
    Bundle,
    Lookups,
    RouteResult,
    agreed_raw_hits,
    count_tokens,
    fuse,
    keep_raw_tier,
    neighbour_route,
    pair_conflicts,
    project,
    raw_tier,
    spread,
    supporting_text,
    temporal_route,
)
from ...core.signals import query_anchor_terms
from ...core.sufficiency import Path, QueryIntent, Routing, analyze, route, unnamed_query
from ...infra.crypto import EvidenceSealer
from ...infra.embedding import MiniLMEmbedder
from ...infra.sparse import anchor_vector
from ...streams.indexing import KeywordEncoder
from .results import BundleView, EvidenceItem, Recollection, RouteDiagnostic

ROUTE_DEPTH = 30
ESCALATE_TOP = 5
EXPAND_TOP = 2  # escalation reads the raw neighbourhood of the best bundles only
NEIGHBOURS = 1
EXCHANGE = 1  # the neighbour route reads one turn each side: the exchange around a hit
HOPS = 1
HOP_FACTS = 5
RAW_TIER = 10  # the fused top 10 ...
RAW_KEPT = 3  # ... always holds the raw-evidence routes' own 3 best hits (docs/benchmarks.md)
# Reciprocal rank fusion weighs every route alike: no route has shown itself more reliable
# in general (on LoCoMo dev the evidence and fact routes each reach R@10 0.6-0.7).
WEIGHTS = {
    "dense_facts": 1.0,
    "bm25_facts": 1.0,
    "dense_evidence": 1.0,
    "bm25_evidence": 1.0,
    "anchor": 1.0,
    "dense_unnamed": 1.0,
    "entity": 1.0,
    "slot": 1.0,
    "temporal": 1.0,
    "neighbours": 0.5,  # proximity, not a match: half credit (as SUPERSEDED_CREDIT)
}
QUOTES = 1  # one direct quote grounds the statement; every evidence id is still listed
SLOT_WORDS = {
    "lives_in": r"\b(?:live|lives|living|home|moved|move|reside)\b",
    "works_at": r"\b(?:work|works|working|employer|job)\b",
    "job": r"\b(?:job|profession|occupation|career)\b",
    "allergic_to": r"\ballerg",
    "has_pet": r"\b(?:pet|pets|dog|dogs|cat|cats)\b",
    "pet_name": r"\b(?:pet|dog|cat)(?:'s)? name\b",
    "likes": r"\b(?:like|likes|love|loves|enjoy|enjoys|favou?rite)\b",
    "plays_instrument": r"\b(?:play|plays|instrument)\b",
    "relationship_status": r"\b(?:married|single|relationship|partner|dating)\b",
}


@dataclass
class RecallDeps:
    views: FactViews
    evidence: EvidenceStore
    vectors: VectorIndex
    embedder: MiniLMEmbedder
    keywords: KeywordEncoder
    sealer: EvidenceSealer


class Recall:
    """Answers 'what do we remember about this?' with bundles and their provenance."""

    def __init__(self, deps: RecallDeps) -> None:
        self._deps = deps

    async def recall(
        self,
        scope_key: str,
        query: str,
        *,
        limit: int = 10,
        budget: int | None = None,
        now: datetime | None = None,
        escalate: bool = True,
    ) -> Recollection:
        intent = analyze(query, now or datetime.now(UTC))
        routes, vector, found = await self._search(scope_key, query, intent)
        wanted = max(limit if budget is None else limit * 3, ESCALATE_TOP)
        ranked, bundles = await self._rank(scope_key, intent, routes, found, wanted)
        routing = route(intent, [b.fact for b in bundles[:ESCALATE_TOP] if b.fact])
        expand = escalate and routing.path is Path.ESCALATE
        if expand:
            if not found.complete:  # the hop sees every bundle: rank with every fact read
                ranked, bundles = await self._rank(scope_key, intent, routes, found, None)
            bundles = await self._hop(scope_key, bundles, vector)
        bundles = pair_conflicts(bundles, found.facts)  # conflicting facts together
        raw_best = raw_tier(ranked, min(limit, RAW_KEPT))  # never pushed out by fusion
        bundles = keep_raw_tier(bundles, raw_best, min(limit, RAW_TIER))
        kept = await self._fitting(bundles[: limit * 3], limit, budget, expand)
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
        self, bundles: Sequence[Bundle], limit: int, budget: int | None, expand: bool
    ) -> list[BundleView]:
        """Render the best bundles, in rank order, until ``limit`` fit in ``budget`` tokens."""
        kept: list[BundleView] = []
        used = 0
        for i, bundle in enumerate(bundles):
            if len(kept) >= limit:
                break
            view = await self._view(bundle, expand and i < EXPAND_TOP)
            if budget is None or used + view.tokens <= budget:
                kept.append(view)
                used += view.tokens
        return kept

    async def _search(
        self, scope_key: str, query: str, intent: QueryIntent
    ) -> tuple[list[RouteResult], Sequence[float], _Found]:
        """Every search route's ranking, the query vector, and the facts projection cannot
        do without: those of the evidence found and of the slots (with their supersession
        chains). Facts found only by the fact routes are left to :meth:`_rank`.

        The query is embedded in a worker thread (onnxruntime releases the GIL) while the
        work that needs no vector runs: the keyword routes, the slot lookup and the reads
        those need.
        """
        loop = asyncio.get_running_loop()
        embedding = loop.run_in_executor(None, self._deps.embedder.embed_query, query)
        unnamed = unnamed_query(query, intent.entities)
        if unnamed and not self._deps.keywords.embed_query(unnamed).indices:
            unnamed = ""  # nothing but question words is left
        unnamed_embedding = (
            loop.run_in_executor(None, self._deps.embedder.embed_query, unnamed)
            if unnamed
            else None
        )
        keyword = await self._keyword_routes(scope_key, query)
        slots = await self._slot_ids(scope_key, query, intent)
        found = _Found()
        await self._load([*await self._linked(_items(keyword), found), *slots[0]], scope_key, found)
        vector = await embedding
        dense = await self._dense_routes(scope_key, vector)
        if unnamed_embedding is not None:
            dense.append(await self._unnamed_route(scope_key, await unnamed_embedding, unnamed))
        entity = await self._entity_route(scope_key, intent, vector)
        slot = _slot_route(*slots, dense[0].items)
        routes = [*dense, *keyword, *(r for r in (entity, slot) if r is not None)]
        near = await self._neighbour_route(routes)
        routes += [near] if near is not None else []
        await self._load(await self._linked(_items(routes), found), scope_key, found)
        return routes, vector, found

    async def _neighbour_route(self, routes: Sequence[RouteResult]) -> RouteResult | None:
        """The spoken turns around the raw tier's best hits both raw routes found
        (:func:`neighbour_route`): the exchange of a confident hit, never of a guess."""
        anchors = agreed_raw_hits(routes, RAW_KEPT)
        around = {
            anchor: [
                turn.evidence_id
                for turn in await self._deps.evidence.neighbours(anchor, EXCHANGE)
                if turn.action == "say" or turn.evidence_id == anchor
            ]
            for anchor in anchors
        }
        return neighbour_route(anchors, around, ROUTE_DEPTH)

    async def _rank(
        self,
        scope_key: str,
        intent: QueryIntent,
        routes: list[RouteResult],
        found: _Found,
        wanted: int | None,
    ) -> tuple[list[RouteResult], list[Bundle]]:
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
            return routes, spread(project(routes, lookups, WEIGHTS))
        await self._load([f.item for f in unread[: 2 * wanted]], scope_key, found)
        left = unread[2 * wanted :]
        lookups = Lookups(found.facts, found.facts_of_evidence)
        ranked = project(routes, lookups, WEIGHTS, ignore={f.item for f in left})
        if left and _fresh_above(ranked, left[0].score) < wanted:
            return await self._rank(scope_key, intent, routes, found, None)
        return routes, spread(ranked)

    async def _dense_routes(self, scope_key: str, vector: Sequence[float]) -> list[RouteResult]:
        """Dense search over facts, then over raw evidence turns."""
        found = []
        for kind, name in (("fact", "dense_facts"), ("evidence", "dense_evidence")):
            hits = await self._deps.vectors.search(scope_key, vector, ROUTE_DEPTH, kind=kind)
            found.append(RouteResult(name, tuple(h.fact_id for h in hits)))
        return found

    async def _unnamed_route(
        self, scope_key: str, vector: Sequence[float], unnamed: str
    ) -> RouteResult:
        """Dense search over facts for the query without the names it asks about: a fact
        of a scope often leaves its topic implicit ("the suite is at 136 tests now" in a
        chat about TrailMap), so what is asked of the name is searched on its own, beside
        the facts that only share the name."""
        hits = await self._deps.vectors.search(scope_key, vector, ROUTE_DEPTH, kind="fact")
        return RouteResult("dense_unnamed", tuple(h.fact_id for h in hits), unnamed)

    async def _keyword_routes(self, scope_key: str, query: str) -> list[RouteResult]:
        """BM25 over facts, then over raw evidence turns (stopwords dropped by the encoder),
        then the anchor route when the query names hard anchors."""
        sparse = self._deps.keywords.embed_query(query)
        found = []
        for kind, name in (("fact", "bm25_facts"), ("evidence", "bm25_evidence")):
            hits = await self._deps.vectors.search_sparse(scope_key, sparse, ROUTE_DEPTH, kind=kind)
            found.append(RouteResult(name, tuple(h.fact_id for h in hits)))
        anchors = query_anchor_terms(query)
        if anchors:
            found.append(await self._anchor_route(scope_key, anchors))
        return found

    async def _anchor_route(self, scope_key: str, anchors: Sequence[str]) -> RouteResult:
        """The turns holding the query's hard anchors (an identifier, a path, a version, a
        command, a measure, an error) as exact terms, rarer anchors first (the index's IDF):
        a word-stem route splits ``flask@2.3.1`` or ``src/app.py`` into common words."""
        wanted = anchor_vector(anchors)
        hits = await self._deps.vectors.search_sparse(scope_key, wanted, ROUTE_DEPTH, "evidence")
        return RouteResult("anchor", tuple(h.fact_id for h in hits), ", ".join(anchors))

    async def _entity_route(
        self, scope_key: str, intent: QueryIntent, vector: Sequence[float]
    ) -> RouteResult | None:
        """Dense search restricted to the facts in the entity scope of the names asked."""
        if not intent.entities:
            return None
        ranked: list[tuple[float, str]] = []
        for name in intent.entities:
            hits = await self._deps.vectors.search(scope_key, vector, ROUTE_DEPTH, entity=name)
            ranked += [(-h.score, h.fact_id) for h in hits]
        ordered = list(dict.fromkeys(fact_id for _, fact_id in sorted(ranked)))[:ROUTE_DEPTH]
        return RouteResult("entity", tuple(ordered), ", ".join(intent.entities))

    async def _slot_ids(
        self, scope_key: str, query: str, intent: QueryIntent
    ) -> tuple[set[str], list[str]]:
        """The facts in the slots the query asks about (``subject|attribute``), and the
        attributes asked."""
        attributes = [a for a, pattern in SLOT_WORDS.items() if re.search(pattern, query, re.I)]
        subjects = [name.lower() for name in intent.entities]
        ids: set[str] = set()
        for subject in subjects:
            for attribute in attributes:
                ids.update(
                    await self._deps.views.facts_for_slot(scope_key, f"{subject}|{attribute}")
                )
        return ids, attributes

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
        self, scope_key: str, bundles: list[Bundle], vector: Sequence[float]
    ) -> list[Bundle]:
        """Bounded multi-hop: the facts closest to the query among those about the names
        the top facts mention (an entity-scoped dense search per name)."""
        seen = {b.key for b in bundles}
        extra: list[Bundle] = []
        statements = [b.fact.statement for b in bundles[:ESCALATE_TOP] if b.fact]
        names = [name for statement in statements for name in _names(statement)]
        for name in dict.fromkeys(names):
            hits = await self._deps.vectors.search(scope_key, vector, HOP_FACTS, entity=name)
            found = await self._deps.views.get_many([hit.fact_id for hit in hits])
            for hit in hits:
                fact = found.get(hit.fact_id)
                if fact and hit.fact_id not in seen and fact.status is FactStatus.ACTIVE:
                    seen.add(hit.fact_id)
                    extra.append(Bundle(hit.fact_id, 0.0, {"hop"}, fact))
        return bundles + extra[: HOP_FACTS * HOPS]

    async def _view(self, bundle: Bundle, expand: bool) -> BundleView:
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
            history=tuple(bundle.history),
            conflicts=tuple(bundle.conflicts),
            tokens=count_tokens(text),
        )

    async def _context(self, bundle: Bundle) -> list[EvidenceItem | None]:
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
        )


@dataclass
class _Found:
    """What one recall has read from the views so far."""

    facts: dict[str, Fact] = field(default_factory=dict)
    facts_of_evidence: dict[str, list[str]] = field(default_factory=dict)
    requested: set[str] = field(default_factory=set)  # fact ids asked of the views
    complete: bool = False  # every fact the routes found is read


def _linked_ids(fact: Fact) -> list[str]:
    """The facts projection follows from ``fact``: its supersession chain and conflicts."""
    return [i for i in (fact.superseded_by, fact.supersedes, *fact.conflicts_with) if i]


def _items(routes: Sequence[RouteResult]) -> list[str]:
    return [item for result in routes for item in result.items]


def _fresh_above(ranked: Sequence[Bundle], bound: float) -> int:
    """How many bundles score above ``bound`` and keep their place in :func:`spread`
    (they cite evidence no better bundle cites)."""
    cited: set[str] = set()
    fresh = 0
    for bundle in ranked:
        if bundle.score <= bound:
            break
        evidence = set(bundle.evidence_ids)
        fresh += not (evidence and evidence <= cited)
        cited |= evidence
    return fresh


def _slot_route(
    ids: set[str], attributes: Sequence[str], dense_order: Sequence[str]
) -> RouteResult | None:
    """The slot facts in the order the dense route ranked them (the others after)."""
    if not ids:
        return None
    rank = {item: i for i, item in enumerate(dense_order)}
    ordered = sorted(ids, key=lambda i: (rank.get(i, len(rank)), i))[:ROUTE_DEPTH]
    return RouteResult("slot", tuple(ordered), ", ".join(attributes))


_PROPER = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}")


def _names(text: str) -> list[str]:
    return list(dict.fromkeys(m.group(0) for m in _PROPER.finditer(text)))[:3]


def _diagnostic(result: RouteResult) -> RouteDiagnostic:
    return RouteDiagnostic(route=result.route, hits=len(result.items), note=result.note)


__all__ = ["Recall", "RecallDeps", "Routing"]
