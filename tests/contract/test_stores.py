"""Store contracts: fact views (embedded, Redis) and vector indexes (Qdrant edge, client)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from provmem.core.events import FactChanged, FactOp
from provmem.core.ports import EvidenceStore, FactViews
from provmem.infra.crypto.envelope import EvidenceSealer
from provmem.infra.crypto.sealing import ViewSealer
from provmem.infra.stores.embedded import EmbeddedKeyStore, EmbeddedStores
from tests.conftest import REDIS_URL
from tests.factories import turn
from tests.unit.test_gate import CONFIG, claim, vec

ADAPTERS = ["embedded", "embedded-sealed", "redis", "redis-sealed"]


def _sealer(tmp_path: Path) -> ViewSealer:
    """A view sealer over a key store of its own (sealed variants of every adapter)."""
    keys = EmbeddedKeyStore(EmbeddedStores(tmp_path / "keys.db"))
    return ViewSealer(EvidenceSealer(os.urandom(32), keys))


async def _adapter(request: pytest.FixtureRequest, tmp_path: Path, port: str) -> AsyncIterator[Any]:
    """The embedded (SQLite) or the Redis adapter of ``port`` (``FactViews``, ...), with
    plaintext or sealed bodies and index keys."""
    sealer = _sealer(tmp_path) if request.param.endswith("-sealed") else None
    if request.param.startswith("embedded"):
        from provmem.infra.stores import embedded as embedded_stores

        stores = embedded_stores.EmbeddedStores(tmp_path / "views.db", sealer)
        yield getattr(embedded_stores, f"Embedded{port}")(stores)
        await stores.close()
        return
    import redis.asyncio as aioredis

    from provmem.infra.stores import redis_stores

    keys = redis_stores.RedisKeys(request.getfixturevalue("redis_prefix"))
    client = aioredis.Redis.from_url(REDIS_URL)
    store = getattr(redis_stores, f"Redis{port}")(client, keys, sealer)
    yield store
    await store.close()


@pytest.fixture(params=[*ADAPTERS, "redis-following"])
async def views(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[FactViews]:
    """Every FactViews adapter, and the Redis views that follow the generation pointer
    (infra/stores/generations.py: each call goes to the live generation's views)."""
    if request.param == "redis-following":
        async for store in _following_views(request):
            yield store
        return
    async for store in _adapter(request, tmp_path, "FactViews"):
        yield store


async def _following_views(request: pytest.FixtureRequest) -> AsyncIterator[FactViews]:
    import redis.asyncio as aioredis

    from provmem.infra.stores.generations import FollowingFactViews

    client = aioredis.Redis.from_url(REDIS_URL)
    yield FollowingFactViews(client, request.getfixturevalue("redis_prefix"))
    await client.aclose()


@pytest.fixture(params=ADAPTERS)
async def evidence(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[EvidenceStore]:
    async for store in _adapter(request, tmp_path, "EvidenceStore"):
        yield store


def _changes() -> list[FactChanged]:
    from provmem.core.facts.memory_state import ScopeMemory
    from provmem.core.stages import Candidate, derive_fact_changes

    same = Candidate(claim("Alice moved to Lisbon."), vec(1))
    first = derive_fact_changes(turn("t1"), [same], ScopeMemory(), CONFIG, "test/1")
    second = derive_fact_changes(turn("t2", minute=1), [same], first.memory, CONFIG, "test/1")
    return first.changes + second.changes


async def test_every_change_applied_twice_gives_the_same_view(views: FactViews) -> None:
    add, noop = _changes()
    assert await views.apply(add) is True
    assert await views.apply(add) is False
    assert await views.apply(noop) is True
    assert await views.apply(noop) is False
    fact = await views.get(add.fact_id)
    assert fact is not None and fact.version == 2
    assert [f.fact_id for f in await views.facts_in_scope(add.scope.key)] == [add.fact_id]
    assert await views.facts_for_evidence(noop.caused_by) == [add.fact_id]


async def test_entity_and_slot_indexes_follow_the_fact(views: FactViews) -> None:
    add, _ = _changes()
    assert add.fact is not None
    fact = add.fact.model_copy(update={"entities": ("Alice", "Lisbon"), "slot": "alice|lives_in"})
    await views.apply(add.model_copy(update={"fact": fact}))
    scope = add.scope.key
    assert await views.facts_for_entity(scope, "lisbon") == [add.fact_id]
    assert await views.facts_for_slot(scope, "alice|lives_in") == [add.fact_id]
    erase = FactChanged(
        change_id="e",
        op=FactOp.ERASE,
        fact_id=add.fact_id,
        scope=add.scope,
        version=2,
        reason="erased",
        caused_by="er_1",
    )
    await views.apply(erase)
    assert await views.facts_for_entity(scope, "lisbon") == []
    assert await views.facts_for_slot(scope, "alice|lives_in") == []


async def test_facts_for_entity_gives_the_first_ids_up_to_a_limit(views: FactViews) -> None:
    add, _ = _changes()
    assert add.fact is not None
    ids = [f"fact_{n}" for n in "dbeac"]
    await views.apply_batch(
        [
            add.model_copy(
                update={
                    "fact_id": fact_id,
                    "fact": add.fact.model_copy(update={"fact_id": fact_id, "entities": ("Ana",)}),
                }
            )
            for fact_id in ids
        ]
    )
    scope = add.scope.key
    assert await views.facts_for_entity(scope, "ana") == sorted(ids)
    assert await views.facts_for_entity(scope, "ana", 2) == ["fact_a", "fact_b"]
    assert await views.facts_for_entity(scope, "ana", 9) == sorted(ids)
    assert await views.facts_for_entity(scope, "ana", 0) == []


async def test_an_older_version_never_overwrites_a_newer(views: FactViews) -> None:
    add, noop = _changes()
    await views.apply(noop)
    assert await views.apply(add) is False
    fact = await views.get(add.fact_id)
    assert fact is not None and fact.version == 2


async def test_erase_removes_the_fact_and_its_indexes(views: FactViews) -> None:
    add, _ = _changes()
    await views.apply(add)
    erase = FactChanged(
        change_id="e",
        op=FactOp.ERASE,
        fact_id=add.fact_id,
        scope=add.scope,
        version=add.version + 1,
        reason="erased",
        caused_by="er_1",
    )
    assert await views.apply(erase) is True
    assert await views.get(add.fact_id) is None
    assert await views.facts_in_scope(add.scope.key) == []
    assert await views.facts_for_evidence(add.caused_by) == []


async def test_many_facts_are_read_at_once_and_missing_ids_left_out(views: FactViews) -> None:
    add, noop = _changes()
    await views.apply_batch([add, noop])
    found = await views.get_many([add.fact_id, "fact_missing", add.fact_id])
    assert list(found) == [add.fact_id]
    assert found[add.fact_id] == await views.get(add.fact_id)
    assert await views.get_many([]) == {}


async def test_delete_scope_removes_the_scopes_facts_and_their_links(views: FactViews) -> None:
    from provmem.core.scope import Scope

    add, noop = _changes()
    assert add.fact is not None
    fact = add.fact.model_copy(update={"entities": ("Alice",), "slot": "alice|lives_in"})
    elsewhere = Scope.parse("acme/other/u-9")
    other = fact.model_copy(update={"fact_id": "fact_other", "scope": elsewhere})
    await views.apply_batch(
        [
            add.model_copy(update={"fact": fact}),
            noop,
            add.model_copy(update={"fact_id": "fact_other", "scope": elsewhere, "fact": other}),
        ]
    )
    scope = add.scope.key
    assert await views.delete_scope(scope) == 1
    assert await views.get(add.fact_id) is None
    assert await views.history(add.fact_id) == []
    assert await views.facts_in_scope(scope) == []
    assert await views.facts_for_evidence(noop.caused_by) == []
    assert await views.facts_for_entity(scope, "alice") == []
    assert await views.facts_for_slot(scope, "alice|lives_in") == []
    assert [f.fact_id for f in await views.facts_in_scope(elsewhere.key)] == ["fact_other"]
    assert await views.facts_for_entity(elsewhere.key, "alice") == ["fact_other"]
    assert await views.delete_scope(scope) == 0


async def test_delete_many_removes_evidence_and_publication_claims(
    evidence: EvidenceStore,
) -> None:
    turns = [turn(f"t{i}", minute=i) for i in range(3)]
    for t in turns:
        assert await evidence.reserve(t.evidence_id)
        await evidence.put(t)
    gone = [turns[0].evidence_id, turns[2].evidence_id, "ev_missing", turns[0].evidence_id]
    assert await evidence.delete_many(gone) == 2
    assert await evidence.get(turns[0].evidence_id) is None
    assert await evidence.get(turns[1].evidence_id) == turns[1]
    assert await evidence.ids_in_scope(turns[0].scope.key) == [turns[1].evidence_id]
    assert await evidence.reserve(turns[0].evidence_id)  # the claim went with it
    assert not await evidence.reserve(turns[1].evidence_id)
    assert await evidence.delete_many([]) == 0


async def test_versions_under_a_prefix_name_the_facts_of_every_scope_below_it(
    views: FactViews,
) -> None:
    """What an organisation's or a project's change stream knows at its start (services/
    api/changes.py): its user scopes' facts and versions, not a neighbour's whose name
    only begins the same, and nothing of an erased fact or a deleted scope."""
    from provmem.core.scope import Scope

    add, noop = _changes()
    assert add.fact is not None
    scope = add.scope
    org, project = scope.key.split("/")[0], "/".join(scope.key.split("/")[:2])
    elsewhere = Scope.parse(f"{project}-2/u-9")  # another project whose name begins the same
    other = add.fact.model_copy(update={"fact_id": "fact_other", "scope": elsewhere})
    stranger = Scope.parse(f"{org}x/p/u-1")  # another organisation, same beginning
    far = add.fact.model_copy(update={"fact_id": "fact_far", "scope": stranger})
    await views.apply_batch(
        [
            add,
            noop,
            add.model_copy(update={"fact_id": "fact_other", "scope": elsewhere, "fact": other}),
            add.model_copy(update={"fact_id": "fact_far", "scope": stranger, "fact": far}),
        ]
    )
    assert await views.versions_under(scope.key) == {add.fact_id: (scope.key, 2)}
    assert await views.versions_under(project) == {add.fact_id: (scope.key, 2)}
    assert await views.versions_under(org) == {
        add.fact_id: (scope.key, 2),
        "fact_other": (elsewhere.key, 1),
    }
    await views.delete_scope(scope.key)
    assert await views.versions_under(org) == {"fact_other": (elsewhere.key, 1)}
    assert await views.versions_under(f"{org}x") == {"fact_far": (stranger.key, 1)}


async def test_redis_views_written_before_the_scope_registry_find_their_scopes(
    redis_prefix: str,
) -> None:
    import redis.asyncio as aioredis

    from provmem.infra.stores.redis_stores import RedisFactViews, RedisKeys

    keys = RedisKeys(redis_prefix)
    client = aioredis.Redis.from_url(REDIS_URL)
    views = RedisFactViews(client, keys)
    add, _ = _changes()
    await views.apply(add)
    await client.delete(keys.scopes())  # as views written by an older version
    org = add.scope.key.split("/")[0]
    assert await views.versions_under(org) == {add.fact_id: (add.scope.key, 1)}
    assert await client.smembers(keys.scopes()) == {add.scope.key.encode()}
    await client.aclose()
