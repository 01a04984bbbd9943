"""Recall's search routes over a small in-memory index: which forms of a query each route
searches, and over what (services/memory/search_routes.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from provmem.core.ports import DenseSearch, SparseVector, VectorHit
from provmem.core.retrieval.sufficiency import analyze
from provmem.infra.models.sparse import BM25Encoder
from provmem.services.memory.search_routes import Routes, asked_slots

NOW = datetime(2026, 5, 8, tzinfo=UTC)
SCOPE = "t/alice"


@dataclass
class Point:
    item: str
    kind: str
    entity: str  # a fact's subject, a turn's speaker (lower case, as indexed)


@dataclass
class Index:
    """Points in a fixed order; every search records what it was given."""

    points: list[Point]
    searched: list[tuple[str, str | None, tuple[float, ...]]] = field(default_factory=list)
    terms: list[tuple[int, ...]] = field(default_factory=list)
    batches: int = 0  # calls of search_many

    async def search(
        self,
        scope_key: str,
        vector: Sequence[float],
        limit: int,
        kind: str = "fact",
        entity: str | None = None,
    ) -> list[VectorHit]:
        self.searched.append((kind, entity, tuple(vector)))
        wanted = entity.lower() if entity else None
        found = [p for p in self.points if p.kind == kind and wanted in (None, p.entity)]
        return [VectorHit(p.item, 1.0 / (i + 1)) for i, p in enumerate(found[:limit])]

    async def search_many(
        self, scope_key: str, searches: Sequence[DenseSearch]
    ) -> list[list[VectorHit]]:
        self.batches += 1
        return [await self.search(scope_key, s.vector, s.limit, s.kind, s.entity) for s in searches]

    async def search_sparse(
        self, scope_key: str, sparse: SparseVector, limit: int, kind: str = "fact"
    ) -> list[VectorHit]:
        self.terms.append(sparse.indices)
        return []


@dataclass
class Embedder:
    """A text's vector is its length; every model call is recorded."""

    calls: list[list[str]] = field(default_factory=list)

    def embed_query(self, text: str) -> list[float]:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[float(len(text))] for text in texts]


POINTS = [
    Point("fact_1", "fact", "alice"),
    Point("ev_bob", "evidence", "bob"),
    Point("ev_alice", "evidence", "alice"),
]


def _routes(index: Index, embedder: Embedder | None = None) -> Routes:
    unused = cast(Any, None)
    return Routes(unused, unused, cast(Any, index), embedder or Embedder(), BM25Encoder())


async def test_both_forms_of_a_named_query_are_embedded_in_one_model_call() -> None:
    embedder = Embedder()
    query = "What did Alice paint?"
    asked = await _routes(Index(POINTS), embedder).embed(query, analyze(query, NOW))
    assert embedder.calls == [[query, "What did paint?"]]
    assert asked.vector == [float(len(query))] and asked.asked == [float(len("What did paint?"))]
    plain = await _routes(Index(POINTS), embedder).embed("What was painted?", analyze("x", NOW))
    assert embedder.calls[-1] == ["What was painted?"] and plain.unnamed == ""


async def test_the_spoken_route_searches_the_named_speakers_turns_for_what_is_asked() -> None:
    index = Index(POINTS)
    routes = _routes(index)
    query = "What did Alice and Carol paint?"
    asked = await routes.embed(query, analyze(query, NOW))
    spoken, speakers = await routes.spoken(SCOPE, asked)
    assert spoken is not None and spoken.items == ("ev_alice",)
    assert speakers == ["Alice"]  # Carol said nothing here
    assert {(kind, entity) for kind, entity, _ in index.searched} == {
        ("evidence", "Alice"),
        ("evidence", "Carol"),
    }
    assert all(vector == tuple(asked.asked) for *_, vector in index.searched)


async def test_a_named_query_searches_facts_for_what_is_asked_and_turns_in_both_forms() -> None:
    index = Index(POINTS)
    routes = _routes(index)
    named = await routes.embed("What did Alice paint?", analyze("What did Alice paint?", NOW))
    found = await routes.dense(SCOPE, named)
    assert [r.route for r in found] == ["dense_unnamed", "dense_evidence", "unnamed_evidence"]
    entity = await routes.entity(SCOPE, named)
    assert entity is not None and entity.items == ("fact_1",)  # her facts, as asked
    assert index.searched[-1] == ("fact", "Alice", tuple(named.vector))
    plain = await routes.embed("What was painted?", analyze("What was painted?", NOW))
    assert [r.route for r in await routes.dense(SCOPE, plain)] == ["dense_facts", "dense_evidence"]
    assert await routes.entity(SCOPE, plain) is None


async def test_the_vector_routes_search_in_one_batch_and_find_what_each_route_finds() -> None:
    index = Index(POINTS)
    routes = _routes(index)
    for query in ("What did Alice and Bob paint?", "What was painted?"):
        asked = await routes.embed(query, analyze(query, NOW))
        before, before_searches = index.batches, len(index.searched)
        searched = await routes.searched(SCOPE, asked)
        batch = index.searched[before_searches:]
        assert len(batch) == len(set(batch))  # each distinct search once
        assert index.batches == before + 1
        assert searched.dense == await routes.dense(SCOPE, asked)
        assert (searched.spoken, searched.speakers) == await routes.spoken(SCOPE, asked)
        assert searched.entity == await routes.entity(SCOPE, asked)
        nearest = {  # the query's own vector, whichever form the dense fact route searched
            kind: await index.search(SCOPE, asked.vector, 30, kind) for kind in ("fact", "evidence")
        }
        asked_facts = await index.search(SCOPE, asked.asked, 30, "fact")  # what is asked
        nearest["asked"] = [*asked_facts, *await index.search(SCOPE, asked.asked, 30, "evidence")]
        assert searched.nearest == nearest
    assert searched.speakers == [] and searched.spoken is None  # the last query names no one


async def test_the_word_routes_leave_out_the_names_of_speakers_only() -> None:
    routes = _routes(Index(POINTS))
    query = "What did Alice say about Flask?"
    assert routes.words(query, ["Alice"]) == "What did say about Flask?"
    assert routes.words(query, []) == query  # a name nobody spoke stays a word to match
    assert routes.words("Who is Alice?", ["Alice"]) == "Who is Alice?"  # nothing else left
    encoder = BM25Encoder()
    index = Index(POINTS)
    await _routes(index).keyword(SCOPE, routes.words(query, ["Alice"]))
    assert set(index.terms[0]) == set(encoder.embed_query("say Flask").indices)


@dataclass
class SlotViews:
    """Slot index and facts by id: just what the slot route reads."""

    slots: dict[str, list[str]]
    supersedes: dict[str, str]

    async def facts_for_slot(self, scope_key: str, slot: str) -> list[str]:
        return self.slots.get(slot, [])

    async def get_many(self, fact_ids: Sequence[str]) -> dict[str, Any]:
        return {i: _Versioned(self.supersedes.get(i)) for i in fact_ids}


@dataclass
class _Versioned:
    supersedes: str | None


async def _slot_ids(query: str) -> tuple[set[str], tuple[str, ...]]:
    views = SlotViews({"ana|moved_to": ["f_new"], "ana|job": ["f_job"]}, {"f_new": "f_old"})
    routes = Routes(cast(Any, views), cast(Any, None), cast(Any, Index([])), Embedder(),
                    BM25Encoder())  # fmt: skip
    found = await routes.slot_ids(SCOPE, query, analyze(query, NOW))
    return found.ids, found.attributes


async def test_a_residence_question_asks_the_move_slot_and_a_history_question_the_old_version(
) -> None:  # fmt: skip
    ids, attributes = await _slot_ids("Where is Ana based?")
    assert ids == {"f_new"} and {"lives_in", "moved_to"} <= set(attributes)
    ids, _ = await _slot_ids("Where did Ana live before?")
    assert ids == {"f_new", "f_old"}
    ids, attributes = await _slot_ids("What does Ana do for a living?")
    assert ids == {"f_job"} and "job" in attributes


def test_doing_something_for_a_living_asks_for_a_job_not_a_home() -> None:
    assert asked_slots("What does Ravi do for a living?") == ["works_at", "job"]
    assert asked_slots("Where is Ravi living now?") == ["lives_in", "moved_to"]  # a move too
