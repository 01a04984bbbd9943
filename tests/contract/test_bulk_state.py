"""BulkStateStore contract (core/ports.py): the gate's bulk reads and its swap behave the
same on SQLite (one query, one transaction), on a plain store seen per key (Redis through
infra/bulk_state.py) and through the sealing wrapper of gate fact records."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from provmem.core.ports import BulkStateStore
from provmem.infra.bulk_state import PerKeyBulkState
from provmem.infra.crypto import EvidenceSealer
from provmem.infra.embedded_stores import EmbeddedKeyStore, EmbeddedStateStore, EmbeddedStores
from provmem.infra.sealing import SealedGateState, ViewSealer
from tests.conftest import REDIS_URL

SCOPE = {"org": "o", "project": "p", "user": "u"}


def _record(version: int) -> bytes:
    return json.dumps({"fact": {"version": version, "scope": SCOPE}, "vector": ""}).encode()


@pytest.fixture(params=["embedded", "redis-per-key", "embedded-sealed"])
async def state(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[BulkStateStore]:
    if request.param == "redis-per-key":
        import redis.asyncio as aioredis

        from provmem.infra.redis_stores import RedisKeys, RedisStateStore

        client = aioredis.Redis.from_url(REDIS_URL)
        keys = RedisKeys(request.getfixturevalue("redis_prefix"))
        yield PerKeyBulkState(RedisStateStore(client, keys))
        await client.aclose()
        return
    stores = EmbeddedStores(tmp_path / "views.db")
    plain = EmbeddedStateStore(stores)
    if request.param == "embedded":
        yield plain
    else:
        keys = EmbeddedKeyStore(EmbeddedStores(tmp_path / "keys.db"))
        yield SealedGateState(plain, ViewSealer(EvidenceSealer(os.urandom(32), keys)))
    await stores.close()


async def test_load_many_gives_the_stored_values_and_leaves_absent_keys_out(
    state: BulkStateStore,
) -> None:
    await state.save("gate|o/p/u|fact|f1", _record(1))
    await state.save("gate|o/p/u|index", b'{"revision": 1}')
    found = await state.load_many(["gate|o/p/u|fact|f1", "gate|o/p/u|index", "absent"])
    assert found == {"gate|o/p/u|fact|f1": _record(1), "gate|o/p/u|index": b'{"revision": 1}'}


async def test_load_fields_many_extracts_json_paths(state: BulkStateStore) -> None:
    await state.save("gate|o/p/u|fact|f1", _record(3))
    found = await state.load_fields_many(
        ["gate|o/p/u|fact|f1", "gate|o/p/u|fact|gone"], ["$.fact.version", "$.fact.scope"]
    )
    assert list(found) == ["gate|o/p/u|fact|f1"]
    version, scope = found["gate|o/p/u|fact|f1"]
    assert version == 3 and json.loads(str(scope)) == SCOPE


async def test_replace_many_deletes_then_saves(state: BulkStateStore) -> None:
    await state.save("gate|o/p/u|fact|old", _record(1))
    await state.save("gate|o/p/u|fact|kept", _record(1))
    await state.replace_many(
        ["gate|o/p/u|fact|old", "gate|o/p/u|fact|kept"], {"gate|o/p/u|fact|kept": _record(2)}
    )
    assert await state.load("gate|o/p/u|fact|old") is None
    assert await state.load("gate|o/p/u|fact|kept") == _record(2)
