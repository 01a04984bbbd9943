"""Recall's search routes: each ranks facts (``fact_...``) or raw evidence turns (``ev_...``)
for one query; :mod:`.recall` fuses them.

A query that names someone is searched in two forms: as asked, and for what it asks of
the names (the names taken out, :func:`unnamed_query`). The names themselves are searched
by the routes that know who a fact is about and who said a turn (the entity and spoken
routes), so the word routes leave out the names of the speakers: a speaker's name heads
every turn they said and is the subject of most of their facts, it tells their own
records apart from the other speaker's but not one of them from another.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass

from provmem.core.language.signals import query_anchor_terms
from provmem.core.ports import (
    DenseSearch,
    EvidenceStore,
    FactViews,
    QueryEmbedder,
    VectorHit,
    VectorIndex,
)
from provmem.core.retrieval.fusion import RouteResult, TimeAsked, agreed_raw_hits, neighbour_route
from provmem.core.retrieval.sufficiency import QueryIntent, introduced_name, unnamed_query
from provmem.infra.models.sparse import anchor_vector
from provmem.streams.indexing import KeywordEncoder

ROUTE_DEPTH = 30
ALIAS_FACTS = 20  # the facts read of a name no one spoke as, for the speaker it introduces
EXCHANGE = 1  # the neighbour route reads one turn each side: the exchange around a hit
# "what does she do for a living" asks for a job, not a home
_RESIDENCE = (
    r"\b(?:live|lives|(?<!for a )living|home|moved|move|reside|based|located|settled|city|town)\b"
)
SLOT_WORDS = {
    "lives_in": _RESIDENCE,
    "moved_to": _RESIDENCE,  # a move says where one lives (core/extraction/relations.py)
    "works_at": r"\b(?:work|works|working|employer|job|company|for a living)\b",
    "job": r"\b(?:job|profession|occupation|career|role|position|do for (?:work|a living)"
    r"|for a living|work(?:s|ing)? as)\b",
    "allergic_to": r"\ballerg",
    "has_pet": r"\b(?:pet|pets|dog|dogs|cat|cats)\b",
    "pet_name": r"\b(?:pet|dog|cat)(?:'s)? name\b",
    "likes": r"\b(?:like|likes|love|loves|enjoy|enjoys|favou?rite)\b",
    "plays_instrument": r"\b(?:play|plays|instrument)\b",
    "relationship_status": r"\b(?:married|single|relationship|partner|dating)\b",
}


@dataclass(frozen=True)
class Asked:
    """A query's two forms and their vectors (``unnamed`` is empty when it names no one or
    nothing but question words is left; ``asked`` is then the query's own vector)."""

    query: str
    intent: QueryIntent
    unnamed: str
    vector: Sequence[float]
    asked: Sequence[float]


class Routes:
    """The search routes over one deployment's index, views and evidence."""

    def __init__(
        self,
        views: FactViews,
        evidence: EvidenceStore,
        vectors: VectorIndex,
        embedder: QueryEmbedder,
        keywords: KeywordEncoder,
    ) -> None:
        self._views = views
        self._evidence = evidence
        self._vectors = vectors
        self._embedder = embedder
        self._keywords = keywords

    def unnamed(self, query: str, intent: QueryIntent) -> str:
        """What the query asks of the names it mentions; empty when that is only question
        words (or it names no one)."""
        unnamed = unnamed_query(query, intent.entities)
        return unnamed if unnamed and self._keywords.embed_query(unnamed).indices else ""

    def embed(self, query: str, intent: QueryIntent) -> asyncio.Future[Asked]:
        """Both forms embedded in one model call, started now in a worker thread
        (onnxruntime releases the GIL) so the caller's other work runs meanwhile."""
        unnamed = self.unnamed(query, intent)
        texts = [query, unnamed] if unnamed else [query]

        def embedded() -> Asked:
            vectors = self._embedder.embed_queries(texts)
            return Asked(query, intent, unnamed, vectors[0], vectors[-1])

        return asyncio.get_running_loop().run_in_executor(None, embedded)

    async def searched(self, scope_key: str, asked: Asked) -> Searched:
        """The dense, spoken and entity routes and the query's nearest items, their
        searches made as one batch of the index (:meth:`VectorIndex.search_many`), each
        distinct search once (the dense routes' searches with the query's own vector are
        the nearest items' too)."""
        plans = [_dense_searches(asked), _spoken_searches(asked), _entity_searches(asked)]
        plans.append(
            [DenseSearch(asked.vector, ROUTE_DEPTH, kind) for kind in ("fact", "evidence")]
        )
        wanted: list[DenseSearch] = []
        for search in (s for plan in plans for s in plan):
            wanted += [] if search in wanted else [search]
        hits = await self._vectors.search_many(scope_key, wanted)
        parts = [[hits[wanted.index(search)] for search in plan] for plan in plans]
        spoken, speakers = _spoken(asked, parts[1])
        nearest = dict(zip(("fact", "evidence"), parts[3], strict=True))
        nearest["asked"] = [*parts[0][0], *parts[0][-1]]  # nearest what is asked of the names
        return Searched(
            _dense(asked, parts[0]), spoken, speakers, _entity(asked, parts[2]), nearest
        )

    async def dense(self, scope_key: str, asked: Asked) -> list[RouteResult]:
        """Dense search over facts and raw turns. A query naming someone searches the facts
        for what it asks (their facts as asked are the entity route's), and the turns both
        as asked and for what it asks."""
        return _dense(asked, await self._vectors.search_many(scope_key, _dense_searches(asked)))

    async def spoken(self, scope_key: str, asked: Asked) -> tuple[RouteResult | None, list[str]]:
        """The raw turns the names asked about said themselves, closest to what is asked
        first (a question about someone is most often answered in their own words), and
        the names that spoke in the scope."""
        return _spoken(asked, await self._vectors.search_many(scope_key, _spoken_searches(asked)))

    async def aliases(self, scope_key: str, names: Sequence[str]) -> dict[str, str]:
        """The speakers known by an id that the names are the introduced names of ("Hi! I'm
        Tomas." said by ``u_1042``: Tomas -> u_1042), from their identity facts."""
        found: dict[str, str] = {}
        for name in names:
            ids = await self._views.facts_for_entity(scope_key, name, ALIAS_FACTS)
            for fact in (await self._views.get_many(ids)).values():
                introduced = introduced_name(fact)
                if introduced and name in (introduced, introduced.split()[0]):
                    turn = await self._evidence.get(fact.evidence_ids[0])
                    found.update({name: turn.speaker} if turn is not None else {})
        return found

    async def entity(self, scope_key: str, asked: Asked) -> RouteResult | None:
        """Dense search restricted to the facts in the entity scope of the names asked."""
        return _entity(asked, await self._vectors.search_many(scope_key, _entity_searches(asked)))

    async def keyword(self, scope_key: str, words: str) -> list[RouteResult]:
        """BM25 over facts, then over raw evidence turns (stopwords dropped by the encoder)."""
        sparse = self._keywords.embed_query(words)
        found = []
        for kind, name in (("fact", "bm25_facts"), ("evidence", "bm25_evidence")):
            hits = await self._vectors.search_sparse(scope_key, sparse, ROUTE_DEPTH, kind=kind)
            found.append(RouteResult(name, tuple(h.fact_id for h in hits)))
        return found

    def words(self, query: str, speakers: Sequence[str]) -> str:
        """The query for the word routes: without the names of those who spoke (left as it
        is when nothing else would be left)."""
        words = unnamed_query(query, speakers)
        return words if words and self._keywords.embed_query(words).indices else query

    async def anchor(self, scope_key: str, query: str) -> RouteResult | None:
        """The turns holding the query's hard anchors (an identifier, a path, a version, a
        command, a measure, an error) as exact terms, rarer anchors first (the index's IDF):
        a word-stem route splits ``flask@2.3.1`` or ``src/app.py`` into common words."""
        anchors = query_anchor_terms(query)
        if not anchors:
            return None
        wanted = anchor_vector(anchors)
        hits = await self._vectors.search_sparse(scope_key, wanted, ROUTE_DEPTH, "evidence")
        return RouteResult("anchor", tuple(h.fact_id for h in hits), ", ".join(anchors))

    async def neighbours(self, routes: Sequence[RouteResult], depth: int) -> RouteResult | None:
        """The spoken turns around the raw tier's best ``depth`` hits both raw routes found
        (:func:`neighbour_route`): the exchange of a confident hit, never of a guess."""
        anchors = agreed_raw_hits(routes, depth)
        around = {
            anchor: [
                turn.evidence_id
                for turn in await self._evidence.neighbours(anchor, EXCHANGE)
                if turn.action == "say" or turn.evidence_id == anchor
            ]
            for anchor in anchors
        }
        return neighbour_route(anchors, around, ROUTE_DEPTH)

    async def slot_ids(self, scope_key: str, asked: str, intent: QueryIntent) -> SlotFacts:
        """The facts in the slots the query asks about (``subject|attribute``)."""
        attributes = asked_slots(asked)
        ids: set[str] = set()
        for subject in (name.lower() for name in intent.entities):
            for attribute in attributes:
                ids.update(await self._views.facts_for_slot(scope_key, f"{subject}|{attribute}"))
        if intent.asked is TimeAsked.HISTORY and ids:  # what held before: the old versions
            current = await self._views.get_many(sorted(ids))
            ids.update(f.supersedes for f in current.values() if f.supersedes)
        return SlotFacts(ids, tuple(attributes))


@dataclass(frozen=True)
class Searched:
    """The routes of :meth:`Routes.searched`, the names that spoke in the scope, and the
    facts and raw turns nearest the query's own vector by kind (the relevance floor's), and
    the facts and raw turns nearest what it asks of the names it mentions (``asked``)."""

    dense: list[RouteResult]
    spoken: RouteResult | None
    speakers: list[str]
    entity: RouteResult | None
    nearest: dict[str, list[VectorHit]]


_DENSE_ROUTES = ("dense_facts", "dense_evidence")
_UNNAMED_ROUTES = ("dense_unnamed", "dense_evidence", "unnamed_evidence")


def _dense_searches(asked: Asked) -> list[DenseSearch]:
    if not asked.unnamed:
        return [DenseSearch(asked.vector, ROUTE_DEPTH, kind) for kind in ("fact", "evidence")]
    return [
        DenseSearch(asked.asked, ROUTE_DEPTH, "fact"),
        DenseSearch(asked.vector, ROUTE_DEPTH, "evidence"),
        DenseSearch(asked.asked, ROUTE_DEPTH, "evidence"),
    ]


def _dense(asked: Asked, hits: Sequence[Sequence[VectorHit]]) -> list[RouteResult]:
    names = _UNNAMED_ROUTES if asked.unnamed else _DENSE_ROUTES
    notes = (asked.unnamed, "", "")  # the unnamed fact route says what it searched for
    return [
        RouteResult(name, tuple(h.fact_id for h in found), note)
        for name, found, note in zip(names, hits, notes, strict=False)
    ]


def _spoken_searches(asked: Asked) -> list[DenseSearch]:
    return [
        DenseSearch(asked.asked, ROUTE_DEPTH, "evidence", name) for name in asked.intent.entities
    ]


def _spoken(
    asked: Asked, hits: Sequence[Sequence[VectorHit]]
) -> tuple[RouteResult | None, list[str]]:
    ranked = [(-h.score, h.fact_id) for found in hits for h in found]
    speakers = [name for name, found in zip(asked.intent.entities, hits, strict=True) if found]
    if not ranked:
        return None, speakers
    return RouteResult("spoken", _best(ranked), ", ".join(speakers)), speakers


def _entity_searches(asked: Asked) -> list[DenseSearch]:
    return [DenseSearch(asked.vector, ROUTE_DEPTH, "fact", name) for name in asked.intent.entities]


def _entity(asked: Asked, hits: Sequence[Sequence[VectorHit]]) -> RouteResult | None:
    if not asked.intent.entities:
        return None
    ranked = [(-h.score, h.fact_id) for found in hits for h in found]
    return RouteResult("entity", _best(ranked), ", ".join(asked.intent.entities))


def asked_slots(query: str) -> list[str]:
    """The slot attributes a query's words ask about (``SLOT_WORDS``)."""
    return [a for a, pattern in SLOT_WORDS.items() if re.search(pattern, query, re.I)]


@dataclass(frozen=True)
class SlotFacts:
    ids: set[str]
    attributes: tuple[str, ...]

    def route(self, order: Sequence[str]) -> RouteResult | None:
        """The slot facts in the order a dense fact route ranked them (the others after)."""
        if not self.ids:
            return None
        rank = {item: i for i, item in enumerate(order)}
        ordered = sorted(self.ids, key=lambda i: (rank.get(i, len(rank)), i))[:ROUTE_DEPTH]
        return RouteResult("slot", tuple(ordered), ", ".join(self.attributes))


def _best(ranked: list[tuple[float, str]]) -> tuple[str, ...]:
    """Items of several searches by their best score, each once."""
    return tuple(dict.fromkeys(item for _, item in sorted(ranked)))[:ROUTE_DEPTH]
