"""provmem as LangGraph's long-term store: :class:`ProvmemStore` is a
``langgraph.store.base.BaseStore`` (``batch`` and ``abatch``, so every ``get``/``put``/
``search``/``delete``/``list_namespaces`` and their ``a`` twins) over a provmem memory.

    from provmem import Memory
    from provmem.services.adapters.langgraph import ProvmemStore

    store = ProvmemStore(Memory())
    store.put(("users", "ann", "memories"), "m1", {"text": "Ann plays the cello."})
    store.get(("users", "ann", "memories"), "m1").value   # {"text": "Ann plays the cello."}
    store.search(("users", "ann"), query="instruments?")  # scored by provmem's search
    graph.compile(store=store)                            # nodes use it: runtime.store

A namespace is a provmem user: ``("users", "ann", "memories")`` is the user id
``"users.ann.memories"`` (:func:`user_id`; LangGraph forbids ``.`` in a label, so
:func:`namespace` reverses it) in the store's org and project, so a namespace's items are
isolated, searched and erased as one user's. A put remembers the value, as JSON, as one
turn of that user: the item's value is its evidence (sealed like any turn, found by
provmem's semantic search, erased by provmem's erasures) and the turn's ``source_uri``
names the item. A small index beside the memory (``langgraph-store.sqlite3`` in its data
folder) maps each key to the turn of its current value, with ``created_at`` and
``updated_at``; it holds namespaces, keys and turn ids, never values nor evidence ids
(an erasure's audit looks for those on disk: the evidence id is derived when needed).

An overwrite or a delete takes the item out of the store at once; the evidence of its
earlier values stays in memory as history (as a Mem0 ``delete`` does here) until
:meth:`ProvmemStore.erase` forgets it, with provmem's receipt. An item whose evidence
was erased by provmem itself (``memory.erase(user_id=user_id(namespace))``) is gone from
``get`` and ``search`` too, and leaves the index when a read meets it. See
docs/langgraph.md.

One module (~650 lines) because it is one contract: LangGraph's ``batch`` ops, their
filter operators, the key index and the value codec are read together by its port of
langgraph's own store tests (tests/e2e/test_adapter_langgraph.py).

One module past 500 lines: the store, its index and the LangGraph semantics it must
match (filters, namespace conditions) are one concept, read and changed together.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import threading
import uuid
from collections.abc import Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import quote

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from provmem.core.events import ErasureCompleted
from provmem.core.ids import evidence_id
from provmem.services.memory.results import ErasureQueued, EvidenceQuote, PublishResult
from provmem.services.sdk.facade import AsyncMemory, SearchResult

T = TypeVar("T")
INDEX_FILE = "langgraph-store.sqlite3"
SPEAKER = "langgraph"
MAX_SOURCE_URI = 2048
_SEARCH_CAP = 1000  # the most candidates one namespace's semantic search ranks


def user_id(namespace: Sequence[str]) -> str:
    """The provmem user id of a namespace: its labels joined by ``.``.

    >>> user_id(("users", "ann", "memories"))
    'users.ann.memories'
    """
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    validate_op_namespace(GetOp(tuple(namespace), ""))
    return ".".join(namespace)


def namespace(user: str) -> tuple[str, ...]:
    """The namespace whose user id is ``user`` (the inverse of :func:`user_id`).

    >>> namespace("users.ann.memories")
    ('users', 'ann', 'memories')
    """
    return tuple(user.split("."))


@dataclass(frozen=True)
class Entry:
    """The index's row for one key: the turn of its current value, and its times."""

    user: str
    key: str
    turn_id: str
    indexed: bool
    created_at: datetime
    updated_at: datetime

    @property
    def namespace(self) -> tuple[str, ...]:
        return namespace(self.user)


class Index:
    """Keys, the turns of their values and their times, per org/project (``root``), in
    one SQLite file. Deleted rows are overwritten on disk (``secure_delete``)."""

    def __init__(self, path: Path) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.executescript(
            """
            PRAGMA secure_delete = ON;
            CREATE TABLE IF NOT EXISTS items (
              root TEXT NOT NULL, user TEXT NOT NULL, key TEXT NOT NULL,
              turn_id TEXT NOT NULL, indexed INTEGER NOT NULL,
              created_at TEXT NOT NULL, updated_at TEXT NOT NULL, seq INTEGER NOT NULL,
              PRIMARY KEY (root, user, key));
            CREATE TABLE IF NOT EXISTS versions (
              root TEXT NOT NULL, user TEXT NOT NULL, key TEXT NOT NULL,
              turn_id TEXT NOT NULL, PRIMARY KEY (root, user, key, turn_id));
            """
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def entry(self, root: str, user: str, key: str) -> Entry | None:
        found = self._select("user = ? AND key = ?", root, user, key)
        return found[0] if found else None

    def entries(self, root: str, prefix: Sequence[str]) -> list[Entry]:
        """The entries of every namespace at or below ``prefix``, latest put first."""
        if not prefix:
            return self._select("1", root)
        head = ".".join(prefix)
        return self._select(
            "(user = ? OR substr(user, 1, ?) = ?)", root, head, len(head) + 1, head + "."
        )

    def users(self, root: str) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT user FROM items WHERE root = ?", (root,))
            return [row[0] for row in rows]

    def save(self, root: str, entry: Entry) -> None:
        values = (root, entry.user, entry.key, entry.turn_id, int(entry.indexed))
        times = (entry.created_at.isoformat(), entry.updated_at.isoformat())
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?, ?,"
                " (SELECT COALESCE(MAX(seq), 0) + 1 FROM items))",
                (*values, *times),
            )
            self._db.execute("INSERT OR IGNORE INTO versions VALUES (?, ?, ?, ?)", values[:4])

    def drop(self, root: str, user: str, key: str) -> None:
        """The key out of the store (the evidence of its versions stays listed)."""
        with self._lock:
            self._db.execute(
                "DELETE FROM items WHERE root = ? AND user = ? AND key = ?", (root, user, key)
            )

    def versions(self, root: str, user: str, key: str | None) -> list[tuple[str, str]]:
        """The (key, turn id) of every value a key (None: every key of the user) has had."""
        where, args = ("AND key = ?", (key,)) if key is not None else ("", ())
        with self._lock:
            rows = self._db.execute(
                f"SELECT key, turn_id FROM versions WHERE root = ? AND user = ? {where}",  # noqa: S608 - fixed text
                (root, user, *args),
            )
            return [(row[0], row[1]) for row in rows]

    def forget(self, root: str, user: str, key: str | None) -> None:
        """Every row of a key (None: of the user), versions included."""
        where, args = ("AND key = ?", (key,)) if key is not None else ("", ())
        with self._lock, self._db:
            self._db.execute("BEGIN")
            for table in ("items", "versions"):
                self._db.execute(
                    f"DELETE FROM {table} WHERE root = ? AND user = ? {where}",  # noqa: S608 - fixed text
                    (root, user, *args),
                )

    def _select(self, where: str, root: str, *args: Any) -> list[Entry]:
        columns = "user, key, turn_id, indexed, created_at, updated_at"
        query = f"SELECT {columns} FROM items WHERE root = ? AND {where} ORDER BY seq DESC"  # noqa: S608 - fixed text
        with self._lock:
            rows = self._db.execute(query, (root, *args)).fetchall()
        return [
            Entry(u, k, e, bool(i), datetime.fromisoformat(c), datetime.fromisoformat(t))
            for u, k, e, i, c, t in rows
        ]


class _Memory(Protocol):
    """What the store calls on a memory (an AsyncMemory, or a blocking one wrapped)."""

    def scope(self, user_id: str, org: str | None = None, project: str | None = None) -> str: ...

    async def add(
        self, messages: Any, *, user_id: str, org: str | None = None, project: str | None = None
    ) -> list[PublishResult]: ...

    async def search(
        self,
        query: str,
        *,
        user_id: str,
        limit: int = 5,
        org: str | None = None,
        project: str | None = None,
        threshold: float | None = None,
    ) -> SearchResult: ...

    async def evidence(
        self,
        evidence_ids: Sequence[str],
        *,
        user_id: str,
        org: str | None = None,
        project: str | None = None,
    ) -> list[EvidenceQuote | None]: ...

    async def erase(
        self,
        *,
        user_id: str,
        evidence_ids: Sequence[str] | None = None,
        reason: str = "",
        org: str | None = None,
        project: str | None = None,
    ) -> ErasureCompleted | ErasureQueued: ...

    async def data_dir(self) -> Path | None: ...


class _Blocking:
    """A blocking :class:`provmem.Memory` behind the store's async calls: each call
    returns without suspending, so :func:`_completed` runs them without a loop."""

    def __init__(self, memory: Any) -> None:
        self.memory = memory

    def scope(self, user_id: str, org: str | None = None, project: str | None = None) -> str:
        return str(self.memory.scope(user_id, org, project))

    async def add(self, messages: Any, **options: Any) -> list[PublishResult]:
        return list(self.memory.add(messages, **options))

    async def search(self, query: str, **options: Any) -> SearchResult:
        found: SearchResult = self.memory.search(query, **options)
        return found

    async def evidence(
        self, evidence_ids: Sequence[str], **options: Any
    ) -> list[EvidenceQuote | None]:
        return list(self.memory.evidence(evidence_ids, **options))

    async def erase(self, **options: Any) -> ErasureCompleted | ErasureQueued:
        receipt: ErasureCompleted | ErasureQueued = self.memory.erase(**options)
        return receipt

    async def data_dir(self) -> Path | None:
        folder: Path | None = self.memory.data_dir()
        return folder


def _completed(work: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (every await in it ends at a
    blocking call), run here without an event loop: so ``batch`` works from plain code
    and from a thread that runs a loop alike."""
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    work.close()
    raise RuntimeError("ProvmemStore: a blocking call suspended")


class ProvmemStore(BaseStore):
    """LangGraph's ``BaseStore`` over a provmem memory: a blocking :class:`provmem.Memory`
    (``batch`` and, in a worker thread, ``abatch``) or an :class:`provmem.AsyncMemory`
    (``abatch``; ``batch`` refuses it with a TypeError naming ``abatch``).

    ``org``/``project`` choose where the namespaces live (default: the memory's);
    ``path`` is the index file (default: ``langgraph-store.sqlite3`` in the memory's data
    folder, required against a server); ``speaker`` says the items' turns."""

    def __init__(
        self,
        memory: Any,
        *,
        org: str | None = None,
        project: str | None = None,
        path: str | Path | None = None,
        speaker: str = SPEAKER,
    ) -> None:
        self.memory = memory
        self.org, self.project, self.speaker = org, project, speaker
        self._path = None if path is None else Path(path)
        self._index: Index | None = None
        self._opening = threading.Lock()
        self._erased_when_missing = False

    # LangGraph's two entry points

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return _completed(self._batch(list(ops), self._blocking()))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        if isinstance(self.memory, AsyncMemory):
            return await self._batch(list(ops), self.memory)
        return await asyncio.to_thread(self.batch, list(ops))

    # provmem's own: forgetting, with a receipt

    def erase(
        self, namespace: tuple[str, ...], key: str | None = None, *, reason: str = ""
    ) -> ErasureCompleted | ErasureQueued | None:
        """Erase a key's values, every one it has had (``key`` None: the namespace's
        user, whole) and what provmem derived from them; the receipt, or None when
        there was nothing to erase."""
        return _completed(self._erase(self._blocking(), namespace, key, reason))

    async def aerase(
        self, namespace: tuple[str, ...], key: str | None = None, *, reason: str = ""
    ) -> ErasureCompleted | ErasureQueued | None:
        """:meth:`erase` for asyncio code."""
        if isinstance(self.memory, AsyncMemory):
            return await self._erase(self.memory, namespace, key, reason)
        return await asyncio.to_thread(self.erase, namespace, key, reason=reason)

    def close(self) -> None:
        """Close the index (the memory stays open: it is the caller's)."""
        if self._index is not None:
            self._index.close()
            self._index = None

    # the work

    def _blocking(self) -> _Blocking:
        if isinstance(self.memory, AsyncMemory):
            raise TypeError("memory: an AsyncMemory answers abatch (aget, aput, asearch...)")
        return _Blocking(self.memory)

    def _root(self, memory: _Memory) -> str:
        return memory.scope("-", self.org, self.project).rsplit("/", 1)[0]

    def _where(self) -> dict[str, Any]:
        return {"org": self.org, "project": self.project}

    async def _opened(self, memory: _Memory) -> Index:
        if self._index is None:
            folder = await memory.data_dir()
            # embedded, a read sees every write: a value not found was erased; a server's
            # evidence route may not have derived a recent put yet (services/api/app.py)
            self._erased_when_missing = folder is not None
            path = self._path
            if path is None:
                if folder is None:
                    raise ValueError("path: give the store's index file against a server")
                path = folder / INDEX_FILE
            with self._opening:
                if self._index is None:
                    self._index = Index(path)
        return self._index

    async def _batch(self, ops: list[Op], memory: _Memory) -> list[Result]:
        """Reads see the store as it was before the batch; its puts (the last one of
        each key) are applied after them, as in LangGraph's InMemoryStore."""
        for op in ops:
            validate_op_namespace(op)
        index, root = await self._opened(memory), self._root(memory)
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(await self._get(op, memory, index, root))
            elif isinstance(op, SearchOp):
                results.append(await self._search(op, memory, index, root))
            elif isinstance(op, ListNamespacesOp):
                results.append(list_namespaces(index.users(root), op))
            elif isinstance(op, PutOp):
                results.append(None)
            else:
                raise TypeError(f"ops: {type(op).__name__} is not a store operation")
        puts = {(op.namespace, op.key): op for op in ops if isinstance(op, PutOp)}
        await self._put(list(puts.values()), memory, index, root)
        return results

    async def _get(self, op: GetOp, memory: _Memory, index: Index, root: str) -> Item | None:
        entry = index.entry(root, user_id(op.namespace), op.key)
        if entry is None:
            return None
        found = await self._items([entry], memory, index, root)
        return found[0] if found else None

    async def _items(
        self, entries: Sequence[Entry], memory: _Memory, index: Index, root: str
    ) -> list[Item]:
        """The entries' items, their values read from their evidence; an entry whose
        evidence provmem erased leaves the index (embedded; a server's is skipped)."""
        by_user: dict[str, list[Entry]] = {}
        for entry in entries:
            by_user.setdefault(entry.user, []).append(entry)
        values: dict[tuple[str, str], dict[str, Any]] = {}
        for user, group in by_user.items():
            ids = [self._evidence_id(memory, e.user, e.key, e.turn_id) for e in group]
            quotes = await memory.evidence(ids, user_id=user, **self._where())
            for entry, found in zip(group, quotes, strict=True):
                if found is None and self._erased_when_missing:
                    index.drop(root, entry.user, entry.key)
                elif found is not None:
                    values[(entry.user, entry.key)] = json.loads(found.quote)
        return [
            Item(
                value=values[(e.user, e.key)],
                key=e.key,
                namespace=e.namespace,
                created_at=e.created_at,
                updated_at=e.updated_at,
            )
            for e in entries
            if (e.user, e.key) in values
        ]

    async def _search(
        self, op: SearchOp, memory: _Memory, index: Index, root: str
    ) -> list[SearchItem]:
        entries = index.entries(root, op.namespace_prefix)
        items = [
            item
            for item in await self._items(entries, memory, index, root)
            if matches(item.value, op.filter)
        ]
        scores: dict[tuple[str, str], float] = {}
        if op.query and op.query.strip():
            indexed = {(e.user, e.key): e for e in entries if e.indexed}
            scores = await self._scores(op.query, items, indexed, memory, index, root)
            items = _ranked(items, scores)
        page = items[op.offset : op.offset + op.limit]
        return [_scored(item, scores.get(_place(item))) for item in page]

    async def _scores(
        self,
        query: str,
        items: Sequence[Item],
        indexed: Mapping[tuple[str, str], Entry],
        memory: _Memory,
        index: Index,
        root: str,
    ) -> dict[tuple[str, str], float]:
        """Each item's similarity to ``query`` as provmem's search ranks its namespace
        (the best of the bundles its evidence supports)."""
        owner = {
            self._evidence_id(memory, *_place(i), indexed[_place(i)].turn_id): i
            for i in items
            if _place(i) in indexed
        }
        scores: dict[tuple[str, str], float] = {}
        for user in sorted({user_id(item.namespace) for item in owner.values()}):
            # the search ranks the whole namespace: earlier values and their facts too
            limit = min(_SEARCH_CAP, 2 * len(index.versions(root, user, None)))
            found = await memory.search(
                query, user_id=user, limit=limit, threshold=0.0, **self._where()
            )
            for bundle in found:
                for evidence in bundle.evidence:
                    item = owner.get(evidence.evidence_id)
                    if item is not None and evidence.role == "direct":
                        best = max(scores.get(_place(item), 0.0), float(bundle.similarity))
                        scores[_place(item)] = best
        return scores

    async def _put(self, puts: Sequence[PutOp], memory: _Memory, index: Index, root: str) -> None:
        by_user: dict[str, list[PutOp]] = {}
        for op in puts:
            by_user.setdefault(user_id(op.namespace), []).append(op)
        for user, group in by_user.items():
            for op in group:
                if op.value is None:
                    index.drop(root, user, op.key)
            kept = [op for op in group if op.value is not None]
            if kept:
                turns = [self._turn(op) for op in kept]
                added = await memory.add(turns, user_id=user, **self._where())
                for op, turn, result in zip(kept, turns, added, strict=True):
                    if result.evidence_id != self._evidence_id(
                        memory, user, op.key, turn["turn_id"]
                    ):
                        raise RuntimeError(f"put {op.namespace}/{op.key}: {result}")
                    index.save(root, _entry(index.entry(root, user, op.key), user, op, turn))

    def _turn(self, op: PutOp) -> dict[str, Any]:
        """The turn that remembers a put's value: the value as JSON, said by the store's
        speaker, its source the item."""
        turn: dict[str, Any] = {
            "speaker": self.speaker,
            "text": json.dumps(op.value, ensure_ascii=False),
            "turn_id": f"lgs_{uuid.uuid4().hex}",
            "source_uri": source_uri(user_id(op.namespace), op.key),
        }
        return turn

    def _evidence_id(self, memory: _Memory, user: str, key: str, turn_id: str) -> str:
        """The evidence id provmem gives a value's turn (core/ids.py): the index keeps
        turn ids, never evidence ids, which an erasure's audit looks for on disk."""
        return evidence_id(
            memory.scope(user, self.org, self.project), source_uri(user, key), turn_id
        )

    async def _erase(
        self, memory: _Memory, ns: tuple[str, ...], key: str | None, reason: str
    ) -> ErasureCompleted | ErasureQueued | None:
        index, root, user = await self._opened(memory), self._root(memory), user_id(ns)
        ids = [self._evidence_id(memory, user, k, t) for k, t in index.versions(root, user, key)]
        index.forget(root, user, key)
        if key is None:
            return await memory.erase(user_id=user, reason=reason, **self._where())
        if not ids:
            return None
        return await memory.erase(user_id=user, evidence_ids=ids, reason=reason, **self._where())


def source_uri(user: str, key: str) -> str:
    """Where an item's turns come from: ``langgraph-store:<user>/<key>`` (quoted; a
    digest of both when that is longer than a source may be).

    >>> source_uri("users.ann", "m 1")
    'langgraph-store:users.ann/m%201'
    """
    named = f"langgraph-store:{quote(user, safe='')}/{quote(key, safe='')}"
    if len(named) <= MAX_SOURCE_URI:
        return named
    return "langgraph-store:sha256:" + hashlib.sha256(f"{user}\x1f{key}".encode()).hexdigest()


def _entry(before: Entry | None, user: str, op: PutOp, turn: Mapping[str, Any]) -> Entry:
    now = datetime.now(UTC)
    created = before.created_at if before is not None else now
    indexed = op.index is not False
    return Entry(user, op.key, turn["turn_id"], indexed, created, now)


def _place(item: Item) -> tuple[str, str]:
    return user_id(item.namespace), item.key


def _ranked(items: Sequence[Item], scores: Mapping[tuple[str, str], float]) -> list[Item]:
    """The scored items best first, then the rest (not indexed, or not found by the
    search) as listed, as LangGraph's InMemoryStore ranks them."""
    scored = sorted((i for i in items if _place(i) in scores), key=lambda i: -scores[_place(i)])
    return [*scored, *(i for i in items if _place(i) not in scores)]


def _scored(item: Item, score: float | None) -> SearchItem:
    return SearchItem(item.namespace, item.key, item.value, item.created_at, item.updated_at, score)


# LangGraph's filter and namespace-matching semantics (langgraph.store.memory)


def matches(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    """Whether a value passes a LangGraph search filter: each key equal to its filter
    value (a dict compares field by field, a list item by item), or passing its
    operators (``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``). A dotted key
    absent from the value reads a nested field.

    >>> matches({"n": 3, "tag": "a"}, {"n": {"$gt": 2}, "tag": "a"})
    True
    """
    return all(_holds(_field(value, key), wanted) for key, wanted in (filter or {}).items())


def _field(value: Mapping[str, Any], key: str) -> Any:
    if key in value or "." not in key:
        return value.get(key)
    found: Any = value
    for part in key.split("."):
        found = found.get(part) if isinstance(found, Mapping) else None
    return found


def _holds(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(value, op, operand) for op, operand in wanted.items())
        if not isinstance(value, Mapping):
            return False
        return all(_holds(value.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(wanted)
            and all(_holds(v, w) for v, w in zip(value, wanted, strict=True))
        )
    return bool(value == wanted)


def _operator(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(value == operand)
    if op == "$ne":
        return bool(value != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"filter: unsupported operator {op!r} ($eq $ne $gt $gte $lt $lte)")
    try:
        left, right = float(value), float(operand)
    except (TypeError, ValueError):
        return False
    return {"$gt": left > right, "$gte": left >= right, "$lt": left < right}.get(op, left <= right)


def list_namespaces(users: Iterable[str], op: ListNamespacesOp) -> list[tuple[str, ...]]:
    """The namespaces (of these users) that meet ``op``'s conditions, cut to its
    ``max_depth``, sorted, paged."""
    found = [
        ns
        for ns in map(namespace, users)
        if all(_meets(condition, ns) for condition in op.match_conditions or ())
    ]
    if op.max_depth is not None:
        found = list({ns[: op.max_depth] for ns in found})
    return sorted(found)[op.offset : op.offset + op.limit]


def _meets(condition: MatchCondition, ns: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(ns) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(ns, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(ns), reversed(path), strict=False)
    else:
        raise ValueError(f"match_type: {condition.match_type!r} is not prefix or suffix")
    return all(want == "*" or label == want for label, want in pairs)


__all__ = ["Entry", "Index", "ProvmemStore", "list_namespaces", "matches", "namespace", "user_id"]
