"""The erasure's optional ports (streams/erasure/ports.py): every adapter that claims one
does what the port says, and :func:`capabilities_of` finds exactly those on each runtime."""

from __future__ import annotations

from pathlib import Path

import pytest

from provmem.core.ports import Append, Cleanup, TopicConfig, VectorPoint
from provmem.infra.crypto.envelope import EvidenceSealer
from provmem.infra.crypto.sealing import ViewSealer
from provmem.infra.log.embedded import EmbeddedEventLog
from provmem.infra.log.kafka import KafkaEventLog
from provmem.infra.stores.embedded import (
    EmbeddedEvidenceStore,
    EmbeddedFactViews,
    EmbeddedKeyStore,
    EmbeddedStores,
)
from provmem.infra.stores.generations import FollowingFactViews
from provmem.infra.stores.redis_client import redis_client
from provmem.infra.stores.redis_stores import RedisEvidenceStore, RedisFactViews, RedisKeys
from provmem.infra.vectors.edge import EdgeVectorIndex, QdrantVectorIndex
from provmem.infra.vectors.sealed import SealedVectorIndex
from provmem.streams.erasure.ports import (
    CompactingLog,
    PayloadIndex,
    PurgeableStore,
)
from provmem.streams.runtime.erasure import capabilities_of

MASTER = bytes(range(32))


def _point(item_id: str) -> VectorPoint:
    return VectorPoint(item_id, [1.0, 0.0, 0.0, 0.0], "acme/p/u", "active", f"s {item_id}")


def _sealer(tmp_path: Path) -> ViewSealer:
    keys = EmbeddedKeyStore(EmbeddedStores(tmp_path / "keys.db"))
    return ViewSealer(EvidenceSealer(MASTER, keys))


async def test_the_embedded_log_compacts_when_asked_and_purges(tmp_path: Path) -> None:
    log = EmbeddedEventLog(tmp_path / "log.db")
    await log.ensure_topics([TopicConfig("t", 1, Cleanup.COMPACT)])
    await log.append("t", [Append(0, b"k", b"v1"), Append(0, b"k", b"v2"), Append(0, b"j", None)])
    assert isinstance(log, CompactingLog) and isinstance(log, PurgeableStore)
    assert await log.compact("t") == 1  # the older record of k; the tombstone stays
    assert [(r.key, r.value) for r in await log.read("t", 0, 0, 10)] == [
        (b"k", b"v2"),
        (b"j", None),
    ]
    assert await log.purge() == 1
    await log.close()


async def test_the_embedded_views_file_purges(tmp_path: Path) -> None:
    stores = EmbeddedStores(tmp_path / "views.db")
    for store in (EmbeddedEvidenceStore(stores), EmbeddedFactViews(stores)):
        assert isinstance(store, PurgeableStore)
        assert await store.purge() == 1
    await stores.close()


@pytest.mark.parametrize("sealed", [False, True])
async def test_the_edge_index_reads_payloads_and_purges_deleted_points(
    tmp_path: Path, sealed: bool
) -> None:
    edge = EdgeVectorIndex(tmp_path / "edge", 4)
    index = SealedVectorIndex(edge, _sealer(tmp_path)) if sealed else edge
    await index.upsert([_point("a1"), _point("a2")])
    await index.delete(["a2"])
    found = capabilities_of(
        EmbeddedEventLog(tmp_path / "l.db"),
        EmbeddedEvidenceStore(EmbeddedStores(tmp_path / "v.db")),
        EmbeddedFactViews(EmbeddedStores(tmp_path / "v.db")),
        index,
    )
    assert found.payloads is edge  # a sealed index is asked through to the one it wraps
    assert dict(found.purgeable)["vector_index"] is edge
    assert await edge.purge() == 1  # the live points kept
    assert (await edge.payload("a1") or {})["fact_id"] == "a1"
    assert await edge.payload("a2") is None
    await index.close()


async def test_a_qdrant_index_reads_payloads_and_cannot_purge(tmp_path: Path) -> None:
    index = QdrantVectorIndex(path=tmp_path / "qdrant", collection="facts", dim=4)
    await index.upsert([_point("a1")])
    assert isinstance(index, PayloadIndex) and not isinstance(index, PurgeableStore)
    assert (await index.payload("a1") or {})["fact_id"] == "a1"
    assert await index.payload("missing") is None
    await index.close()


async def test_the_embedded_runtime_has_every_capability(tmp_path: Path) -> None:
    stores = EmbeddedStores(tmp_path / "views.db")
    log, edge = EmbeddedEventLog(tmp_path / "log.db"), EdgeVectorIndex(tmp_path / "edge", 4)
    found = capabilities_of(log, EmbeddedEvidenceStore(stores), EmbeddedFactViews(stores), edge)
    assert found.compacting is log and found.payloads is edge
    assert [name for name, _ in found.purgeable] == [
        "vector_index",
        "fact_views",
        "evidence_store",
        "log",
    ]
    await log.close()


async def test_kafka_and_redis_compact_and_purge_nothing_themselves(tmp_path: Path) -> None:
    """The broker compacts on its own schedule; Redis keeps nothing deleted at rest."""
    client = redis_client("redis://127.0.0.1:1/0")  # constructed, never connected
    keys, sealer = RedisKeys("contract"), _sealer(tmp_path)
    log = KafkaEventLog("127.0.0.1:1")
    evidence = RedisEvidenceStore(client, keys, sealer)
    for views in (RedisFactViews(client, keys, sealer), FollowingFactViews(client, "c", sealer)):
        found = capabilities_of(log, evidence, views, None)
        assert (found.compacting, found.purgeable, found.payloads) == (None, (), None)
    await client.aclose()


async def test_the_sealer_and_the_embedder_meet_the_ports_the_stages_name(tmp_path: Path) -> None:
    """The stages and the erasure name EvidenceSealing and CachingEmbedder, never the
    concrete adapters: those keep the methods the ports declare, and do what they say."""
    from provmem.core.events import SealedText
    from provmem.core.ports import CachingEmbedder, EvidenceSealing, QueryEmbedder
    from provmem.infra.models.embedding import MiniLMEmbedder

    keys = EmbeddedKeyStore(EmbeddedStores(tmp_path / "keys.db"))
    sealer: EvidenceSealing = EvidenceSealer(MASTER, keys)
    sealed, key_id = await sealer.seal("acme/p/u", "my phone is 555-0199")
    assert isinstance(sealed, SealedText) and "555" not in sealed.model_dump_json()
    assert await sealer.open(sealed) == "my phone is 555-0199"
    sealer.forget(key_id)
    assert await sealer.open(sealed) == "my phone is 555-0199"  # the key fetched again
    await keys.close()
    embedder: CachingEmbedder = MiniLMEmbedder()
    (vector,) = embedder.embed(["a cached sentence"])
    assert len(vector) == embedder.dim and embedder.cached("a cached sentence")
    embedder.embed_transient(["a transient sentence"])
    assert not embedder.cached("a transient sentence")
    assert embedder.forget(["a cached sentence", "never embedded"]) == 1
    assert not embedder.cached("a cached sentence")
    queries: QueryEmbedder = MiniLMEmbedder()
    query = queries.embed_query("a cached sentence")  # its own session: near, not equal
    assert (
        len(query) == embedder.dim and sum(a * b for a, b in zip(query, vector, strict=True)) > 0.95
    )


async def test_a_scrub_rewrites_a_file_whose_free_space_holds_a_trace(tmp_path: Path) -> None:
    """secure_delete zeroes deleted cells, not a stale copy a page rebalance leaves in a
    page's free space: planted here by a delete without secure_delete. A scrub asked
    about a trace rewrites the file (and its WAL); a scrub with nothing to find does not."""
    import sqlite3

    from provmem.core.ports import ScrubbableStore

    stores = EmbeddedStores(tmp_path / "views.db")
    views = EmbeddedFactViews(stores)
    stores.conn.execute("INSERT INTO state VALUES ('gate|s|seen|ev_planted_trace', x'31')")
    plain = sqlite3.connect(tmp_path / "views.db")
    plain.execute("PRAGMA secure_delete=OFF")
    plain.execute("DELETE FROM state")
    plain.commit()
    plain.close()
    await stores.purge()

    def holds(path: Path) -> bool:
        return path.exists() and b"ev_planted_trace" in path.read_bytes()

    assert holds(tmp_path / "views.db")  # the trace the purge left
    assert isinstance(views, ScrubbableStore) and isinstance(stores, ScrubbableStore)
    assert await views.scrub(holds)
    assert not holds(tmp_path / "views.db") and not holds(tmp_path / "views.db-wal")
    assert not await views.scrub(holds)  # nothing left: no second rewrite
    await stores.close()
