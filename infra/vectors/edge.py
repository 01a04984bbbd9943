"""Qdrant Edge in process: the vector index of the embedded runtime (layout: vector_points).

The folder holds :data:`BUCKETS` buckets, each a Qdrant Edge shard of its own
(``bucket-NN/``); a point lives in the bucket of its scope (a stable hash of the scope as
the index sees it), so every search, count and scope delete opens one bucket, and a
purge rebuilds only the buckets a delete reached: an erasure's cost follows its bucket,
not the folder (docs/ARCHITECTURE.md, "The embedded vector index in buckets").

:meth:`EdgeVectorIndex.purge` rebuilds a bucket from its live points into a fresh folder
and swaps it in, so deleted points leave neither its segments nor its WAL. A delete first
marks the bucket as owing a purge (``purge-owed``); the swap drops the mark with the old
folder, and an open that finds it purges before anything else: a process killed between
a delete and the end of its purge (a SIGKILL, a crash) leaves the deleted ids in the WAL
only until the folder is opened again, never for good.

A folder of the single-shard layout (before the buckets) is moved into buckets once, on
its first open: the live points are copied into a fresh folder swapped in as a purge's.

One module past ~500 lines: the buckets, a bucket's shard and the folder swaps that make
purges and the move into buckets crash-safe are one concept (the tests stand in for
``_copy_live`` here to kill a purge halfway).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import qdrant_edge as edge
import structlog

from provmem.core.ports import DenseSearch, SparseVector, VectorHit, VectorIndex, VectorPoint
from provmem.infra.vectors.points import (
    ACTIVE,
    DENSE,
    FACT_NAMESPACE,
    KINDS,
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
from provmem.infra.vectors.qdrant import QdrantVectorIndex

__all__ = [
    "ACTIVE",
    "BUCKETS",
    "DENSE",
    "FACT_NAMESPACE",
    "KINDS",
    "SPARSE",
    "EdgeVectorIndex",
    "QdrantVectorIndex",
    "VectorIndexLayoutError",
    "VectorIndexLocked",
    "point_id",
    "shard_in_use",
]

_log = structlog.get_logger(__name__)
_CONFIG_FILE = "edge_config.json"

#: Buckets of a folder (fixed when it is created; ``layout.json`` records it). An open
#: bucket costs the engine's search threads (8 here), two files and ~3 ms to load (its
#: dense vectors are mapped, not read in); a purge copies a bucket's live points
#: (~0.35 ms each). Buckets open on first use.
BUCKETS = 64
LAYOUT = "scope-buckets/1"
_LAYOUT_FILE = "layout.json"
_LOCK_FILE = "index.lock"


class EdgeVectorIndex(VectorIndex):
    """Qdrant Edge shards (buckets by scope) in a folder of their own, opened on first use.

    One folder can be open once at a time, machine-wide: a second open (in this or
    another process) raises :class:`VectorIndexLocked`. Updates go to a bucket's WAL
    before they return; :meth:`close` flushes and releases the folder. Calls are
    synchronous inside the coroutines: over 10k points of one scope a BM25 search takes
    ~0.3 ms, an exact dense one (384 dimensions) ~3 ms.
    """

    def __init__(self, path: Path, dim: int) -> None:
        self._path = Path(path)
        self._dim = dim
        self._buckets: dict[int, _Bucket] = {}
        self._lock: IO[str] | None = None
        self._closed = False

    async def upsert(self, points: Sequence[VectorPoint]) -> None:
        if not points:
            return
        by_bucket: dict[int, list[edge.Point]] = defaultdict(list)
        for p in points:
            point = edge.Point(point_id(p.fact_id), self._vectors(p), payload_of(p))
            by_bucket[bucket_of(p.scope_key)].append(point)
        for number, batch in by_bucket.items():
            self._bucket(number).update(edge.UpdateOperation.upsert_points(batch))

    async def delete(self, fact_ids: Sequence[str]) -> None:
        """Delete in the buckets that hold any of the ids (asked by id: ~0.5 ms a bucket)."""
        if not fact_ids:
            return
        ids: list[edge.PointId] = [point_id(f) for f in fact_ids]
        for bucket in self._existing():
            if bucket.shard().retrieve(ids, with_payload=False, with_vector=False):
                bucket.owe_purge()
                bucket.update(edge.UpdateOperation.delete_points(ids))

    async def search(
        self,
        scope_key: str,
        vector: Sequence[float],
        limit: int,
        kind: str = "fact",
        entity: str | None = None,
    ) -> list[VectorHit]:
        query = edge.Query.Nearest(dense_values(vector, self._dim), using=DENSE)
        return self._search(query, scope_key, limit, kind, entity)

    async def search_many(
        self, scope_key: str, searches: Sequence[DenseSearch]
    ) -> list[list[VectorHit]]:
        """The searches one by one: the shard's ``query_batch`` gave no less CPU and a
        higher wall-clock p50 in 3 of 4 alternating bench/query runs at 100k (load 17-21)."""
        return [await self.search(scope_key, s.vector, s.limit, s.kind, s.entity) for s in searches]

    async def search_sparse(
        self, scope_key: str, sparse: SparseVector, limit: int, kind: str = "fact"
    ) -> list[VectorHit]:
        indices, values = sparse_terms(sparse)
        if not indices:
            checked_kind(kind)
            return []
        query = edge.Query.Nearest(edge.SparseVector(indices, values), using=SPARSE)
        return self._search(query, scope_key, limit, kind)

    async def open(self) -> None:
        self._open()

    async def count(self, scope_key: str) -> int:
        bucket = self._held(scope_key)
        if bucket is None:
            return 0
        return bucket.shard().count(edge.CountRequest(exact=True, filter=_filter(scope_key)))

    async def delete_scope(self, scope_key: str) -> int:
        count = await self.count(scope_key)
        bucket = self._held(scope_key)
        if count and bucket is not None:
            bucket.owe_purge()
            bucket.update(edge.UpdateOperation.delete_points_by_filter(_filter(scope_key)))
        return count

    async def optimize(self) -> None:
        """Build the engine's search index (HNSW) over what was written; call after bulk loads."""
        for bucket in self._existing():
            bucket.shard().optimize()
            bucket.written = True

    async def purge(self) -> int:
        """Physically drop deleted points: rebuild every bucket that owes a purge (a delete
        reached it) from its live points into a fresh shard, then swap the folders and
        remove the old one, so no deleted point's payload, vector or id stays in a segment
        or a WAL. Returns the points kept in the rebuilt buckets. Crash-safe: an
        interrupted rebuild is discarded (or a finished one swapped in) on the next open,
        which then purges again (the bucket still owes it). Its cost follows what its
        buckets keep (~0.35 ms per point), not the folder, nor what was deleted."""
        return sum(b.purge() for b in self._existing() if b.owes_purge())

    async def reset(self) -> None:
        """Drop every point and start empty: close the buckets, remove the folder (a
        reader's slot rebuilds itself from the log after an erasure)."""
        await self.close()
        shutil.rmtree(self._path, ignore_errors=True)
        self._closed = False
        self._open()

    async def item_ids(self, kind: str) -> list[str]:
        """The ids of every item of ``kind`` held (live points; ids only, no vectors)."""
        kinds = edge.Filter(
            must=[edge.FieldCondition(key="kind", match=edge.MatchValue(checked_kind(kind)))]
        )
        return [
            str((r.payload or {})["fact_id"])
            for bucket in self._existing()
            for r in _records(bucket.shard(), kinds, ["fact_id"], False)
        ]

    async def payload(self, item_id: str) -> dict[str, Any] | None:
        """The stored payload of an item, or None when absent (for audits)."""
        for bucket in self._existing():
            found = bucket.shard().retrieve(
                [point_id(item_id)], with_payload=True, with_vector=False
            )
            if found:
                return dict(found[0].payload or {})
        return None

    async def close(self) -> None:
        self._closed = True
        self._release()

    def _release(self) -> None:
        """Close the buckets (flushing what this process wrote) and free the folder."""
        buckets, self._buckets = list(self._buckets.values()), {}
        for bucket in buckets:
            bucket.close()
        lock, self._lock = self._lock, None
        if lock is not None:
            fcntl.flock(lock, fcntl.LOCK_UN)
            lock.close()

    def _vectors(self, point: VectorPoint) -> dict[str, edge.NamedVector]:
        vectors: dict[str, edge.NamedVector] = {DENSE: dense_values(point.vector, self._dim)}
        if point.sparse is not None:
            indices, values = sparse_terms(point.sparse)
            if indices:
                vectors[SPARSE] = edge.SparseVector(indices, values)
        return vectors

    def _search(
        self, query: edge.Query, scope_key: str, limit: int, kind: str, entity: str | None = None
    ) -> list[VectorHit]:
        search_filter = _filter(scope_key, ACTIVE, checked_kind(kind), entity)
        bucket = self._held(scope_key)
        if limit <= 0 or bucket is None:
            return []
        # query() rather than search(): the same points, ~0.6 ms less CPU per dense
        # search over 100k points (bench/query)
        request = edge.QueryRequest(
            query=query, limit=limit, filter=search_filter, with_payload=["fact_id"]
        )
        return hits_of(bucket.shard().query(request))

    def _bucket(self, number: int) -> _Bucket:
        """The bucket, its shard created on its first write."""
        self._open()
        bucket = self._buckets.get(number)
        if bucket is None:
            bucket = self._buckets[number] = _Bucket(_bucket_path(self._path, number), self._dim)
        return bucket

    def _held(self, scope_key: str) -> _Bucket | None:
        """The scope's bucket when it exists (a read creates none)."""
        number = bucket_of(scope_key)
        self._open()
        if number in self._buckets or _bucket_path(self._path, number).exists():
            return self._bucket(number)
        return None

    def _existing(self) -> list[_Bucket]:
        self._open()
        numbers = set(self._buckets) | set(_bucket_numbers(self._path))
        return [self._bucket(n) for n in sorted(numbers)]

    def _open(self) -> None:
        """Hold the folder (its lock file), move a single-shard folder into buckets, and
        purge what a process that died after a delete left."""
        if self._closed:
            raise RuntimeError(f"vector index {self._path} is closed")
        if self._lock is not None:
            return
        _finish_swap(self._path)  # a move into buckets that a crash interrupted
        if (self._path / _CONFIG_FILE).exists():
            _into_buckets(self._path, self._dim)
        self._path.mkdir(parents=True, exist_ok=True)
        self._lock = _locked(self._path / _LOCK_FILE)
        try:
            _checked_layout(self._path)
            for number in _bucket_numbers(self._path):
                if (bucket := self._bucket(number)).owes_purge():
                    bucket.shard()  # purges what its folder owes; the others open on use
        except BaseException:
            self._release()
            raise


class _Bucket:
    """One Qdrant Edge shard of the index: its folder, opened on first use."""

    def __init__(self, path: Path, dim: int) -> None:
        self.path = path
        self._dim = dim
        self._shard: edge.EdgeShard | None = None
        self.written = False  # by this process since open: close() flushes only then

    def shard(self) -> edge.EdgeShard:
        if self._shard is None:
            shard = _load_or_create(self.path, _config(self._dim))
            try:
                self.written = _ensure_indexes(shard) > 0 or self.written
            except Exception:
                shard.close()  # release the folder lock
                raise
            if self.owes_purge():  # a delete whose purge never finished
                kept = self._purge(shard)
                _log.info("vectors.edge.owed_purge", path=str(self.path), kept=kept)
                shard = _load_or_create(self.path, _config(self._dim))
            self._shard = shard
        return self._shard

    def update(self, operation: edge.UpdateOperation) -> None:
        self.shard().update(operation)
        self.written = True

    def owes_purge(self) -> bool:
        return (self.path / _PURGE_OWED).exists()

    def owe_purge(self) -> None:
        """Mark the bucket before a delete reaches its WAL (see the module doc)."""
        self.shard()  # the folder exists from here on
        (self.path / _PURGE_OWED).touch()

    def purge(self) -> int:
        """Rebuild the bucket from its live points (see :meth:`EdgeVectorIndex.purge`)."""
        return self._purge(self.shard())

    def _purge(self, source: edge.EdgeShard) -> int:
        source.flush()
        fresh_path = _sibling(self.path, _REBUILDING)
        shutil.rmtree(fresh_path, ignore_errors=True)
        fresh = edge.EdgeShard.create(str(fresh_path), _config(self._dim))
        try:
            _ensure_indexes(fresh)
            kept = _copy_live(source, fresh)
            fresh.flush()
        finally:
            fresh.close()
        self._shard = None
        source.close()
        self.path.rename(_sibling(self.path, _PURGED))
        _finish_swap(self.path)
        return kept

    def close(self) -> None:
        shard, self._shard = self._shard, None
        if shard is not None:
            if self.written:  # a read-only session (a CLI query) skips the flush's fsync
                shard.flush()
            shard.close()


def bucket_of(scope_key: str) -> int:
    """The bucket of a scope (as the index sees it: a sealed index's scope tag): stable
    across processes and versions (blake2b, not Python's salted hash)."""
    digest = hashlib.blake2b(scope_key.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % BUCKETS


def _filter(
    scope_key: str,
    status: str | None = None,
    kind: str | None = None,
    entity: str | None = None,
) -> edge.Filter:
    must: list[edge.ConditionType] = [
        edge.FieldCondition(key=key, match=edge.MatchValue(value))
        for key, value in conditions(scope_key, status, kind, entity)
    ]
    return edge.Filter(must=must)


def _config(dim: int, buckets: bool = True) -> edge.EdgeConfig:
    """A bucket's shard: dense vectors mapped from disk (``Cold``: loading a bucket reads
    none of them in, ~3 ms instead of ~60 ms and 32 MiB of its first chunk). The engine's
    own search threads (8 a shard here): one a bucket gave recalls a higher wall-clock
    p50 at 10,000 facts (bench/query, docs/benchmarks.md). ``buckets=False``: the
    single-shard folder of earlier versions as it was created (to read it once, into
    buckets)."""
    memory = edge.Memory.Cold if buckets else None
    return edge.EdgeConfig(
        vectors={
            DENSE: edge.EdgeVectorParams(size=dim, distance=edge.Distance.Cosine, memory=memory)
        },
        sparse_vectors={SPARSE: edge.EdgeSparseVectorParams(modifier=edge.Modifier.Idf)},
    )


def _load_or_create(path: Path, config: edge.EdgeConfig) -> edge.EdgeShard:
    _finish_swap(path)
    try:
        if (path / _CONFIG_FILE).exists():
            return edge.EdgeShard.load(str(path), config)
        _log.info("vectors.edge.create", path=str(path))
        return edge.EdgeShard.create(str(path), config)
    except Exception as error:  # the bindings raise a bare Exception
        if "WouldBlock" in str(error):
            raise VectorIndexLocked(f"{path} is open elsewhere") from error
        if "incompatible" in str(error).lower():
            raise VectorIndexLayoutError(
                f"{path} holds a vector index of another layout or dimension "
                f"(this version stores {DENSE!r} of {config.vectors[DENSE].size} dimensions "
                f"and {SPARSE!r} sparse vectors); remove the folder and index again: {error}"
            ) from error
        raise


def _ensure_indexes(shard: edge.EdgeShard) -> int:
    """Create the payload indexes the shard lacks; return how many."""
    schema = shard.info().payload_schema
    wanted: dict[str, edge.PayloadSchemaType | edge.KeywordIndexParams] = {
        "scope": edge.KeywordIndexParams(is_tenant=True),
        "status": edge.PayloadSchemaType.Keyword,
        "kind": edge.PayloadSchemaType.Keyword,
        "entities": edge.PayloadSchemaType.Keyword,  # the entity route filters on it
    }
    missing = [(field, params) for field, params in wanted.items() if field not in schema]
    for field, params in missing:
        shard.update(edge.UpdateOperation.create_field_index(field, params))
    return len(missing)


def shard_in_use(path: Path, dim: int) -> bool:
    """Whether a process (this one or another) has the index folder open: its lock file is
    held (an open and close of another descriptor of it keeps that lock: flock). A folder
    of the single-shard layout is tested by loading its shard (its lock's only test)."""
    if (path / _CONFIG_FILE).exists():
        try:
            edge.EdgeShard.load(str(path), _config(dim, buckets=False)).close()
        except Exception as error:  # the bindings raise a bare Exception  # noqa: BLE001
            return "WouldBlock" in str(error)
        return False
    lock_path = path / _LOCK_FILE
    if not lock_path.exists():
        return False
    with lock_path.open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(lock, fcntl.LOCK_UN)
    return False


_REBUILDING, _PURGED = ".rebuilding", ".purged"
_PURGE_OWED = "purge-owed"
_COPY_BATCH = 512
_BUCKET_PREFIX = "bucket-"


def _bucket_path(folder: Path, number: int) -> Path:
    return folder / f"{_BUCKET_PREFIX}{number:02d}"


def _bucket_numbers(folder: Path) -> list[int]:
    """The buckets in the folder, a purge that a crash interrupted completed or undone."""
    numbers: set[int] = set()
    for entry in folder.glob(_BUCKET_PREFIX + "*"):
        name = entry.name.removesuffix(_REBUILDING).removesuffix(_PURGED)
        digits = name.removeprefix(_BUCKET_PREFIX)
        if digits.isdigit():
            numbers.add(int(digits))
    for number in numbers:
        _finish_swap(_bucket_path(folder, number))
    return sorted(n for n in numbers if _bucket_path(folder, n).exists())


def _locked(lock_path: Path) -> IO[str]:
    """The folder's lock (flock: closing another descriptor of the file keeps it)."""
    lock = lock_path.open("a")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise VectorIndexLocked(f"{lock_path.parent} is open elsewhere") from None
    return lock


def _checked_layout(folder: Path) -> None:
    """Write the layout of a new folder; refuse a folder of another one."""
    layout_path = folder / _LAYOUT_FILE
    wanted = {"layout": LAYOUT, "buckets": BUCKETS}
    if not layout_path.exists():
        layout_path.write_text(json.dumps(wanted) + "\n")
        return
    found = json.loads(layout_path.read_text())
    if found != wanted:
        raise VectorIndexLayoutError(
            f"{folder} holds a vector index of layout {found}, this version reads {wanted}: "
            "remove the folder and index again (`provmem replay --data-dir` rebuilds it "
            "from the log)"
        )


def _into_buckets(folder: Path, dim: int) -> None:
    """Move a single-shard folder (earlier versions) into buckets, once: its live points
    are copied into a bucketed folder built beside it, swapped in as a purge's rebuild
    is (a crash before the swap leaves the old folder as it was)."""
    old = _load_or_create(folder, _config(dim, buckets=False))
    fresh = _sibling(folder, _REBUILDING)
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir()
    (fresh / _LAYOUT_FILE).write_text(json.dumps({"layout": LAYOUT, "buckets": BUCKETS}) + "\n")
    try:
        moved = _copy_into_buckets(old, fresh, dim)
    finally:
        old.close()
    folder.rename(_sibling(folder, _PURGED))
    _finish_swap(folder)
    _log.info("vectors.edge.into_buckets", path=str(folder), points=moved)


def _copy_into_buckets(source: edge.EdgeShard, folder: Path, dim: int) -> int:
    buckets: dict[int, edge.EdgeShard] = {}
    moved = 0
    try:
        for records in _batches(source, None, True, True):
            by_bucket: dict[int, list[edge.Point]] = defaultdict(list)
            for r in records:
                scope = str((r.payload or {}).get("scope", ""))
                by_bucket[bucket_of(scope)].append(edge.Point(r.id, r.vector or {}, r.payload))
            for number, points in by_bucket.items():
                if number not in buckets:
                    buckets[number] = edge.EdgeShard.create(
                        str(_bucket_path(folder, number)), _config(dim)
                    )
                    _ensure_indexes(buckets[number])
                buckets[number].update(edge.UpdateOperation.upsert_points(points))
                moved += len(points)
    finally:
        for shard in buckets.values():
            shard.flush()
            shard.close()
    return moved


def _sibling(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _finish_swap(path: Path) -> None:
    """Complete or undo an interrupted rebuild (a bucket's purge, a move into buckets): a
    finished rebuild replaces the folder it was built from (moved aside first), an
    unfinished one goes; the old folder, holding the deleted points, is removed either way."""
    fresh, purged = _sibling(path, _REBUILDING), _sibling(path, _PURGED)
    if fresh.exists() and not path.exists() and purged.exists():
        fresh.rename(path)  # the rebuild finished: the old folder was moved aside after
    shutil.rmtree(fresh, ignore_errors=True)
    shutil.rmtree(purged, ignore_errors=True)


def _batches(
    shard: edge.EdgeShard, where: edge.Filter | None, payload: Any, vectors: bool
) -> Iterator[list[Any]]:
    """Every point of the shard (matching ``where``), a batch at a time."""
    offset = None
    while True:
        request = edge.ScrollRequest(
            offset=offset,
            limit=_COPY_BATCH,
            filter=where,
            with_payload=payload,
            with_vector=vectors,
        )
        records, offset = shard.scroll(request)
        if records:
            yield records
        if offset is None:
            return


def _records(
    shard: edge.EdgeShard, where: edge.Filter | None, payload: Any, vectors: bool
) -> Iterator[Any]:
    for batch in _batches(shard, where, payload, vectors):
        yield from batch


def _copy_live(source: edge.EdgeShard, target: edge.EdgeShard) -> int:
    kept = 0
    for records in _batches(source, None, True, True):
        points = [edge.Point(r.id, r.vector or {}, r.payload) for r in records]
        target.update(edge.UpdateOperation.upsert_points(points))
        kept += len(points)
    return kept
