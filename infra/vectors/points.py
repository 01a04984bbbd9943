"""The layout both vector indexes store (Qdrant Edge in process, Qdrant via qdrant-client).

One point per item (a fact or an evidence turn), id
``uuid5(FACT_NAMESPACE, item_id)``, with two named vectors:

- ``"dense"``: the sentence embedding, cosine distance;
- ``"bm25"``: the BM25 term-frequency vector (:class:`provmem.infra.models.sparse.BM25Encoder`),
  sparse, with Qdrant's IDF modifier; absent when the point has no ``sparse`` (or no terms).

Payload: ``fact_id`` (the item id), ``scope``, ``status``, ``kind`` (``"fact"`` or
``"evidence"``), ``entities`` (lower-cased list) and ``time`` (ISO string or null); no text.
Through :class:`provmem.infra.vectors.sealed.SealedVectorIndex` (how both runtimes open
an index), ``scope`` and ``entities`` are keyed tags and BM25 term ids are keyed per subject.
``scope``, ``status``, ``kind`` and ``entities`` get keyword payload indexes (``scope`` as
the tenant key).

``search`` and ``search_sparse`` return only points of the scope, of the kind asked for,
whose status is ``"active"``; ``count`` counts every point of the scope, whatever its kind
or status. A folder or collection of another layout (the single unnamed vector of earlier
versions, or another dimension) raises :class:`VectorIndexLayoutError` when opened.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from provmem.core.ports import SparseVector, VectorHit, VectorPoint

__all__ = [
    "ACTIVE",
    "DENSE",
    "FACT_NAMESPACE",
    "INDEXED_FIELDS",
    "KINDS",
    "SPARSE",
    "VectorIndexLayoutError",
    "VectorIndexLocked",
    "point_id",
]

#: Namespace of the point ids (uuid5 of the item id).
FACT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:provmem:fact")
#: The status a point must have to be found by the searches.
ACTIVE = "active"
#: Names of the dense and the sparse (BM25) vector.
DENSE = "dense"
SPARSE = "bm25"
#: The kinds of item an index holds.
KINDS = ("fact", "evidence")
#: Payload fields with a keyword index.
INDEXED_FIELDS = ("scope", "status", "kind", "entities")
MAX_TERM_ID = 2**32 - 1  # Qdrant's sparse indices are u32


class VectorIndexLocked(RuntimeError):
    """The index folder is open in another process (or another instance)."""


class VectorIndexLayoutError(ValueError):
    """The folder or collection holds vectors of another layout or dimension.

    The index is a projection of the logs: remove it and index again from the topics.
    """


def point_id(fact_id: str) -> str:
    """The point id of an item: a uuid5 string, stable across runs and adapters."""
    return str(uuid.uuid5(FACT_NAMESPACE, fact_id))


def checked_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    return kind


def payload_of(point: VectorPoint) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "fact_id": point.fact_id,
        "scope": point.scope_key,
        "status": point.status,
        "kind": checked_kind(point.kind),
        "entities": list(dict.fromkeys(e.lower() for e in point.entities)),
        "time": point.time,
    }
    return payload  # no text: statements and evidence stay in the sealed views


def dense_values(vector: Sequence[float], dim: int) -> list[float]:
    values = [float(x) for x in vector]
    if len(values) != dim:
        raise ValueError(f"vector has {len(values)} dimensions, the index {dim}")
    return values


def sparse_terms(sparse: SparseVector) -> tuple[list[int], list[float]]:
    """Checked indices and values of a sparse vector."""
    indices = [int(i) for i in sparse.indices]
    values = [float(v) for v in sparse.values]
    if len(indices) != len(values):
        raise ValueError(f"sparse vector has {len(indices)} indices and {len(values)} values")
    if len(set(indices)) != len(indices):
        raise ValueError("sparse vector has duplicate indices")
    if any(i < 0 or i > MAX_TERM_ID for i in indices):
        raise ValueError("sparse vector indices must be within [0, 2**32)")
    return indices, values


def hits_of(points: Sequence[Any]) -> list[VectorHit]:
    return [VectorHit(fact_id=str((p.payload or {})["fact_id"]), score=p.score) for p in points]


def conditions(
    scope_key: str, status: str | None, kind: str | None, entity: str | None
) -> list[tuple[str, str]]:
    """The payload equalities of a search filter, the same for both engines."""
    pairs = {
        "scope": scope_key,
        "status": status,
        "kind": kind,
        "entities": entity.lower() if entity else None,
    }
    return [(key, value) for key, value in pairs.items() if value is not None]
