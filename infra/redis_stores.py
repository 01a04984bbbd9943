"""Redis adapters: evidence view, fact views and data keys, all under one key prefix.

Keys (``P`` is the deployment's prefix):
``P:evidence:{id}`` evidence JSON; ``P:fact:{id}`` hash {version, body};
``P:scope:{scope}:facts`` set of fact ids; ``P:evfacts:{evidence}`` set of fact ids;
``P:history:{fact}`` sorted set of bodies by version; ``P:key:{id}`` wrapped data key.
"""

from __future__ import annotations

import json

import redis.asyncio as aioredis

from ..core.events import Fact, FactChanged, FactOp, TurnRecorded

# Apply a fact version only when it is newer than the stored one (idempotent redelivery).
_UPSERT = """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local version = tonumber(ARGV[1])
if current >= version then return 0 end
redis.call('HSET', KEYS[1], 'version', version, 'body', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[3], version, ARGV[2])
local evidence = cjson.decode(ARGV[4])
for _, ev in ipairs(evidence) do redis.call('SADD', ARGV[5] .. ev, ARGV[3]) end
local indexes = cjson.decode(ARGV[6])
for _, key in ipairs(indexes) do redis.call('SADD', key, ARGV[3]) end
return 1
"""


class RedisKeys:
    """Builds every Redis key from one prefix, so a deployment or a test owns its keys."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def evidence(self, evidence_id: str) -> str:
        return f"{self.prefix}:evidence:{evidence_id}"

    def fact(self, fact_id: str) -> str:
        return f"{self.prefix}:fact:{fact_id}"

    def scope_facts(self, scope_key: str) -> str:
        return f"{self.prefix}:scope:{scope_key}:facts"

    def evidence_facts_prefix(self) -> str:
        return f"{self.prefix}:evfacts:"

    def entity(self, scope_key: str, entity: str) -> str:
        return f"{self.prefix}:entity:{scope_key}:{entity.lower()}"

    def slot(self, scope_key: str, slot: str) -> str:
        return f"{self.prefix}:slot:{scope_key}:{slot}"

    def indexes(self, fact: Fact) -> list[str]:
        """The entity and slot index keys a fact belongs to."""
        scope = fact.scope.key
        keys = [self.entity(scope, entity) for entity in fact.entities]
        return keys + ([self.slot(scope, fact.slot)] if fact.slot else [])

    def history(self, fact_id: str) -> str:
        return f"{self.prefix}:history:{fact_id}"

    def data_key(self, key_id: str) -> str:
        return f"{self.prefix}:key:{key_id}"

    def data_key_pattern(self) -> str:
        return f"{self.prefix}:key:*"

    def source(self, scope_key: str, source_uri: str) -> str:
        return f"{self.prefix}:source:{scope_key}:{source_uri}"

    def sequence(self) -> str:
        return f"{self.prefix}:evidence-seq"

    def publication(self, evidence_id: str) -> str:
        return f"{self.prefix}:published:{evidence_id}"


class RedisEvidenceStore:
    def __init__(self, client: aioredis.Redis, keys: RedisKeys) -> None:
        self._redis = client
        self._keys = keys

    async def put(self, turn: TurnRecorded) -> bool:
        stored = await self._redis.set(
            self._keys.evidence(turn.evidence_id), turn.model_dump_json(), nx=True
        )
        source = self._keys.source(turn.scope.key, turn.source_uri)
        if await self._redis.zscore(source, turn.evidence_id) is None:  # also after a crash
            position = await self._redis.incr(self._keys.sequence())
            await self._redis.zadd(source, {turn.evidence_id: position}, nx=True)
        return bool(stored)

    async def neighbours(self, evidence_id: str, radius: int) -> list[TurnRecorded]:
        turn = await self.get(evidence_id)
        if turn is None:
            return []
        source = self._keys.source(turn.scope.key, turn.source_uri)
        rank = await self._redis.zrank(source, evidence_id)
        if rank is None:
            return [turn]
        ids = await self._redis.zrange(source, max(0, rank - radius), rank + radius)
        turns = [await self.get(i.decode()) for i in ids]
        return [t for t in turns if t is not None]

    async def get(self, evidence_id: str) -> TurnRecorded | None:
        raw = await self._redis.get(self._keys.evidence(evidence_id))
        return None if raw is None else TurnRecorded.model_validate_json(raw)

    async def ids_in_scope(self, scope_key: str) -> list[str]:
        pattern = self._keys.source(scope_key, "*")
        ids: list[str] = []
        async for source in self._redis.scan_iter(match=pattern, count=500):
            ids += [member.decode() for member in await self._redis.zrange(source, 0, -1)]
        return ids

    async def delete(self, evidence_id: str) -> bool:
        turn = await self.get(evidence_id)
        removed = await self._redis.delete(self._keys.evidence(evidence_id))
        if turn is not None:
            await self._redis.zrem(self._keys.source(turn.scope.key, turn.source_uri), evidence_id)
        await self.release(evidence_id)
        return bool(removed)

    async def reserve(self, evidence_id: str) -> bool:
        return bool(await self._redis.set(self._keys.publication(evidence_id), 1, nx=True))

    async def release(self, evidence_id: str) -> None:
        await self._redis.delete(self._keys.publication(evidence_id))

    async def close(self) -> None:
        await self._redis.aclose()


class RedisFactViews:
    def __init__(self, client: aioredis.Redis, keys: RedisKeys) -> None:
        self._redis = client
        self._keys = keys
        self._upsert = client.register_script(_UPSERT)

    async def apply(self, change: FactChanged) -> bool:
        if change.op is FactOp.ERASE:
            return await self._erase(change)
        fact = change.fact
        if fact is None:
            return False
        previous = await self.get(fact.fact_id)
        keys = [
            self._keys.fact(fact.fact_id),
            self._keys.scope_facts(fact.scope.key),
            self._keys.history(fact.fact_id),
        ]
        args = [
            fact.version,
            fact.model_dump_json(),
            fact.fact_id,
            json.dumps(list(fact.evidence_ids)),
            self._keys.evidence_facts_prefix(),
            json.dumps(self._keys.indexes(fact)),
        ]
        applied = bool(await self._upsert(keys=keys, args=args))
        if applied and previous is not None:
            await self._drop_stale(previous, fact)
        return applied

    async def _drop_stale(self, previous: Fact, fact: Fact) -> None:
        """Unlink evidence and index entries the new version no longer has, and history
        versions citing evidence the fact no longer has (erased evidence)."""
        live = set(fact.evidence_ids)
        for evidence_id in set(previous.evidence_ids) - live:
            await self._redis.srem(self._keys.evidence_facts_prefix() + evidence_id, fact.fact_id)
        for index in set(self._keys.indexes(previous)) - set(self._keys.indexes(fact)):
            await self._redis.srem(index, fact.fact_id)
        for body in await self._redis.zrange(self._keys.history(fact.fact_id), 0, -1):
            if not set(Fact.model_validate_json(body).evidence_ids) <= live:
                await self._redis.zrem(self._keys.history(fact.fact_id), body)

    async def _erase(self, change: FactChanged) -> bool:
        current = await self.get(change.fact_id)
        pipe = self._redis.pipeline(transaction=True)
        pipe.delete(self._keys.fact(change.fact_id), self._keys.history(change.fact_id))
        pipe.srem(self._keys.scope_facts(change.scope.key), change.fact_id)
        for evidence_id in current.evidence_ids if current else ():
            pipe.srem(self._keys.evidence_facts_prefix() + evidence_id, change.fact_id)
        for index in self._keys.indexes(current) if current else ():
            pipe.srem(index, change.fact_id)
        results = await pipe.execute()
        return bool(results[0])

    async def get(self, fact_id: str) -> Fact | None:
        raw = await self._redis.hget(self._keys.fact(fact_id), "body")
        return None if raw is None else Fact.model_validate_json(raw)

    async def facts_in_scope(self, scope_key: str) -> list[Fact]:
        members = await self._redis.smembers(self._keys.scope_facts(scope_key))
        ids = sorted(member.decode() for member in members)
        facts = [await self.get(fact_id) for fact_id in ids]
        return [fact for fact in facts if fact is not None]

    async def facts_for_evidence(self, evidence_id: str) -> list[str]:
        members = await self._redis.smembers(self._keys.evidence_facts_prefix() + evidence_id)
        return sorted(m.decode() for m in members)

    async def facts_for_entity(self, scope_key: str, entity: str) -> list[str]:
        members = await self._redis.smembers(self._keys.entity(scope_key, entity))
        return sorted(member.decode() for member in members)

    async def facts_for_slot(self, scope_key: str, slot: str) -> list[str]:
        members = await self._redis.smembers(self._keys.slot(scope_key, slot))
        return sorted(member.decode() for member in members)

    async def history(self, fact_id: str) -> list[Fact]:
        bodies = await self._redis.zrange(self._keys.history(fact_id), 0, -1)
        return [Fact.model_validate_json(body) for body in bodies]

    async def close(self) -> None:
        await self._redis.aclose()


class RedisKeyStore:
    def __init__(self, client: aioredis.Redis, keys: RedisKeys) -> None:
        self._redis = client
        self._keys = keys

    async def get(self, key_id: str) -> bytes | None:
        raw = await self._redis.get(self._keys.data_key(key_id))
        return None if raw is None else bytes(raw)

    async def put_if_absent(self, key_id: str, wrapped: bytes) -> bytes:
        await self._redis.set(self._keys.data_key(key_id), wrapped, nx=True)
        stored = await self.get(key_id)
        assert stored is not None  # noqa: S101 - just set or already present
        return stored

    async def key_ids(self) -> list[str]:
        start = len(self._keys.data_key(""))
        found = self._redis.scan_iter(match=self._keys.data_key_pattern(), count=500)
        return sorted([key.decode()[start:] async for key in found])

    async def replace(self, key_id: str, wrapped: bytes) -> None:
        await self._redis.set(self._keys.data_key(key_id), wrapped, xx=True)

    async def destroy(self, key_id: str) -> bool:
        return bool(await self._redis.delete(self._keys.data_key(key_id)))

    async def close(self) -> None:
        await self._redis.aclose()
