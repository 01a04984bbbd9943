"""Persist the gate's per-scope memory in a StateStore, one record per fact.

Keys: ``gate|<scope>|index`` holds the revision and the ids of every fact the
scope has; ``gate|<scope>|fact|<id>`` holds a fact and its vector (float32);
``gate|<scope>|seen|<evidence id>`` marks a turn the gate has handled. A cache
keeps the decoded memory of recent scopes while its revision matches. A ``namespace``
(``gN/``, see infra/generations.py) prefixes every key of a replay's generation.
"""

from __future__ import annotations

import base64
import json
from collections import OrderedDict
from collections.abc import Mapping

import numpy as np

from ..core.events import Fact
from ..core.memory_state import ScopeMemory, Vector
from ..core.ports import StateStore

CACHE_SCOPES = 256


def _key(scope_key: str, *parts: str) -> str:
    return "|".join(("gate", scope_key, *parts))


class GateStore:
    def __init__(self, state: StateStore, namespace: str = "") -> None:
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
        index = json.loads(raw) if raw else {"revision": 0, "facts": []}
        cached = self._cache.get(scope_key)
        if cached is not None and cached[0] == index["revision"]:
            self._cache.move_to_end(scope_key)
            return cached
        entries = [await self._entry(scope_key, i, pending) for i in index["facts"]]
        memory = ScopeMemory.restore(entries, index.get("active", []), index.get("distances", {}))
        loaded = (int(index["revision"]), memory)
        self._remember(scope_key, loaded)
        return loaded

    async def _entry(
        self, scope_key: str, fact_id: str, pending: Mapping[str, bytes]
    ) -> tuple[Fact, Vector]:
        raw = await self._read(self._key(scope_key, "fact", fact_id), pending)
        if raw is None:
            raise LookupError(f"gate state of {fact_id} is missing")
        record = json.loads(raw)
        vector = np.frombuffer(base64.b64decode(record["vector"]), dtype=np.float32)
        return Fact.model_validate(record["fact"]), vector.copy()

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
                    fact, after.vectors[fact_id]
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
        for fact_id in set(before.facts) - set(after.facts):
            await self._state.delete(self._key(scope_key, "fact", fact_id))
        for evidence_id in erased_evidence:
            await self._state.delete(self._key(scope_key, "seen", evidence_id))
        writes = self.dump(scope_key, revision, before, after, "")
        writes.pop(self._key(scope_key, "seen", ""))
        for key, value in writes.items():
            await self._state.save(key, value)

    def fact_keys(self, scope_key: str, fact_ids: list[str]) -> list[str]:
        return [self._key(scope_key, "fact", fact_id) for fact_id in fact_ids]

    def seen_keys(self, scope_key: str, evidence_ids: list[str]) -> list[str]:
        return [self._key(scope_key, "seen", evidence_id) for evidence_id in evidence_ids]

    def _remember(self, scope_key: str, entry: tuple[int, ScopeMemory]) -> None:
        self._cache[scope_key] = entry
        self._cache.move_to_end(scope_key)
        while len(self._cache) > CACHE_SCOPES:
            self._cache.popitem(last=False)


def _encode(fact: Fact, vector: Vector) -> bytes:
    packed = base64.b64encode(vector.astype(np.float32).tobytes()).decode("ascii")
    return json.dumps({"fact": fact.model_dump(mode="json"), "vector": packed}).encode()
