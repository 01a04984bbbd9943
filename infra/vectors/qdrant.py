"""A Qdrant server collection (or qdrant-client's local mode) as the vector index.

The same layout as the embedded index (infra/vectors/points.py).
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog

from provmem.core.ports import DenseSearch, SparseVector, VectorHit, VectorIndex, VectorPoint
from provmem.infra.vectors.points import (
    ACTIVE,
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    VectorIndexLayoutError,
    VectorIndexLocked,
    checked_kind,
    conditions,
    dense_values,
    hits_of,
    payload_of,
    point_id,
    sparse_terms,
)

if TYPE_CHECKING:  # qdrant_client imports fastembed and onnxruntime: ~1 s, so lazily
    from qdrant_client import AsyncQdrantClient
    from qdrant_client import models as qm

_log = structlog.get_logger(__name__)


class QdrantVectorIndex(VectorIndex):
    """One collection of a Qdrant server (``url``) or of qdrant-client's local mode.

    Local mode (``path``; in memory when neither is given) keeps the points in
    SQLite and searches exactly, in Python; its folder is locked to one client
    (:class:`VectorIndexLocked`) and it has no payload indexes. The collection is
    created on first use; on a server, missing payload indexes are added on open.
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
            qm.PointStruct(id=point_id(p.fact_id), vector=self._vectors(p), payload=payload_of(p))
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

    async def search(
        self,
        scope_key: str,
        vector: Sequence[float],
        limit: int,
        kind: str = "fact",
        entity: str | None = None,
    ) -> list[VectorHit]:
        dense = dense_values(vector, self._dim)
        return await self._search(dense, DENSE, scope_key, limit, kind, entity)

    async def search_many(
        self, scope_key: str, searches: Sequence[DenseSearch]
    ) -> list[list[VectorHit]]:
        """One batch request (``query_batch_points``)."""
        from qdrant_client import models as qm

        requests = [
            qm.QueryRequest(
                query=dense_values(s.vector, self._dim),
                using=DENSE,
                filter=self._filter(scope_key, ACTIVE, checked_kind(s.kind), s.entity),
                limit=s.limit,
                with_payload=["fact_id"],
            )
            if s.limit > 0
            else None
            for s in searches
        ]
        wanted = [r for r in requests if r is not None]
        if not wanted:
            return [[] for _ in searches]
        client = await self._open()
        found = iter(await client.query_batch_points(self._collection, requests=wanted))
        return [[] if r is None else hits_of(next(found).points) for r in requests]

    async def search_sparse(
        self, scope_key: str, sparse: SparseVector, limit: int, kind: str = "fact"
    ) -> list[VectorHit]:
        from qdrant_client import models as qm

        indices, values = sparse_terms(sparse)
        if not indices:
            checked_kind(kind)
            return []
        query = qm.SparseVector(indices=indices, values=values)
        return await self._search(query, SPARSE, scope_key, limit, kind)

    async def open(self) -> None:
        await self._open()

    async def count(self, scope_key: str) -> int:
        client = await self._open()
        result = await client.count(
            self._collection, count_filter=self._filter(scope_key), exact=True
        )
        return result.count

    async def delete_scope(self, scope_key: str) -> int:
        from qdrant_client import models as qm

        count = await self.count(scope_key)
        if count:
            selector = qm.FilterSelector(filter=self._filter(scope_key))
            client = await self._open()
            await client.delete(self._collection, points_selector=selector, wait=True)
        return count

    async def payload(self, item_id: str) -> dict[str, Any] | None:
        """The stored payload of an item, or None when absent (for audits)."""
        client = await self._open()
        records = await client.retrieve(
            self._collection, [point_id(item_id)], with_payload=True, with_vectors=False
        )
        return dict(records[0].payload or {}) if records else None

    async def drop(self) -> None:
        """Close, and delete the collection (a retired generation's); in local mode with a
        ``path``, the folder."""
        await self.close()
        if self._path is not None:
            shutil.rmtree(self._path, ignore_errors=True)
            return
        client = self._connect()
        try:
            await client.delete_collection(self._collection)
        finally:
            await client.close()

    async def close(self) -> None:
        self._closed = True
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    def _vectors(self, point: VectorPoint) -> dict[str, qm.Vector]:
        from qdrant_client import models as qm

        vectors: dict[str, qm.Vector] = {DENSE: dense_values(point.vector, self._dim)}
        if point.sparse is not None:
            indices, values = sparse_terms(point.sparse)
            if indices:
                vectors[SPARSE] = qm.SparseVector(indices=indices, values=values)
        return vectors

    async def _search(
        self,
        query: list[float] | qm.SparseVector,
        using: str,
        scope_key: str,
        limit: int,
        kind: str,
        entity: str | None = None,
    ) -> list[VectorHit]:
        query_filter = self._filter(scope_key, ACTIVE, checked_kind(kind), entity)
        if limit <= 0:
            return []
        client = await self._open()
        response = await client.query_points(
            self._collection,
            query=query,
            using=using,
            query_filter=query_filter,
            limit=limit,
            with_payload=["fact_id"],
        )
        return hits_of(response.points)

    @staticmethod
    def _filter(
        scope_key: str,
        status: str | None = None,
        kind: str | None = None,
        entity: str | None = None,
    ) -> qm.Filter:
        from qdrant_client import models as qm

        must: list[qm.Condition] = [
            qm.FieldCondition(key=key, match=qm.MatchValue(value=value))
            for key, value in conditions(scope_key, status, kind, entity)
        ]
        return qm.Filter(must=must)

    place = "qdrant"

    async def held_bytes(self) -> AsyncIterator[tuple[str, bytes]]:
        """Every point's id and payload, as stored (the erasure audit reads a server's)."""
        client = await self._open()
        offset = None
        while True:
            points, offset = await client.scroll(
                self._collection, limit=256, offset=offset, with_payload=True, with_vectors=False
            )
            for point in points:
                raw = json.dumps([str(point.id), point.payload]).encode()
                yield f"qdrant:{self._collection}/{point.id}", raw
            if offset is None:
                return

    async def _open(self) -> AsyncQdrantClient:
        async with self._lock:
            if self._closed:
                raise RuntimeError(f"vector index {self._collection} is closed")
            if self._client is None:
                client = self._connect()
                try:
                    await self._ensure_collection(client)
                except BaseException:
                    await client.close()  # release a local folder's lock
                    raise
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

        if not await client.collection_exists(self._collection):
            _log.info("vectors.qdrant.create", collection=self._collection, dim=self._dim)
            try:
                await client.create_collection(
                    self._collection,
                    vectors_config={
                        DENSE: qm.VectorParams(size=self._dim, distance=qm.Distance.COSINE)
                    },
                    sparse_vectors_config={SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
                )
            except UnexpectedResponse as error:
                if error.status_code != 409:  # 409: another client created it meanwhile
                    raise
        info = await client.get_collection(self._collection)
        self._check_layout(info)
        if self._url is not None:  # local mode ignores payload indexes (and warns)
            for field in INDEXED_FIELDS:
                if field not in info.payload_schema:
                    schema: qm.PayloadSchemaType | qm.KeywordIndexParams = (
                        qm.KeywordIndexParams(type=qm.KeywordIndexType.KEYWORD, is_tenant=True)
                        if field == "scope"
                        else qm.PayloadSchemaType.KEYWORD
                    )
                    await client.create_payload_index(
                        self._collection, field, field_schema=schema, wait=True
                    )

    def _check_layout(self, info: qm.CollectionInfo) -> None:
        from qdrant_client import models as qm

        params = info.config.params
        dense = params.vectors.get(DENSE) if isinstance(params.vectors, dict) else None
        sparse = (params.sparse_vectors or {}).get(SPARSE)
        if (
            dense is None
            or dense.size != self._dim
            or dense.distance != qm.Distance.COSINE
            or sparse is None
            or sparse.modifier != qm.Modifier.IDF
        ):
            raise VectorIndexLayoutError(
                f"collection {self._collection} has another layout or dimension "
                f"(vectors {params.vectors!r}, sparse vectors {params.sparse_vectors!r}); "
                f"this version stores {DENSE!r} of {self._dim} dimensions (cosine) and "
                f"{SPARSE!r} sparse vectors with the IDF modifier: drop it and index again"
            )
