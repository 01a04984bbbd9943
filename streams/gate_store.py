"""Persist the gate's per-scope memory in a StateStore, one record per fact.

Keys: ``gate|<scope>|index`` holds the revision and the ids of every fact the
scope has; ``gate|<scope>|fact|<id>`` holds a fact, its vector (float32) and, for an open
reading, its attribute phrase with the vectors of its parts (float16: they are compared,
never searched); the record is sealed like the fact (infra/crypto/sealing.py);
``gate|<scope>|seen|<evidence id>`` marks a turn the gate has handled. A cache
keeps the decoded memory of recent scopes while its revision matches. An erasure of a
whole scope reads only the facts' versions (:meth:`GateStore.versions`, no vectors, no
validation) and empties the scope (:meth:`GateStore.clear`). A ``namespace``
(``gN/``, see infra/stores/generations.py) prefixes every key of a replay's generation.
"""

from __future__ import annotations

import base64
import json
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from provmem.core.events import Fact
from provmem.core.facts.memory_state import AttributeVectors, ScopeMemory, Vector
from provmem.core.ports import BulkStateStore
from provmem.core.scope import Scope

CACHE_SCOPES = 256
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

    def _key(self, scope_key: str, *parts: str) -> str:
        return self.namespace + _key(scope_key, *parts)

    async def _read(self, key: str, pending: Mapping[str, bytes]) -> bytes | None:
        return pending[key] if key in pending else await self._state.load(key)

    async def seen(self, scope_key: str, evidence_id: str, pending: Mapping[str, bytes]) -> bool:
        return await self._read(self._key(scope_key, "seen", evidence_id), pending) is not None

    async def load(self, scope_key: str, pending: Mapping[str, bytes]) -> tuple[int, ScopeMemory]:
        """The scope's memory and its revision (0 and empty for a new scope)."""
        raw = await self._read(self._key(scope_key, "index"), pending)
        index: dict[str, Any] = json.loads(raw) if raw else {"revision": 0, "facts": []}
        cached = self._cache.get(scope_key)
        if cached is not None and cached[0] == index["revision"]:
            self._cache.move_to_end(scope_key)
            return cached
        records = await self._fact_records(scope_key, index["facts"], pending)
        decoded = [
            _entry(fact_id, raw) for fact_id, raw in zip(index["facts"], records, strict=True)
        ]
        entries = [(fact, vector) for fact, vector, _ in decoded]
        attributes = {fact.fact_id: found for fact, _, found in decoded if found is not None}
        memory = ScopeMemory.restore(
            entries, index.get("active", []), index.get("distances", {}), attributes
        )
        loaded = (int(index["revision"]), memory)
        self._remember(scope_key, loaded)
        return loaded

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
        validating facts (from the cached memory when it is current)."""
        raw = await self._state.load(self._key(scope_key, "index"))
        index: dict[str, Any] = json.loads(raw) if raw else {"revision": 0, "facts": []}
        revision = int(index["revision"])
        cached = self._cache.get(scope_key)
        if cached is not None and cached[0] == revision:
            facts = cached[1].facts.values()
            return revision, [FactVersion(f.fact_id, f.scope, f.version) for f in facts]
        return revision, _versions(index["facts"], await self._fields(scope_key, index["facts"]))

    async def _fields(self, scope_key: str, fact_ids: list[str]) -> list[_Fields | None]:
        """Each fact record's version and scope (JSON text), extracted by the store (the
        embedded one: SQLite's JSON functions)."""
        keys = self.fact_keys(scope_key, fact_ids)
        found = await self._state.load_fields_many(keys, ("$.fact.version", "$.fact.scope"))
        return [_as_fields(found.get(key)) for key in keys]

    async def clear(
        self, scope_key: str, revision: int, fact_ids: list[str], erased_evidence: list[str]
    ) -> None:
        """Empty the scope's memory (every fact erased): drop its fact records and the
        erased turns' ``seen`` marks, then save an empty index at the next revision."""
        stale = self.fact_keys(scope_key, fact_ids) + self.seen_keys(scope_key, erased_evidence)
        index = {"revision": revision + 1, "facts": [], "active": [], "distances": {}}
        await self._replace(stale, {self._key(scope_key, "index"): json.dumps(index).encode()})
        self._remember(scope_key, (revision + 1, ScopeMemory()))

    def dump(
        self,
        scope_key: str,
        revision: int,
        before: ScopeMemory,
        after: ScopeMemory,
        evidence_id: str,
    ) -> dict[str, bytes]:
        """The records to save for one handled turn; the cache moves to the new revision."""
        writes = {self._key(scope_key, "seen", evidence_id): b"1"}
        for fact_id, fact in after.facts.items():
            if before.facts.get(fact_id) is not fact:
                writes[self._key(scope_key, "fact", fact_id)] = _encode(
                    fact, after.vectors[fact_id], after.attributes.get(fact_id)
                )
        index = {
            "revision": revision + 1,
            "facts": sorted(after.facts),
            "active": list(after.active),
            "distances": dict(after.nearest_distance),
        }
        writes[self._key(scope_key, "index")] = json.dumps(index).encode()
        self._remember(scope_key, (revision + 1, after))
        return writes

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
            raise LookupError(f"gate state of {fact_id} is missing")
        version, scope = record
        if scope not in scopes:
            scopes[scope] = Scope.model_validate_json(scope)
        found.append(FactVersion(fact_id, scopes[scope], int(version)))
    return found


def _entry(fact_id: str, raw: bytes | None) -> tuple[Fact, Vector, AttributeVectors | None]:
    if raw is None:
        raise LookupError(f"gate state of {fact_id} is missing")
    record = json.loads(raw)
    vector = np.frombuffer(base64.b64decode(record["vector"]), dtype=np.float32)
    fact = Fact.model_validate(record["fact"])
    return fact, vector.copy(), _attribute(record.get("attribute"))


def _encode(fact: Fact, vector: Vector, attribute: AttributeVectors | None = None) -> bytes:
    record: dict[str, object] = {"fact": fact.model_dump(mode="json"), "vector": _packed(vector)}
    if attribute is not None:
        parts = {text: _packed(part, np.float16) for text, part in attribute.parts.items()}
        record["attribute"] = {"phrase": attribute.phrase, "parts": parts}
    return json.dumps(record).encode()


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
