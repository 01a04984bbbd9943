"""Redis adapters: evidence view, fact views and data keys, all under one key prefix.

Keys (``P`` is the deployment's prefix):
``P:evidence:{id}`` evidence JSON; ``P:fact:{id}`` hash {version, body};
``P:scope:{scope}:facts`` set of fact ids; ``P:scopes`` set of the scopes with facts (a
subject erasure removes its scope); ``P:evfacts:{evidence}`` set of fact ids;
``P:history:{fact}`` sorted set of bodies by version; ``P:key:{id}`` wrapped data key.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis

from provmem.core.events import Fact, FactChanged, FactOp, TurnRecorded
from provmem.infra.crypto.envelope import DEPLOYMENT_CHECK
from provmem.infra.crypto.sealing import Bodies, ViewSealer
from provmem.infra.stores.redis_client import bytes_of, text_of

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


@dataclass(frozen=True)
class _Stored:
    """What the views hold for one fact: its current version, its index keys and its
    history (stored bodies with the evidence each version cites)."""

    fact: Fact | None
    history: list[tuple[bytes, frozenset[str]]]
    indexes: frozenset[str] = frozenset()


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

    def scopes(self) -> str:
        """The set of scope keys that have (or had) facts in these views."""
        return f"{self.prefix}:scopes"

    def evidence_facts_prefix(self) -> str:
        return f"{self.prefix}:evfacts:"

    def entity(self, scope_key: str, entity_tag: str) -> str:
        """``entity_tag``: the lower-cased entity, or its keyed tag (infra/crypto/sealing.py)."""
        return f"{self.prefix}:entity:{scope_key}:{entity_tag}"

    def slot(self, scope_key: str, slot_tag: str) -> str:
        return f"{self.prefix}:slot:{scope_key}:{slot_tag}"

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
    def __init__(
        self, client: aioredis.Redis, keys: RedisKeys, sealer: ViewSealer | None = None
    ) -> None:
        self._redis = client
        self._keys = keys
        self._bodies = Bodies(sealer)

    async def put(self, turn: TurnRecorded) -> bool:
        body = await self._bodies.seal(turn.scope.key, turn.model_dump_json())
        stored = await self._redis.set(self._keys.evidence(turn.evidence_id), body, nx=True)
        source = await self._source(turn)
        if await self._redis.zscore(source, turn.evidence_id) is None:  # also after a crash
            position = await self._redis.incr(self._keys.sequence())
            await self._redis.zadd(source, {turn.evidence_id: position}, nx=True)
        return bool(stored)

    async def neighbours(self, evidence_id: str, radius: int) -> list[TurnRecorded]:
        turn = await self.get(evidence_id)
        if turn is None:
            return []
        source = await self._source(turn)
        rank = await self._redis.zrank(source, evidence_id)
        if rank is None:
            return [turn]
        at = rank if isinstance(rank, int) else int(rank[0])  # zrank without withscore
        ids = await self._redis.zrange(source, max(0, at - radius), at + radius)
        turns = [await self.get(text_of(i)) for i in ids]
        return [t for t in turns if t is not None]

    async def _source(self, turn: TurnRecorded) -> str:
        """The key of the turn's source index: the source URI as a keyed tag (a client's
        URI may name someone), like the entity index."""
        tag = await self._bodies.tag(turn.scope.key, "source", turn.source_uri)
        return self._keys.source(turn.scope.key, tag)

    async def get(self, evidence_id: str) -> TurnRecorded | None:
        raw = await self._redis.get(self._keys.evidence(evidence_id))
        return None if raw is None else await self._bodies.turn(raw)

    async def ids_in_scope(self, scope_key: str) -> list[str]:
        pattern = self._keys.source(scope_key, "*")
        ids: list[str] = []
        async for source in self._redis.scan_iter(match=pattern, count=500):
            ids += [text_of(member) for member in await self._redis.zrange(source, 0, -1)]
        return ids

    async def delete(self, evidence_id: str) -> bool:
        turn = await self.get(evidence_id)
        removed = await self._redis.delete(self._keys.evidence(evidence_id))
        if turn is not None:  # the source index under its tag, or its URI (older stores)
            plain = self._keys.source(turn.scope.key, turn.source_uri)
            for source in {await self._source(turn), plain}:
                await self._redis.zrem(source, evidence_id)
        await self.release(evidence_id)
        return bool(removed)

    async def delete_many(self, evidence_ids: Sequence[str]) -> int:
        return sum([await self.delete(evidence_id) for evidence_id in dict.fromkeys(evidence_ids)])

    async def reserve(self, evidence_id: str) -> bool:
        return bool(await self._redis.set(self._keys.publication(evidence_id), 1, nx=True))

    async def release(self, evidence_id: str) -> None:
        await self._redis.delete(self._keys.publication(evidence_id))

    async def close(self) -> None:
        await self._redis.aclose()


class RedisFactViews:
    def __init__(
        self, client: aioredis.Redis, keys: RedisKeys, sealer: ViewSealer | None = None
    ) -> None:
        self._redis = client
        self._keys = keys
        self._bodies = Bodies(sealer)
        self._upsert = client.register_script(_UPSERT)

    async def _indexes(self, fact: Fact) -> frozenset[str]:
        """The entity and slot index keys a fact belongs to (tags when sealed)."""
        scope = fact.scope.key
        entities = await self._bodies.tags(scope, "entity", [e.lower() for e in fact.entities])
        keys = [self._keys.entity(scope, tag) for tag in entities]
        if fact.slot:
            keys.append(self._keys.slot(scope, await self._bodies.tag(scope, "slot", fact.slot)))
        return frozenset(keys)

    async def apply(self, change: FactChanged) -> bool:
        return await self.apply_batch([change]) == 1

    async def apply_batch(self, changes: Sequence[FactChanged]) -> int:
        """Apply changes in order: one read pipeline (current versions and histories),
        then one MULTI/EXEC pipeline of writes. Returns how many took effect.

        The Lua upsert stays the judge of versions; the unlinking of stale evidence, index
        and history entries follows from the state read first (one writer per partition)."""
        if not changes:
            return 0
        current = await self._current(list(dict.fromkeys(c.fact_id for c in changes)))
        pipe = self._redis.pipeline(transaction=True)
        marks = []
        for change in changes:
            marks.append(len(pipe))
            if change.op is FactOp.ERASE:
                self._queue_erase(pipe, change, current)
            elif change.fact is not None:
                await self._queue_upsert(pipe, change.fact, current)
            else:
                marks.pop()
        results = await pipe.execute()
        return sum(bool(results[mark]) for mark in marks)

    async def _current(self, fact_ids: list[str]) -> dict[str, _Stored]:
        """The stored body and history of each fact, in one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        for fact_id in fact_ids:
            pipe.hget(self._keys.fact(fact_id), "body")
            pipe.zrange(self._keys.history(fact_id), 0, -1)
        found = await pipe.execute()
        return {
            fact_id: await self._stored(body, history)
            for fact_id, body, history in zip(fact_ids, found[::2], found[1::2], strict=True)
        }

    async def _stored(self, body: bytes | None, history: list[bytes]) -> _Stored:
        fact = None if body is None else await self._bodies.fact(body)
        versions = []
        for raw in history:
            version = await self._bodies.fact(raw)
            versions.append((raw, frozenset(version.evidence_ids if version else ())))
        indexes = frozenset() if fact is None else await self._indexes(fact)
        return _Stored(fact, versions, indexes)

    async def _queue_upsert(self, pipe: Any, fact: Fact, current: dict[str, _Stored]) -> None:
        stored = current[fact.fact_id]
        body = await self._bodies.seal(fact.scope.key, fact.model_dump_json())
        indexes = await self._indexes(fact)
        keys = [
            self._keys.fact(fact.fact_id),
            self._keys.scope_facts(fact.scope.key),
            self._keys.history(fact.fact_id),
        ]
        args: list[bytes | str | int] = [
            fact.version,
            body,
            fact.fact_id,
            json.dumps(list(fact.evidence_ids)),
            self._keys.evidence_facts_prefix(),
            json.dumps(sorted(indexes)),
        ]
        await self._upsert(keys=keys, args=args, client=pipe)  # queued, not yet sent
        pipe.sadd(self._keys.scopes(), fact.scope.key)
        previous = stored.fact
        if previous is not None and previous.version >= fact.version:
            return  # the script refuses it: an older or repeated version
        history = stored.history
        if previous is not None:
            history = self._queue_drop_stale(pipe, stored, fact, indexes)
        cited = frozenset(fact.evidence_ids)
        current[fact.fact_id] = _Stored(fact, [*history, (body.encode(), cited)], indexes)

    def _queue_drop_stale(
        self, pipe: Any, stored: _Stored, fact: Fact, indexes: frozenset[str]
    ) -> list[tuple[bytes, frozenset[str]]]:
        """Unlink evidence and index entries the new version no longer has, and history
        versions citing evidence the fact no longer has (erased evidence)."""
        assert stored.fact is not None  # noqa: S101 - only for a stored previous version
        live = set(fact.evidence_ids)
        for evidence_id in set(stored.fact.evidence_ids) - live:
            pipe.srem(self._keys.evidence_facts_prefix() + evidence_id, fact.fact_id)
        for index in stored.indexes - indexes:
            pipe.srem(index, fact.fact_id)
        kept = []
        for body, cited in stored.history:
            if cited <= live:
                kept.append((body, cited))
            else:
                pipe.zrem(self._keys.history(fact.fact_id), body)
        return kept

    def _queue_erase(self, pipe: Any, change: FactChanged, current: dict[str, _Stored]) -> None:
        self._queue_delete(pipe, change.fact_id, change.scope.key, current)

    def _queue_delete(
        self, pipe: Any, fact_id: str, scope_key: str, current: dict[str, _Stored]
    ) -> None:
        entry = current[fact_id]
        pipe.delete(self._keys.fact(fact_id), self._keys.history(fact_id))
        pipe.srem(self._keys.scope_facts(scope_key), fact_id)
        for evidence_id in entry.fact.evidence_ids if entry.fact else ():
            pipe.srem(self._keys.evidence_facts_prefix() + evidence_id, fact_id)
        for index in entry.indexes:
            pipe.srem(index, fact_id)
        current[fact_id] = _Stored(None, [])

    async def delete_scope(self, scope_key: str) -> int:
        """Delete the scope's facts and what links to them: one read pipeline, then one
        MULTI/EXEC (the scope's set names them all)."""
        members = await self._redis.smembers(self._keys.scope_facts(scope_key))
        current = await self._current(sorted(text_of(member) for member in members))
        await self._redis.srem(self._keys.scopes(), scope_key)  # the subject's key goes too
        if not current:
            return 0
        stored = sum(entry.fact is not None for entry in current.values())
        pipe = self._redis.pipeline(transaction=True)
        for fact_id in list(current):
            self._queue_delete(pipe, fact_id, scope_key, current)
        await pipe.execute()
        return stored

    async def get(self, fact_id: str) -> Fact | None:
        raw = await self._redis.hget(self._keys.fact(fact_id), "body")
        return None if raw is None else await self._bodies.fact(raw)

    async def get_many(self, fact_ids: Sequence[str]) -> dict[str, Fact]:
        ids = list(dict.fromkeys(fact_ids))
        pipe = self._redis.pipeline(transaction=False)
        for fact_id in ids:
            pipe.hget(self._keys.fact(fact_id), "body")
        bodies = await pipe.execute() if ids else []
        found = {}
        for fact_id, body in zip(ids, bodies, strict=True):
            if body is not None and (fact := await self._bodies.fact(body)) is not None:
                found[fact_id] = fact
        return found

    async def facts_in_scope(self, scope_key: str) -> list[Fact]:
        members = await self._redis.smembers(self._keys.scope_facts(scope_key))
        ids = sorted(text_of(member) for member in members)
        facts = [await self.get(fact_id) for fact_id in ids]
        return [fact for fact in facts if fact is not None]

    async def versions_under(self, prefix: str) -> dict[str, tuple[str, int]]:
        scopes = [s for s in await self._scope_keys() if s == prefix or s.startswith(f"{prefix}/")]
        pipe = self._redis.pipeline(transaction=False)
        for scope in scopes:
            pipe.smembers(self._keys.scope_facts(scope))
        owners = [
            (text_of(member), scope)
            for scope, members in zip(scopes, await pipe.execute() if scopes else [], strict=True)
            for member in members
        ]
        pipe = self._redis.pipeline(transaction=False)
        for fact_id, _ in owners:
            pipe.hget(self._keys.fact(fact_id), "version")
        versions = await pipe.execute() if owners else []
        return {
            fact_id: (scope, int(version))
            for (fact_id, scope), version in zip(owners, versions, strict=True)
            if version is not None
        }

    async def _scope_keys(self) -> list[str]:
        """The registered scopes; views written before the registry are found once by
        their keys and registered."""
        registry = self._keys.scopes()
        if await self._redis.exists(registry):
            return sorted(text_of(member) for member in await self._redis.smembers(registry))
        head, tail = self._keys.scope_facts("\0").split("\0")
        found = [
            text_of(key)[len(head) : -len(tail)]
            async for key in self._redis.scan_iter(match=f"{head}*{tail}", count=1000)
        ]
        if found:
            await self._redis.sadd(registry, *found)
        return sorted(found)

    async def facts_for_evidence(self, evidence_id: str) -> list[str]:
        members = await self._redis.smembers(self._keys.evidence_facts_prefix() + evidence_id)
        return sorted(text_of(m) for m in members)

    async def facts_for_entity(
        self, scope_key: str, entity: str, limit: int | None = None
    ) -> list[str]:
        tag = await self._bodies.tag(scope_key, "entity", entity.lower())
        members = await self._redis.smembers(self._keys.entity(scope_key, tag))
        return sorted(text_of(member) for member in members)[:limit]  # a set: read whole

    async def facts_for_slot(self, scope_key: str, slot: str) -> list[str]:
        tag = await self._bodies.tag(scope_key, "slot", slot)
        members = await self._redis.smembers(self._keys.slot(scope_key, tag))
        return sorted(text_of(member) for member in members)

    async def history(self, fact_id: str) -> list[Fact]:
        bodies = await self._redis.zrange(self._keys.history(fact_id), 0, -1)
        facts = [await self._bodies.fact(bytes_of(body)) for body in bodies]
        return [fact for fact in facts if fact is not None]

    async def close(self) -> None:
        await self._redis.aclose()


class RedisStateStore:
    """Small per-key records under ``P:state:{key}`` (the erasure ledger of a distributed
    deployment: any process can read what an erasure removed and its receipt)."""

    def __init__(self, client: aioredis.Redis, keys: RedisKeys) -> None:
        self._redis = client
        self._prefix = f"{keys.prefix}:state:"

    async def load(self, key: str) -> bytes | None:
        raw = await self._redis.get(self._prefix + key)
        return None if raw is None else bytes_of(raw)

    async def save(self, key: str, value: bytes) -> None:
        await self._redis.set(self._prefix + key, value)

    async def delete(self, key: str) -> None:
        await self._redis.delete(self._prefix + key)


class RedisKeyStore:
    def __init__(self, client: aioredis.Redis, keys: RedisKeys) -> None:
        self._redis = client
        self._keys = keys

    async def get(self, key_id: str) -> bytes | None:
        raw = await self._redis.get(self._keys.data_key(key_id))
        return None if raw is None else bytes_of(raw)

    async def put_if_absent(self, key_id: str, wrapped: bytes) -> bytes:
        await self._redis.set(self._keys.data_key(key_id), wrapped, nx=True)
        stored = await self.get(key_id)
        assert stored is not None  # noqa: S101 - just set or already present
        return stored

    async def key_ids(self) -> list[str]:
        start = len(self._keys.data_key(""))
        found = self._redis.scan_iter(match=self._keys.data_key_pattern(), count=500)
        ids = [key.decode()[start:] async for key in found]
        return sorted(key_id for key_id in ids if key_id != DEPLOYMENT_CHECK)

    async def replace(self, key_id: str, wrapped: bytes) -> None:
        await self._redis.set(self._keys.data_key(key_id), wrapped, xx=True)

    async def destroy(self, key_id: str) -> bool:
        return bool(await self._redis.delete(self._keys.data_key(key_id)))

    async def close(self) -> None:
        await self._redis.aclose()


class RedisApiKeyStore:
    """API key records (hashes, never tokens) in one Redis hash ``P:api-keys``."""

    def __init__(self, client: aioredis.Redis, keys: RedisKeys) -> None:
        self._redis = client
        self._hash = f"{keys.prefix}:api-keys"

    async def put(self, key_id: str, record: bytes) -> None:
        await self._redis.hset(self._hash, key_id, record)

    async def get(self, key_id: str) -> bytes | None:
        raw = await self._redis.hget(self._hash, key_id)
        return None if raw is None else bytes_of(raw)

    async def records(self) -> list[bytes]:
        found = await self._redis.hgetall(self._hash)
        return [bytes_of(found[k]) for k in sorted(found)]

    async def count(self) -> int:
        return int(await self._redis.hlen(self._hash))

    async def close(self) -> None:
        await self._redis.aclose()


class RedisNamespace:
    """Every key under a deployment's prefix and its value, whatever its type: what the
    erasure audit reads of Redis, through the client the process already holds."""

    place = "redis"

    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self._client = client
        self._prefix = prefix

    async def held_bytes(self) -> AsyncIterator[tuple[str, bytes]]:
        async for key in self._client.scan_iter(match=f"{self._prefix}:*", count=500):
            location = "redis:" + bytes_of(key).decode("utf-8", "replace")
            yield location, bytes_of(key)
            for part in await self._values(key):
                yield location, part

    async def _values(self, key: bytes) -> list[bytes]:
        client = self._client
        kind = text_of(await client.type(key))
        if kind == "string":
            return [bytes_of(await client.get(key) or b"")]
        if kind == "hash":
            return [bytes_of(b) for pair in (await client.hgetall(key)).items() for b in pair]
        if kind == "set":
            return [bytes_of(m) for m in await client.smembers(key)]
        if kind == "zset":
            return [bytes_of(m) for m in await client.zrange(key, 0, -1)]
        if kind == "list":
            return [bytes_of(m) for m in await client.lrange(key, 0, -1)]
        return [bytes_of(await client.dump(key) or b"")]
