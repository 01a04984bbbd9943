"""Vector indexes of facts: Qdrant Edge in process, or Qdrant through qdrant-client.

Both store one point per fact, id ``uuid5(FACT_NAMESPACE, fact_id)``, payload
``{fact_id, scope, status, statement}``, cosine distance. ``search`` returns only
points of the scope whose status is ``"active"``; ``count`` counts every point of
the scope, whatever its status.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import qdrant_edge as edge
import structlog

from ..core.ports import VectorHit, VectorIndex, VectorPoint

if TYPE_CHECKING:  # qdrant_client imports fastembed and onnxruntime: ~1 s, so lazily
    from qdrant_client import AsyncQdrantClient
    from qdrant_client import models as qm

__all__ = [
    "ACTIVE",
    "FACT_NAMESPACE",
    "EdgeVectorIndex",
    "QdrantVectorIndex",
    "VectorIndexLocked",
    "point_id",
]

_log = structlog.get_logger(__name__)

#: Namespace of the point ids (uuid5 of the fact id).
FACT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:provmem:fact")
#: The status a point must have to be found by ``search``.
ACTIVE = "active"
_CONFIG_FILE = "edge_config.json"


class VectorIndexLocked(RuntimeError):
    """The index folder is open in another process (or another instance)."""


def point_id(fact_id: str) -> str:
    """The point id of a fact: a uuid5 string, stable across runs and adapters."""
    return str(uuid.uuid5(FACT_NAMESPACE, fact_id))


def _payload(point: VectorPoint) -> dict[str, Any]:
    return {
        "fact_id": point.fact_id,
        "scope": point.scope_key,
        "status": point.status,
        "statement": point.statement,
    }


def _floats(vector: Sequence[float], dim: int) -> list[float]:
    values = [float(x) for x in vector]
    if len(values) != dim:
        raise ValueError(f"vector has {len(values)} dimensions, the index {dim}")
    return values


# --------------------------------------------------------------------------- Qdrant Edge


class EdgeVectorIndex(VectorIndex):
    """A Qdrant Edge shard in a folder of its own, opened on first use.

    One shard folder can be open once at a time, machine-wide: a second open (in
    this or another process) raises :class:`VectorIndexLocked`. Updates go to the
    shard's WAL before they return; :meth:`close` flushes and releases the folder.
    Calls are synchronous inside the coroutines: they take well under a millisecond
    at this size.
    """

    def __init__(self, path: Path, dim: int) -> None:
        self._path = Path(path)
        self._dim = dim
        self._shard: edge.EdgeShard | None = None
        self._closed = False

    async def upsert(self, points: Sequence[VectorPoint]) -> None:
        if not points:
            return
        batch = [
            edge.Point(point_id(p.fact_id), _floats(p.vector, self._dim), _payload(p))
            for p in points
        ]
        self._open().update(edge.UpdateOperation.upsert_points(batch))

    async def delete(self, fact_ids: Sequence[str]) -> None:
        if not fact_ids:
            return
        ids: list[edge.PointId] = [point_id(f) for f in fact_ids]
        self._open().update(edge.UpdateOperation.delete_points(ids))

    async def search(self, scope_key: str, vector: Sequence[float], limit: int) -> list[VectorHit]:
        if limit <= 0:
            return []
        request = edge.SearchRequest(
            query=edge.Query.Nearest(_floats(vector, self._dim)),
            limit=limit,
            filter=self._filter(scope_key, ACTIVE),
            with_payload=["fact_id"],
        )
        return [
            VectorHit(fact_id=str((hit.payload or {})["fact_id"]), score=hit.score)
            for hit in self._open().search(request)
        ]

    async def count(self, scope_key: str) -> int:
        return self._open().count(edge.CountRequest(exact=True, filter=self._filter(scope_key)))

    async def close(self) -> None:
        self._closed = True
        shard, self._shard = self._shard, None
        if shard is not None:
            shard.flush()
            shard.close()

    @staticmethod
    def _filter(scope_key: str, status: str | None = None) -> edge.Filter:
        must: list[edge.ConditionType] = [
            edge.FieldCondition(key="scope", match=edge.MatchValue(scope_key))
        ]
        if status is not None:
            must.append(edge.FieldCondition(key="status", match=edge.MatchValue(status)))
        return edge.Filter(must=must)

    def _open(self) -> edge.EdgeShard:
        if self._closed:
            raise RuntimeError(f"vector index {self._path} is closed")
        if self._shard is None:
            shard = self._load_or_create()
            try:
                self._ensure_indexes(shard)
            except Exception:
                shard.close()  # release the folder lock
                raise
            self._shard = shard
        return self._shard

    def _load_or_create(self) -> edge.EdgeShard:
        config = edge.EdgeConfig(
            vectors=edge.EdgeVectorParams(size=self._dim, distance=edge.Distance.Cosine)
        )
        try:
            if (self._path / _CONFIG_FILE).exists():
                return edge.EdgeShard.load(str(self._path), config)
            _log.info("vectors.edge.create", path=str(self._path), dim=self._dim)
            return edge.EdgeShard.create(str(self._path), config)
        except Exception as error:  # the bindings raise a bare Exception
            if "WouldBlock" in str(error):
                raise VectorIndexLocked(f"{self._path} is open elsewhere") from error
            raise

    @staticmethod
    def _ensure_indexes(shard: edge.EdgeShard) -> None:
        schema = shard.info().payload_schema
        wanted: dict[str, edge.PayloadSchemaType | edge.KeywordIndexParams] = {
            "scope": edge.KeywordIndexParams(is_tenant=True),
            "status": edge.PayloadSchemaType.Keyword,
        }
        for field, params in wanted.items():
            if field not in schema:
                shard.update(edge.UpdateOperation.create_field_index(field, params))


# --------------------------------------------------------------------------- qdrant-client


class QdrantVectorIndex(VectorIndex):
    """One collection of a Qdrant server (``url``) or of qdrant-client's local mode.

    Local mode (``path``; in memory when neither is given) keeps the points in
    SQLite and searches exactly, in Python; its folder is locked to one client
    (:class:`VectorIndexLocked`). The collection is created on first use.
    """

    def __init__(
        self,
        *,
        url: str | None = None,
        path: Path | None = None,
        collection: str,
        dim: int,
        api_key: str | None = None,
    ) -> None:
        if url is not None and path is not None:
            raise ValueError("give url or path, not both")
        self._url = url
        self._path = path
        self._api_key = api_key
        self._collection = collection
        self._dim = dim
        self._client: AsyncQdrantClient | None = None
        self._lock = asyncio.Lock()
        self._closed = False

    async def upsert(self, points: Sequence[VectorPoint]) -> None:
        from qdrant_client import models as qm

        if not points:
            return
        batch = [
            qm.PointStruct(
                id=point_id(p.fact_id), vector=_floats(p.vector, self._dim), payload=_payload(p)
            )
            for p in points
        ]
        client = await self._open()
        await client.upsert(self._collection, points=batch, wait=True)

    async def delete(self, fact_ids: Sequence[str]) -> None:
        from qdrant_client import models as qm

        if not fact_ids:
            return
        ids: list[qm.ExtendedPointId] = [point_id(f) for f in fact_ids]
        client = await self._open()
        await client.delete(
            self._collection, points_selector=qm.PointIdsList(points=ids), wait=True
        )

    async def search(self, scope_key: str, vector: Sequence[float], limit: int) -> list[VectorHit]:
        if limit <= 0:
            return []
        client = await self._open()
        response = await client.query_points(
            self._collection,
            query=_floats(vector, self._dim),
            query_filter=self._filter(scope_key, ACTIVE),
            limit=limit,
            with_payload=["fact_id"],
        )
        return [
            VectorHit(fact_id=str((hit.payload or {})["fact_id"]), score=hit.score)
            for hit in response.points
        ]

    async def count(self, scope_key: str) -> int:
        client = await self._open()
        result = await client.count(
            self._collection, count_filter=self._filter(scope_key), exact=True
        )
        return result.count

    async def close(self) -> None:
        self._closed = True
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    @staticmethod
    def _filter(scope_key: str, status: str | None = None) -> qm.Filter:
        from qdrant_client import models as qm

        must: list[qm.Condition] = [
            qm.FieldCondition(key="scope", match=qm.MatchValue(value=scope_key))
        ]
        if status is not None:
            must.append(qm.FieldCondition(key="status", match=qm.MatchValue(value=status)))
        return qm.Filter(must=must)

    async def _open(self) -> AsyncQdrantClient:
        async with self._lock:
            if self._closed:
                raise RuntimeError(f"vector index {self._collection} is closed")
            if self._client is None:
                client = self._connect()
                await self._ensure_collection(client)
                self._client = client
            return self._client

    def _connect(self) -> AsyncQdrantClient:
        from qdrant_client import AsyncQdrantClient

        if self._url is not None:
            return AsyncQdrantClient(url=self._url, api_key=self._api_key)
        if self._path is None:
            return AsyncQdrantClient(location=":memory:")
        try:
            return AsyncQdrantClient(path=str(self._path))
        except RuntimeError as error:
            if "already accessed" in str(error):
                raise VectorIndexLocked(f"{self._path} is open elsewhere") from error
            raise

    async def _ensure_collection(self, client: AsyncQdrantClient) -> None:
        from qdrant_client import models as qm
        from qdrant_client.http.exceptions import UnexpectedResponse

        if await client.collection_exists(self._collection):
            await self._check_dim(client)
            return
        _log.info("vectors.qdrant.create", collection=self._collection, dim=self._dim)
        try:
            await client.create_collection(
                self._collection,
                vectors_config=qm.VectorParams(size=self._dim, distance=qm.Distance.COSINE),
            )
        except UnexpectedResponse as error:
            if error.status_code != 409:  # 409: another client created it meanwhile
                raise
        if self._url is not None:  # local mode ignores payload indexes (and warns)
            for field in ("scope", "status"):
                await client.create_payload_index(
                    self._collection, field, field_schema=qm.PayloadSchemaType.KEYWORD
                )

    async def _check_dim(self, client: AsyncQdrantClient) -> None:
        from qdrant_client import models as qm

        info = await client.get_collection(self._collection)
        params = info.config.params.vectors
        size = params.size if isinstance(params, qm.VectorParams) else None
        if size != self._dim:
            raise ValueError(
                f"collection {self._collection} has vectors of {size}, not {self._dim}"
            )
