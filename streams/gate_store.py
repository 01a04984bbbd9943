"""Persist the gate's per-scope memory in a StateStore, one record per fact.

Keys: ``gate|<scope>|index`` holds the revision and how many facts the scope has;
``gate|<scope>|ids|<n>|index`` holds the ids of its facts ``n*PAGE`` to ``(n+1)*PAGE``
(in the order the scope first knew them; sealed like an index: infra/crypto/sealing.py);
``gate|<scope>|fact|<id>`` holds a fact, its vector (float32), its place in the active
order and its distance to its nearest other active fact, and, for an open reading, its
attribute phrase with the vectors of its parts (float16: they are compared, never
searched); the record is sealed like the fact; ``gate|<scope>|seen|<evidence id>`` marks
a turn the gate has handled. A turn writes the records of the facts it touched (put, or
given a lower distance), the last page of ids if it added facts, and the small index:
never the whole scope. An index of the earlier form (every id, the active order and the
distances in one record) is still read; the next turn rewrites the scope in this form.
A cache keeps the decoded memory of recent scopes while its revision matches. An erasure of a
whole scope reads only the facts' versions (:meth:`GateStore.versions`, no vectors, no
validation) and empties the scope (:meth:`GateStore.clear`). A ``namespace``
(``gN/``, see infra/stores/generations.py) prefixes every key of a replay's generation.
"""

from __future__ import annotations

import base64
import itertools
import json
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from provmem.core.events import Fact
from provmem.core.facts.memory_state import AttributeVectors, ScopeMemory, ValueState, Vector
from provmem.core.ports import BulkStateStore
from provmem.core.scope import Scope

CACHE_SCOPES = 256
PAGE = 128  # fact ids per page of the scope's id list
FORMAT = 2  # the index's form: 1 (no "format") listed every id, the order and distances
_Fields = tuple[int, str]  # a fact record's version and scope (JSON text)
BULK_READ_FROM = 64  # facts in a scope from which a cold load reads them in one query


@dataclass(frozen=True)
class FactVersion:
    """What an ERASE change needs of a fact: its id, scope and current version."""

    fact_id: str
    scope: Scope
    version: int


def _key(scope_key: str, *parts: str) -> str:
    return "|".join(("gate", scope_key, *parts))


class GateStore:
    def __init__(self, state: BulkStateStore, namespace: str = "") -> None:
        self._state = state
        self.namespace = namespace
        self._cache: OrderedDict[str, tuple[int, ScopeMemory]] = OrderedDict()
        self._earlier_form: set[str] = set()  # scopes loaded from an index of form 1

    def _key(self, scope_key: str, *parts: str) -> str:
        return self.namespace + _key(scope_key, *parts)

    async def _read(self, key: str, pending: Mapping[str, bytes]) -> bytes | None:
        return pending[key] if key in pending else await self._state.load(key)

    async def seen(self, scope_key: str, evidence_id: str, pending: Mapping[str, bytes]) -> bool:
        return await self._read(self._key(scope_key, "seen", evidence_id), pending) is not None

    async def load(self, scope_key: str, pending: Mapping[str, bytes]) -> tuple[int, ScopeMemory]:
        """The scope's memory and its revision (0 and empty for a new scope)."""
        index = await self._index(scope_key, pending)
        cached = self._cache.get(scope_key)
        if cached is not None and cached[0] == index["revision"]:
            self._cache.move_to_end(scope_key)
            return cached
        fact_ids = await self._ids(scope_key, index, pending)
        records = await self._fact_records(scope_key, fact_ids, pending)
        decoded = [_entry(fact_id, raw) for fact_id, raw in zip(fact_ids, records, strict=True)]
        memory = _restored(decoded, index)
        if index.get("format") != FORMAT and fact_ids:
            self._earlier_form.add(scope_key)
        loaded = (int(index["revision"]), memory)
        self._remember(scope_key, loaded)
        return loaded

    async def _index(self, scope_key: str, pending: Mapping[str, bytes]) -> dict[str, Any]:
        raw = await self._read(self._key(scope_key, "index"), pending)
        found: dict[str, Any] = json.loads(raw) if raw else {"revision": 0, "facts": []}
        return found

    async def _ids(
        self,
        scope_key: str,
        index: Mapping[str, Any],
        pending: Mapping[str, bytes],
        cleared: bool = False,
    ) -> list[str]:
        """The scope's fact ids: from its pages, or from an index of the earlier form
        (``cleared``: a page an interrupted :meth:`clear` deleted is skipped)."""
        if index.get("format") != FORMAT:
            return list(index["facts"])
        ids: list[str] = []
        for page in range(_pages(int(index["count"]))):
            raw = await self._read(self._page_key(scope_key, page), pending)
            if raw is None and not cleared:
                raise LookupError(f"gate state of {scope_key}: id page {page} is missing")
            ids.extend(json.loads(raw)["facts"] if raw is not None else [])
        return ids

    def _page_key(self, scope_key: str, page: int) -> str:
        return self._key(scope_key, "ids", str(page), "index")

    async def _fact_records(
        self, scope_key: str, fact_ids: list[str], pending: Mapping[str, bytes]
    ) -> list[bytes | None]:
        """The scope's fact records; one bulk read for a large cold scope."""
        keys = self.fact_keys(scope_key, fact_ids)
        if not pending and len(keys) >= BULK_READ_FROM:
            found = await self._state.load_many(keys)
            return [found.get(key) for key in keys]
        return [await self._read(key, pending) for key in keys]

    async def versions(self, scope_key: str) -> tuple[int, list[FactVersion]]:
        """The scope's revision and its facts' versions, without decoding vectors or
        validating facts (from the cached memory when it is current).

        For an erasure, which may be the retry of one whose :meth:`clear` was interrupted
        on a store without transactions (a worker's faust table deletes one key at a
        time, the index last): the fact records and id pages it already deleted, whose
        changes had gone out before (streams/erasure/cascade.py: send, then save), are
        skipped, so the retry clears the rest instead of failing for ever."""
        index = await self._index(scope_key, {})
        revision = int(index["revision"])
        cached = self._cache.get(scope_key)
        if cached is not None and cached[0] == revision:
            facts = cached[1].facts.values()
            return revision, [FactVersion(f.fact_id, f.scope, f.version) for f in facts]
        fact_ids = await self._ids(scope_key, index, {}, cleared=True)
        return revision, _versions(fact_ids, await self._fields(scope_key, fact_ids))

    async def _fields(self, scope_key: str, fact_ids: list[str]) -> list[_Fields | None]:
        """Each fact record's version and scope (JSON text), extracted by the store (the
        embedded one: SQLite's JSON functions)."""
        keys = self.fact_keys(scope_key, fact_ids)
        found = await self._state.load_fields_many(keys, ("$.fact.version", "$.fact.scope"))
        return [_as_fields(found.get(key)) for key in keys]

    async def clear(
        self, scope_key: str, revision: int, fact_ids: list[str], erased_evidence: list[str]
    ) -> None:
        """Empty the scope's memory (every fact erased): drop its fact records, pages of
        ids and the erased turns' ``seen`` marks, then save an empty index at the next
        revision."""
        stale = self.fact_keys(scope_key, fact_ids) + self.seen_keys(scope_key, erased_evidence)
        count = max(len(fact_ids), int((await self._index(scope_key, {})).get("count", 0)))
        stale += [self._page_key(scope_key, page) for page in range(_pages(count))]
        index = _index_record(revision + 1, 0)
        await self._replace(stale, {self._key(scope_key, "index"): index})
        self._earlier_form.discard(scope_key)
        self._remember(scope_key, (revision + 1, ScopeMemory()))

    def dump(
        self,
        scope_key: str,
        revision: int,
        before: ScopeMemory,
        after: ScopeMemory,
        evidence_id: str,
    ) -> dict[str, bytes]:
        """The records to save for one handled turn (those of the facts it touched, the
        last page of ids if it added facts, the index); the cache moves to the new
        revision. A memory not descended from ``before``, or one read from an index of
        the earlier form, is written whole."""
        writes = {self._key(scope_key, "seen", evidence_id): b"1"}
        whole = scope_key in self._earlier_form
        touched = list(after.facts) if whole else after.changed_since(before)
        known = len(before.facts) if touched is not None and not whole else 0
        for fact_id in _differing(before, after) if touched is None else touched:
            writes[self._key(scope_key, "fact", fact_id)] = _encode(
                after.facts[fact_id],
                after.vectors[fact_id],
                after.attributes.get(fact_id),
                after.row_state(fact_id),
                after.values.get(fact_id, ()),
            )
        if known == 0 or len(after.facts) > known:
            writes.update(self._pages_from(scope_key, after, known))
        writes[self._key(scope_key, "index")] = _index_record(revision + 1, len(after.facts))
        self._earlier_form.discard(scope_key)
        self._remember(scope_key, (revision + 1, after))
        return writes

    def _pages_from(self, scope_key: str, memory: ScopeMemory, known: int) -> dict[str, bytes]:
        """The pages of ids from the one holding fact number ``known`` to the last."""
        first = known // PAGE
        ids = list(itertools.islice(memory.facts, first * PAGE, None))
        return {
            self._page_key(scope_key, first + n): json.dumps(
                {"facts": ids[n * PAGE : (n + 1) * PAGE]}
            ).encode()
            for n in range(_pages(len(ids)))
        }

    async def replace(
        self,
        scope_key: str,
        revision: int,
        before: ScopeMemory,
        after: ScopeMemory,
        erased_evidence: list[str],
    ) -> None:
        """Swap in a rebuilt memory: drop what it no longer has, write what changed."""
        gone = sorted(set(before.facts) - set(after.facts))
        stale = self.fact_keys(scope_key, gone) + self.seen_keys(scope_key, erased_evidence)
        old_pages = range(_pages(len(after.facts)), _pages(len(before.facts)))
        stale += [self._page_key(scope_key, page) for page in old_pages]
        self._earlier_form.add(scope_key)  # written whole: its ids may be in another order
        writes = self.dump(scope_key, revision, before, after, "")
        writes.pop(self._key(scope_key, "seen", ""))
        await self._replace(stale, writes)

    async def _replace(self, deletes: list[str], saves: dict[str, bytes]) -> None:
        """Delete, then save: in one transaction where the store can (the embedded one),
        so a crash never leaves an index naming deleted fact records."""
        await self._state.replace_many(deletes, saves)

    def fact_keys(self, scope_key: str, fact_ids: list[str]) -> list[str]:
        return [self._key(scope_key, "fact", fact_id) for fact_id in fact_ids]

    def seen_keys(self, scope_key: str, evidence_ids: list[str]) -> list[str]:
        return [self._key(scope_key, "seen", evidence_id) for evidence_id in evidence_ids]

    def _remember(self, scope_key: str, entry: tuple[int, ScopeMemory]) -> None:
        self._cache[scope_key] = entry
        self._cache.move_to_end(scope_key)
        while len(self._cache) > CACHE_SCOPES:
            self._cache.popitem(last=False)


def _pages(count: int) -> int:
    return -(-count // PAGE)


def _index_record(revision: int, count: int) -> bytes:
    return json.dumps({"revision": revision, "format": FORMAT, "count": count}).encode()


def _differing(before: ScopeMemory, after: ScopeMemory) -> list[str]:
    """The facts whose record differs between two memories not descended one from the
    other (a rebuilt scope): a pass over the whole scope, for that rare case only."""
    return [
        fact_id
        for fact_id, fact in after.facts.items()
        if before.facts.get(fact_id) is not fact
        or before.row_state(fact_id) != after.row_state(fact_id)
    ]


_Entry = tuple[
    Fact, Vector, AttributeVectors | None, int | None, float | None, tuple[ValueState, ...]
]


def _restored(decoded: list[_Entry], index: Mapping[str, Any]) -> ScopeMemory:
    """The memory the records hold: the active order and distances from the records, or
    from an index of the earlier form."""
    entries = [(fact, vector) for fact, vector, *_ in decoded]
    attributes = {entry[0].fact_id: entry[2] for entry in decoded if entry[2] is not None}
    values = {entry[0].fact_id: entry[5] for entry in decoded if entry[5]}
    if index.get("format") != FORMAT:
        active, distances = index.get("active", []), index.get("distances", {})
        return ScopeMemory.restore(entries, active, distances, attributes, values=values)
    placed = sorted((e for e in decoded if e[3] is not None), key=lambda e: e[3] or 0)
    distances = {e[0].fact_id: e[4] for e in placed if e[4] is not None}
    orders = [e[3] or 0 for e in placed]
    active = [e[0].fact_id for e in placed]
    return ScopeMemory.restore(entries, active, distances, attributes, orders, values)


def _as_fields(found: tuple[object, ...] | None) -> _Fields | None:
    if found is None:
        return None
    version, scope = found
    return int(str(version)), str(scope)


def _versions(fact_ids: list[str], fields: list[_Fields | None]) -> list[FactVersion]:
    scopes: dict[str, Scope] = {}  # one validated Scope per distinct scope
    found = []
    for fact_id, record in zip(fact_ids, fields, strict=True):
        if record is None:
            continue  # deleted by an interrupted clear (GateStore.versions)
        version, scope = record
        if scope not in scopes:
            scopes[scope] = Scope.model_validate_json(scope)
        found.append(FactVersion(fact_id, scopes[scope], int(version)))
    return found


def _entry(fact_id: str, raw: bytes | None) -> _Entry:
    if raw is None:
        raise LookupError(f"gate state of {fact_id} is missing")
    record = json.loads(raw)
    vector = np.frombuffer(base64.b64decode(record["vector"]), dtype=np.float32)
    fact = Fact.model_validate(record["fact"])
    order, distance = record.get("order"), record.get("distance")
    values = tuple(_value(found) for found in record.get("values", ()))
    return fact, vector.copy(), _attribute(record.get("attribute")), order, distance, values


def _encode(
    fact: Fact,
    vector: Vector,
    attribute: AttributeVectors | None = None,
    row: tuple[int | None, float | None] = (None, None),
    values: tuple[ValueState, ...] = (),
) -> bytes:
    record: dict[str, object] = {"fact": fact.model_dump(mode="json"), "vector": _packed(vector)}
    record["order"], record["distance"] = row
    if attribute is not None:
        parts = {text: _packed(part, np.float16) for text, part in attribute.parts.items()}
        record["attribute"] = {"phrase": attribute.phrase, "parts": parts}
    if values:
        record["values"] = [_value_record(value) for value in values]
    return json.dumps(record).encode()


def _value_record(value: ValueState) -> dict[str, object]:
    return {
        "holder": value.holder,
        "attribute": value.attribute,
        "value": value.value,
        "group": value.group,
        "evidence_id": value.evidence_id,
        "at": value.at.isoformat(),
        "attribute_vector": _packed(value.attribute_vector, np.float16),
        "context_vector": _packed(value.context_vector, np.float16),
        "aliases": list(value.aliases),
    }


def _value(found: dict[str, Any]) -> ValueState:
    """A value state as saved (its vectors float16), back with float32 vectors."""
    return ValueState(
        holder=found["holder"],
        attribute=found["attribute"],
        value=found["value"],
        group=found["group"],
        evidence_id=found["evidence_id"],
        at=datetime.fromisoformat(found["at"]),
        attribute_vector=_unpacked16(found["attribute_vector"]),
        context_vector=_unpacked16(found["context_vector"]),
        aliases=tuple(found.get("aliases", ())),
    )


def _unpacked16(raw: str) -> Vector:
    return np.frombuffer(base64.b64decode(raw), dtype=np.float16).astype(np.float32)


def _packed(vector: Vector, dtype: type[np.floating] = np.float32) -> str:
    return base64.b64encode(vector.astype(dtype).tobytes()).decode("ascii")


def _attribute(found: dict[str, object] | None) -> AttributeVectors | None:
    """An attribute phrase's vectors as saved (float16), back as float32."""
    if found is None:
        return None
    parts = found["parts"]
    assert isinstance(parts, dict)  # noqa: S101 - written by _encode
    return AttributeVectors(
        str(found["phrase"]),
        {
            text: np.frombuffer(base64.b64decode(raw), dtype=np.float16).astype(np.float32)
            for text, raw in parts.items()
        },
    )
