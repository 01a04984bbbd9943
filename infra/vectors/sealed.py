"""A vector index that keeps ids, vectors and keyed filter keys only.

:class:`SealedVectorIndex` wraps either vector index adapter (Qdrant Edge, Qdrant). What
reaches the engine, and so its segments, WAL and payload pages:

- ``scope``: a tag keyed by the deployment (:meth:`ViewSealer.scope_tag`), not the name;
- ``entities``: tags keyed by the subject's data key (gone with it);
- the BM25 vector with term ids keyed by the subject's data key
  (:func:`provmem.infra.models.sparse.keyed_terms`), on the document and the query side;
- no statement and no time; ``fact_id`` (a pseudonymous id), ``status`` and ``kind``.

Searches take plain scopes, entities and query vectors and key them the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol, runtime_checkable

from provmem.core.ports import (
    DenseSearch,
    ListedItems,
    SparseVector,
    VectorHit,
    VectorIndex,
    VectorPoint,
)
from provmem.infra.crypto.sealing import ViewSealer
from provmem.infra.models.sparse import keyed_terms
from provmem.infra.vectors.points import sparse_terms

__all__ = ["SealedVectorIndex"]


class SealedVectorIndex:
    """:class:`VectorIndex` over another one, with keyed tags and term ids (see above)."""

    def __init__(self, inner: VectorIndex, sealer: ViewSealer) -> None:
        self.inner = inner
        self._sealer = sealer

    async def upsert(self, points: Sequence[VectorPoint]) -> None:
        await self.inner.upsert([await self._sealed(p) for p in points])

    async def _sealed(self, point: VectorPoint) -> VectorPoint:
        scope = point.scope_key
        sparse = point.sparse
        if sparse is not None and sparse.indices:
            sparse_terms(sparse)  # checked before keying (which would merge duplicates)
            sparse = keyed_terms(sparse, await self._sealer.term_key(scope))
        entities = await self._sealer.tags(scope, "entity", [e.lower() for e in point.entities])
        return VectorPoint(
            point.fact_id,
            point.vector,
            self._sealer.scope_tag(scope),
            point.status,
            "",
            sparse,
            tuple(entities),
            None,
            point.kind,
        )

    async def delete(self, fact_ids: Sequence[str]) -> None:
        await self.inner.delete(fact_ids)

    async def search(
        self,
        scope_key: str,
        vector: Sequence[float],
        limit: int,
        kind: str = "fact",
        entity: str | None = None,
    ) -> list[VectorHit]:
        tag = (
            None if entity is None else await self._sealer.tag(scope_key, "entity", entity.lower())
        )
        return await self.inner.search(self._sealer.scope_tag(scope_key), vector, limit, kind, tag)

    async def search_many(
        self, scope_key: str, searches: Sequence[DenseSearch]
    ) -> list[list[VectorHit]]:
        keyed = [
            replace(s, entity=await self._sealer.tag(scope_key, "entity", s.entity.lower()))
            if s.entity is not None
            else s
            for s in searches
        ]
        return await self.inner.search_many(self._sealer.scope_tag(scope_key), keyed)

    async def search_sparse(
        self, scope_key: str, sparse: SparseVector, limit: int, kind: str = "fact"
    ) -> list[VectorHit]:
        if sparse.indices:
            sparse = keyed_terms(sparse, await self._sealer.term_key(scope_key))
        return await self.inner.search_sparse(
            self._sealer.scope_tag(scope_key), sparse, limit, kind
        )

    async def open(self) -> None:
        await self.inner.open()

    async def count(self, scope_key: str) -> int:
        return await self.inner.count(self._sealer.scope_tag(scope_key))

    async def delete_scope(self, scope_key: str) -> int:
        return await self.inner.delete_scope(self._sealer.scope_tag(scope_key))

    async def close(self) -> None:
        await self.inner.close()

    async def payload(self, item_id: str) -> dict[str, Any] | None:
        """A point's stored payload (keyed tags, no content), for the audit and a replay's
        check; both engines keep one."""
        if not isinstance(self.inner, _Payloads):
            raise TypeError(f"{type(self.inner).__name__} cannot show payloads")
        return await self.inner.payload(item_id)

    async def item_ids(self, kind: str) -> list[str]:
        """The ids of the items of ``kind`` held (``kind`` is kept as it is)."""
        if not isinstance(self.inner, ListedItems):
            raise TypeError(f"{type(self.inner).__name__} cannot list its items")
        return await self.inner.item_ids(kind)

    async def purge(self) -> int:
        """Drop deleted points physically where the engine can (qdrant-edge rebuilds its
        shard); a Qdrant server vacuums on its own schedule: 0."""
        if isinstance(self.inner, _Purgeable):
            return await self.inner.purge()
        return 0


@runtime_checkable
class _Payloads(Protocol):
    async def payload(self, item_id: str) -> dict[str, Any] | None: ...


@runtime_checkable
class _Purgeable(Protocol):
    async def purge(self) -> int: ...
