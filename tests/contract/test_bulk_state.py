"""BulkStateStore contract (core/ports.py): the gate's bulk reads and its swap behave the
same on SQLite (one query, one transaction), on a plain store seen per key (Redis through
infra/stores/bulk_state.py) and through the sealing wrapper of gate fact records."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from provmem.core.ports import BulkStateStore
from provmem.infra.crypto.envelope import EvidenceSealer
from provmem.infra.crypto.sealing import SealedGateState, ViewSealer
from provmem.infra.stores.bulk_state import PerKeyBulkState
from provmem.infra.stores.embedded import EmbeddedKeyStore, EmbeddedStateStore, EmbeddedStores
from tests.conftest import REDIS_URL

SCOPE = {"org": "o", "project": "p", "user": "u"}


def _record(version: int) -> bytes:
    return json.dumps({"fact": {"version": version, "scope": SCOPE}, "vector": ""}).encode()


@pytest.fixture(params=["embedded", "redis-per-key", "embedded-sealed"])
async def state(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[BulkStateStore]:
    if request.param == "redis-per-key":
        import redis.asyncio as aioredis

        from provmem.infra.stores.redis_stores import RedisKeys, RedisStateStore

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


async def test_the_sealed_gate_state_keys_its_ids_and_seals_the_index(tmp_path: Path) -> None:
    """At rest (on Kafka: the table's changelog) no fact or evidence id is a key and no
    index names a fact in the clear; a key an older store kept raw still reads and goes."""
    stores = EmbeddedStores(tmp_path / "views.db")
    plain = EmbeddedStateStore(stores)
    keys = EmbeddedKeyStore(EmbeddedStores(tmp_path / "keys.db"))
    state = SealedGateState(plain, ViewSealer(EvidenceSealer(os.urandom(32), keys)))
    index = json.dumps({"revision": 1, "facts": ["fact_f1"]}).encode()
    await state.replace_many(
        [], {"gate|o/p/u|fact|fact_f1": _record(1), "gate|o/p/u|seen|ev_e1": b"1"}
    )
    await state.save("gate|o/p/u|index", index)
    stored = await plain.keys_with_prefix("gate|")
    assert len(stored) == 3 and not [k for k in stored if "fact_f1" in k or "ev_e1" in k]
    assert b"fact_f1" not in (await plain.load("gate|o/p/u|index") or b"")
    assert await state.load("gate|o/p/u|index") == index
    assert await state.load("gate|o/p/u|seen|ev_e1") == b"1"
    found = await state.load_fields_many(["gate|o/p/u|fact|fact_f1"], ["$.fact.version"])
    assert found["gate|o/p/u|fact|fact_f1"][0] == 1

    await plain.save("gate|o/p/u|seen|ev_old", b"1")  # written before keyed keys
    assert await state.load("gate|o/p/u|seen|ev_old") == b"1"
    assert list(await state.load_many(["gate|o/p/u|seen|ev_old"])) == ["gate|o/p/u|seen|ev_old"]
    await state.replace_many(["gate|o/p/u|seen|ev_old", "gate|o/p/u|seen|ev_e1"], {})
    assert await plain.keys_with_prefix("gate|o/p/u|seen|") == []
    empty = json.dumps({"revision": 2, "facts": []}).encode()
    await state.save("gate|o/p/u|index", empty)
    assert await plain.load("gate|o/p/u|index") == empty  # names nothing: as it is
    await stores.close()
