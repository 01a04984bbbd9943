"""VectorIndex contract: qdrant-edge (embedded) and qdrant-client (local path) adapters.

Also the BM25 encoder whose sparse vectors the index searches.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import mmh3
import pytest

from provmem.core.ports import DenseSearch, SparseVector, VectorIndex, VectorPoint
from provmem.infra.crypto.envelope import EvidenceSealer
from provmem.infra.crypto.sealing import ViewSealer
from provmem.infra.models.sparse import BM25Encoder, stopwords_dir
from provmem.infra.stores.embedded import EmbeddedKeyStore, EmbeddedStores
from provmem.infra.vectors.edge import (
    EdgeVectorIndex,
    QdrantVectorIndex,
    VectorIndexLayoutError,
    VectorIndexLocked,
)
from provmem.infra.vectors.sealed import SealedVectorIndex

AuditedIndex = EdgeVectorIndex | QdrantVectorIndex
MASTER = bytes(range(32))
OpenIndex = Callable[[], AuditedIndex]


@pytest.fixture(scope="module")
def bm25() -> BM25Encoder:
    return BM25Encoder()


@pytest.fixture(params=["edge", "qdrant-local", "edge-sealed", "qdrant-local-sealed"])
def open_index(request: pytest.FixtureRequest, tmp_path: Path) -> OpenIndex:
    """Opens an index; calling it again (after closing) is a restart on the same folder.
    The sealed variants wrap the adapter in :class:`SealedVectorIndex` (keyed tags and
    term ids): every search behaves the same."""

    def plain() -> AuditedIndex:
        if request.param.startswith("edge"):
            return EdgeVectorIndex(tmp_path / "edge", 4)
        return QdrantVectorIndex(path=tmp_path / "qdrant", collection="facts", dim=4)

    if not request.param.endswith("-sealed"):
        return plain
    sealer = ViewSealer(EvidenceSealer(MASTER, EmbeddedKeyStore(EmbeddedStores(tmp_path / "k.db"))))
    return lambda: SealedVectorIndex(plain(), sealer)  # type: ignore[return-value]


@pytest.fixture
async def vectors(open_index: OpenIndex) -> AsyncIterator[AuditedIndex]:
    index = open_index()
    yield index
    await index.close()


def _point(
    fact_id: str,
    scope: str,
    vector: list[float],
    status: str = "active",
    *,
    sparse: SparseVector | None = None,
    kind: str = "fact",
    statement: str | None = None,
    entities: tuple[str, ...] = (),
    time: str | None = None,
) -> VectorPoint:
    text = f"statement {fact_id}" if statement is None else statement
    return VectorPoint(fact_id, vector, scope, status, text, sparse, entities, time, kind)


async def test_vector_search_is_scoped_and_skips_inactive(vectors: VectorIndex) -> None:
    await vectors.upsert(
        [
            _point("a1", "o/p/a", [1, 0, 0, 0]),
            _point("a2", "o/p/a", [0.9, 0.1, 0, 0]),
            _point("a3", "o/p/a", [1, 0, 0, 0], status="superseded"),
            _point("b1", "o/p/b", [1, 0, 0, 0]),
        ]
    )
    hits = await vectors.search("o/p/a", [1, 0, 0, 0], 10)
    assert [h.fact_id for h in hits] == ["a1", "a2"]
    assert await vectors.count("o/p/b") == 1


async def test_vector_upsert_is_idempotent_and_delete_removes(vectors: VectorIndex) -> None:
    point = _point("a1", "o/p/a", [1, 0, 0, 0])
    await vectors.upsert([point])
    await vectors.upsert([point])
    assert await vectors.count("o/p/a") == 1
    await vectors.delete(["a1"])
    assert await vectors.search("o/p/a", [1, 0, 0, 0], 10) == []


async def test_delete_scope_removes_every_item_of_the_scope_only(vectors: AuditedIndex) -> None:
    await vectors.upsert(
        [
            _point("a1", "o/p/a", [1, 0, 0, 0]),
            _point("a2", "o/p/a", [0, 1, 0, 0], status="superseded"),
            _point("ea", "o/p/a", [1, 0, 0, 0], kind="evidence"),
            _point("b1", "o/p/b", [1, 0, 0, 0]),
        ]
    )
    assert await vectors.delete_scope("o/p/a") == 3
    assert await vectors.count("o/p/a") == 0
    assert await vectors.payload("a2") is None and await vectors.payload("ea") is None
    assert [h.fact_id for h in await vectors.search("o/p/b", [1, 0, 0, 0], 10)] == ["b1"]
    assert await vectors.delete_scope("o/p/a") == 0


async def test_dense_search_filters_by_kind(vectors: VectorIndex) -> None:
    await vectors.upsert(
        [
            _point("f1", "o/p/a", [1, 0, 0, 0]),
            _point("e1", "o/p/a", [1, 0, 0, 0], kind="evidence", statement=""),
            _point("e2", "o/p/a", [0.8, 0.2, 0, 0], kind="evidence", statement=""),
        ]
    )
    assert [h.fact_id for h in await vectors.search("o/p/a", [1, 0, 0, 0], 10)] == ["f1"]
    evidence = await vectors.search("o/p/a", [1, 0, 0, 0], 10, kind="evidence")
    assert [h.fact_id for h in evidence] == ["e1", "e2"]
    assert await vectors.count("o/p/a") == 3  # every kind
    with pytest.raises(ValueError, match="kind"):
        await vectors.search("o/p/a", [1, 0, 0, 0], 10, kind="turn")


async def test_a_batch_of_dense_searches_finds_what_each_search_finds(
    vectors: VectorIndex,
) -> None:
    await vectors.upsert(
        [
            _point("f1", "o/p/a", [1, 0, 0, 0], entities=("Ana",)),
            _point("f2", "o/p/a", [0.8, 0.2, 0, 0], entities=("Ben",)),
            _point("f3", "o/p/a", [0.7, 0.3, 0, 0], status="superseded", entities=("Ana",)),
            _point("e1", "o/p/a", [0, 1, 0, 0], kind="evidence", entities=("Ana",)),
            _point("b1", "o/p/b", [1, 0, 0, 0], entities=("Ana",)),
        ]
    )
    searches = [
        DenseSearch([1, 0, 0, 0], 10),
        DenseSearch([0, 1, 0, 0], 10, kind="evidence"),
        DenseSearch([0, 1, 0, 0], 1),
        DenseSearch([1, 0, 0, 0], 10, entity="ana"),
        DenseSearch([1, 0, 0, 0], 0),
        DenseSearch([1, 0, 0, 0], 10, entity="Carol"),
    ]
    found = await vectors.search_many("o/p/a", searches)
    assert [[h.fact_id for h in hits] for hits in found] == [
        ["f1", "f2"],
        ["e1"],
        ["f2"],
        ["f1"],
        [],
        [],
    ]
    one_by_one = [
        await vectors.search("o/p/a", s.vector, s.limit, s.kind, s.entity) for s in searches
    ]
    assert found == one_by_one  # the same points and scores
    assert await vectors.search_many("o/p/a", []) == []
    with pytest.raises(ValueError, match="kind"):
        await vectors.search_many("o/p/a", [DenseSearch([1, 0, 0, 0], 10, kind="turn")])


DOCS = {
    "a1": "The user lives in Berlin and works as a nurse.",
    "a2": "The user likes hiking in the mountains.",
    "a3": "The user drinks coffee every morning.",
    "a4": "The user went to a concert with a friend.",
}
QUERY = "Which city does the user live in? Berlin?"


async def test_sparse_search_ranks_rare_terms_first_and_filters(
    vectors: VectorIndex, bm25: BM25Encoder
) -> None:
    berlin = "The user moved to Berlin last year."
    texts = [*DOCS.values(), berlin, berlin, berlin]
    sparse = dict(zip([*DOCS, "old", "b1", "e1"], bm25.embed_documents(texts), strict=True))
    v = [1.0, 0, 0, 0]
    await vectors.upsert(
        [
            _point(fact_id, "o/p/a", v, sparse=sparse[fact_id], statement=DOCS[fact_id])
            for fact_id in DOCS
        ]
        + [
            _point("old", "o/p/a", v, "superseded", sparse=sparse["old"], statement=berlin),
            _point("b1", "o/p/b", v, sparse=sparse["b1"], statement=berlin),
            _point("e1", "o/p/a", v, sparse=sparse["e1"], kind="evidence", statement=""),
            _point("nosparse", "o/p/a", v, statement="Berlin without a sparse vector"),
        ]
    )
    query = bm25.embed_query(QUERY)
    hits = await vectors.search_sparse("o/p/a", query, 10)
    ids = [h.fact_id for h in hits]
    assert ids[0] == "a1"  # shares "berlin" and "live", rare terms
    assert set(ids) <= set(DOCS)  # no other scope, no inactive, no evidence, no nosparse
    assert hits[0].score > 2 * hits[1].score  # "user" alone is nearly worthless (IDF)
    evidence = await vectors.search_sparse("o/p/a", query, 10, kind="evidence")
    assert [h.fact_id for h in evidence] == ["e1"]
    assert [h.fact_id for h in await vectors.search_sparse("o/p/b", query, 10)] == ["b1"]
    assert len(await vectors.search_sparse("o/p/a", query, 1)) == 1
    assert await vectors.search_sparse("o/p/a", bm25.embed_query("the and of"), 10) == []
    assert await vectors.search_sparse("o/p/a", query, 0) == []


async def test_payload_layout_and_evidence_carries_no_text(vectors: AuditedIndex) -> None:
    await vectors.upsert(
        [
            _point(
                "f1",
                "o/p/a",
                [1, 0, 0, 0],
                statement="Alice lives in Berlin",
                entities=("Alice", "Berlin", "alice"),
                time="2024-05-01T10:00:00+00:00",
            ),
            _point(
                "e1",
                "o/p/a",
                [0, 1, 0, 0],
                sparse=SparseVector((3, 1), (0.5, 1.5)),
                kind="evidence",
                statement="secret turn text",  # must not reach the index
                entities=("Bob",),
            ),
        ]
    )
    fact = await vectors.payload("f1")
    evidence = await vectors.payload("e1")
    assert evidence is not None and fact is not None
    assert "statement" not in evidence and "statement" not in fact
    assert "secret" not in repr(evidence)
    assert await vectors.payload("missing") is None
    if isinstance(vectors, SealedVectorIndex):  # tags only: no name, no time
        assert fact["scope"].startswith("sc_") and fact["time"] is None
        assert len(fact["entities"]) == 2 and all(len(e) == 32 for e in fact["entities"])
        assert not {"alice", "berlin", "o/p/a", "bob"} & set(repr([fact, evidence]).split("'"))
        return
    assert fact == {
        "fact_id": "f1",
        "scope": "o/p/a",
        "status": "active",
        "kind": "fact",
        "entities": ["alice", "berlin"],
        "time": "2024-05-01T10:00:00+00:00",
    }  # no statement: the index keeps ids, vectors and filter keys only
    assert evidence["kind"] == "evidence" and evidence["entities"] == ["bob"]
    assert evidence["time"] is None


async def test_sparse_points_survive_a_restart(open_index: OpenIndex, bm25: BM25Encoder) -> None:
    index = open_index()
    sparse = bm25.embed_documents(list(DOCS.values()))
    await index.upsert(
        [
            _point(fact_id, "o/p/a", [1, 0, 0, 0], sparse=s)
            for fact_id, s in zip(DOCS, sparse, strict=True)
        ]
    )
    await index.close()
    index = open_index()
    try:
        hits = await index.search_sparse("o/p/a", bm25.embed_query(QUERY), 10)
        assert hits[0].fact_id == "a1"
        assert await index.count("o/p/a") == len(DOCS)
        assert (await index.payload("a1") or {})["fact_id"] == "a1"
    finally:
        await index.close()


async def test_second_open_of_a_folder_is_locked(open_index: OpenIndex) -> None:
    first, second = open_index(), open_index()
    try:
        await first.count("o/p/a")
        with pytest.raises(VectorIndexLocked):
            await second.count("o/p/a")
    finally:
        await second.close()
        await first.close()


async def test_open_holds_the_folder_and_is_idempotent(open_index: OpenIndex) -> None:
    first, second = open_index(), open_index()
    try:
        await first.open()
        await first.open()  # idempotent
        with pytest.raises(VectorIndexLocked):
            await second.open()  # held by ``first`` before any read or write
        assert await first.count("o/p/a") == 0
    finally:
        await second.close()
        await first.close()


async def test_bad_points_are_rejected(vectors: VectorIndex) -> None:
    with pytest.raises(ValueError, match="kind"):
        await vectors.upsert([_point("x", "o/p/a", [1, 0, 0, 0], kind="turn")])
    with pytest.raises(ValueError, match="duplicate"):
        await vectors.upsert(
            [_point("x", "o/p/a", [1, 0, 0, 0], sparse=SparseVector((1, 1), (1.0, 1.0)))]
        )
    with pytest.raises(ValueError, match="dimensions"):
        await vectors.upsert([_point("x", "o/p/a", [1, 0, 0])])


async def test_edge_folder_of_the_old_layout_raises_a_clear_error(tmp_path: Path) -> None:
    import qdrant_edge as edge

    old = edge.EdgeConfig(vectors=edge.EdgeVectorParams(size=4, distance=edge.Distance.Cosine))
    edge.EdgeShard.create(str(tmp_path / "old"), old).close()
    index = EdgeVectorIndex(tmp_path / "old", 4)
    with pytest.raises(VectorIndexLayoutError, match="remove the folder"):
        await index.count("o/p/a")
    await index.close()
    index = EdgeVectorIndex(tmp_path / "old", 4)  # the failed open released the folder
    with pytest.raises(VectorIndexLayoutError):
        await index.count("o/p/a")
    await index.close()


async def test_qdrant_collection_of_the_old_layout_raises_a_clear_error(tmp_path: Path) -> None:
    from qdrant_client import AsyncQdrantClient
    from qdrant_client import models as qm

    client = AsyncQdrantClient(path=str(tmp_path / "old"))
    await client.create_collection(
        "facts", vectors_config=qm.VectorParams(size=4, distance=qm.Distance.COSINE)
    )
    await client.close()
    index = QdrantVectorIndex(path=tmp_path / "old", collection="facts", dim=4)
    with pytest.raises(VectorIndexLayoutError, match="index again"):
        await index.count("o/p/a")
    await index.close()
    index = QdrantVectorIndex(path=tmp_path / "old", collection="facts", dim=4)
    with pytest.raises(VectorIndexLayoutError):  # the failed open released the folder
        await index.count("o/p/a")
    await index.close()


# --------------------------------------------------------------------------- BM25 encoder


def _term(stem: str) -> int:
    return abs(mmh3.hash(stem))


def test_bm25_documents_hold_the_tf_part_of_bm25(bm25: BM25Encoder) -> None:
    (doc,) = bm25.embed_documents(["The nurse and the nurses ran; the nurse runs!"])
    # stopwords dropped, stemmed: nurse x3, ran x1, run x1 -> |d| = 5
    norm = 1.2 * (1 - 0.75 + 0.75 * 5 / 256)
    expected = {_term("nurs"): 3 * 2.2 / (3 + norm), _term("ran"): 2.2 / (1 + norm)}
    expected[_term("run")] = 2.2 / (1 + norm)
    assert list(doc.indices) == sorted(expected)
    assert dict(zip(doc.indices, doc.values, strict=True)) == pytest.approx(expected)


def test_bm25_is_deterministic_and_drops_stopwords(bm25: BM25Encoder) -> None:
    texts = [*DOCS.values(), "", "the and of it is", "Ünïcode café 2024"]
    assert bm25.embed_documents(texts) == BM25Encoder().embed_documents(texts)
    assert bm25.embed_documents(["", "the and of it is"]) == [SparseVector((), ())] * 2
    assert bm25.embed_documents([]) == []
    assert bm25.embed_query("The AND of") == SparseVector((), ())


def test_bm25_query_marks_each_distinct_term_once(bm25: BM25Encoder) -> None:
    query = bm25.embed_query("Berlin berlin, BERLIN nurses?")
    assert query.indices == tuple(sorted({_term("berlin"), _term("nurs")}))
    assert query.values == (1.0, 1.0)


def test_bm25_loads_lazily(tmp_path: Path) -> None:
    encoder = BM25Encoder(model_dir=tmp_path / "missing")  # no I/O yet
    with pytest.raises(FileNotFoundError, match="english.txt"):
        encoder.embed_query("berlin")


def test_bm25_matches_qdrants_own_bm25() -> None:
    """Same term ids and weights as qdrant-edge's built-in BM25 (Rust) on plain English."""
    import qdrant_edge as edge

    words = (stopwords_dir() / "english.txt").read_text().split()
    reference = edge.Bm25()
    for word in words:  # each shipped stopword is a stopword of Qdrant's BM25 too
        assert reference.embed_document(word).indices == [], word
    ours = BM25Encoder()
    texts = [*DOCS.values(), "She's running to the café in Zürich; it's 2024-05-01."]
    for text, sparse in zip(texts, ours.embed_documents(texts), strict=True):
        theirs: Any = reference.embed_document(text)
        assert dict(zip(sparse.indices, sparse.values, strict=True)) == pytest.approx(
            dict(zip(theirs.indices, theirs.values, strict=True)), rel=1e-6
        )


async def test_a_compacting_index_purges_deleted_points_and_keeps_live_ones(
    tmp_path: Path,
) -> None:
    """PurgeableStore (core/ports.py): qdrant-edge keeps deleted points until it is
    purged; the purge keeps the live ones, and a search never saw the deleted ones."""
    from provmem.core.ports import PurgeableStore

    index = EdgeVectorIndex(tmp_path / "edge", 4)
    assert isinstance(index, PurgeableStore)
    await index.upsert([_point("a1", "o/p/a", [1, 0, 0, 0]), _point("a2", "o/p/a", [0, 1, 0, 0])])
    await index.delete(["a1"])
    assert await index.purge() == 1
    assert [h.fact_id for h in await index.search("o/p/a", [1, 0, 0, 0], 10)] == ["a2"]
    await index.close()


async def test_an_edge_index_lists_the_live_items_of_a_kind(tmp_path: Path) -> None:
    """ListedItems (core/ports.py): a reader's local index names turns' tombstones among
    the evidence points it holds (streams/indexing.py)."""
    index = EdgeVectorIndex(tmp_path / "edge", 4)
    await index.upsert(
        [
            _point("f1", "o/p/a", [1, 0, 0, 0]),
            _point("e1", "o/p/a", [0, 1, 0, 0], kind="evidence"),
            _point("e2", "o/p/b", [0, 0, 1, 0], kind="evidence"),
        ]
    )
    await index.delete(["e2"])
    assert await index.item_ids("evidence") == ["e1"]
    assert await index.item_ids("fact") == ["f1"]
    await index.close()


def _two_buckets() -> tuple[str, str]:
    """Two scopes whose points live in different buckets."""
    from provmem.infra.vectors.edge import bucket_of

    scopes = [f"o/p/u{n}" for n in range(10)]
    first = scopes[0]
    return first, next(s for s in scopes if bucket_of(s) != bucket_of(first))


async def test_a_purge_rebuilds_only_the_bucket_a_delete_reached(tmp_path: Path) -> None:
    """Erasure cost bounded by what is erased (issue 30 item 4): the points of a scope live
    in its bucket; a purge rebuilds the buckets that a delete reached, no other."""
    from provmem.infra.vectors.edge import bucket_of

    erased_scope, other_scope = _two_buckets()
    index = EdgeVectorIndex(tmp_path / "edge", 4)
    await index.upsert([_point(f"a{i}", erased_scope, [1, 0, 0, i]) for i in range(3)])
    await index.upsert([_point(f"b{i}", other_scope, [0, 1, 0, i]) for i in range(5)])
    other = tmp_path / "edge" / f"bucket-{bucket_of(other_scope):02d}"
    untouched = other.stat().st_ino
    await index.delete(["a1"])
    assert await index.purge() == 2  # the erased scope's bucket: its two live points
    assert other.stat().st_ino == untouched  # the other bucket was not rebuilt
    assert await index.purge() == 0  # nothing owed any more
    assert await index.count(erased_scope) == 2 and await index.count(other_scope) == 5
    assert await index.payload("b3") is not None and await index.payload("a1") is None
    await index.close()


async def test_an_edge_folder_of_the_single_shard_layout_moves_into_buckets_once(
    tmp_path: Path,
) -> None:
    """A folder written by a version before the buckets opens: its live points move into
    buckets on the first open; a deleted point it held goes with the old shard."""
    import qdrant_edge as edge

    from provmem.infra.vectors import edge as edge_module
    from provmem.infra.vectors.points import payload_of, point_id

    folder, (first, second) = tmp_path / "vectors", _two_buckets()
    old = edge.EdgeShard.create(str(folder), edge_module._config(4, buckets=False))
    points = [_point("a1", first, [1, 0, 0, 0]), _point("b1", second, [0, 1, 0, 0])]
    points.append(_point("gone", first, [0, 0, 1, 0]))
    old.update(
        edge.UpdateOperation.upsert_points(
            [edge.Point(point_id(p.fact_id), {"dense": p.vector}, payload_of(p)) for p in points]
        )
    )
    old.update(edge.UpdateOperation.delete_points([point_id("gone")]))
    old.flush()
    old.close()
    gone = uuid.UUID(point_id("gone")).bytes
    assert gone in b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())
    index = EdgeVectorIndex(folder, 4)
    assert [h.fact_id for h in await index.search(first, [1, 0, 0, 0], 5)] == ["a1"]
    assert [h.fact_id for h in await index.search(second, [0, 1, 0, 0], 5)] == ["b1"]
    await index.close()
    assert not (folder / "edge_config.json").exists() and not (folder / "wal").exists()
    assert (folder / "layout.json").exists()
    leftover = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert gone not in leftover


async def test_an_edge_folder_of_another_bucket_layout_names_the_rebuild(tmp_path: Path) -> None:
    folder = tmp_path / "vectors"
    folder.mkdir()
    (folder / "layout.json").write_text('{"layout": "scope-buckets/1", "buckets": 8}\n')
    index = EdgeVectorIndex(folder, 4)
    with pytest.raises(VectorIndexLayoutError, match="provmem replay"):
        await index.open()
    await index.close()
    second = EdgeVectorIndex(folder, 4)  # the failed open released the folder
    with pytest.raises(VectorIndexLayoutError):
        await second.open()
    await second.close()


async def test_an_edge_folder_in_use_is_seen_as_such(tmp_path: Path) -> None:
    """A replay's pending folder is dropped only when no process has it open
    (streams/runtime/generations.py): the bucketed folder's lock file says so."""
    from provmem.infra.vectors.edge import shard_in_use

    folder = tmp_path / "vectors"
    assert not shard_in_use(folder, 4)
    index = EdgeVectorIndex(folder, 4)
    await index.upsert([_point("a1", "o/p/a", [1, 0, 0, 0])])
    assert shard_in_use(folder, 4)
    assert shard_in_use(folder, 4)  # asking twice does not release the holder's lock
    await index.close()
    assert not shard_in_use(folder, 4)
