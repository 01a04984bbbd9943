"""One master key per deployment, on both key stores (embedded SQLite; Redis + log).

A process whose master key is not the deployment's refuses before it makes a data key
(so it never appends), and a reader meeting a data key wrapped by another master key
skips it with a warning instead of failing.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from provmem.core.ports import Cleanup, KeyStore, TopicConfig
from provmem.infra.crypto.envelope import (
    EvidenceSealer,
    ForeignMasterKeyError,
    KeyWrapper,
    MissingDataKeyError,
    rotate_master_key,
    subject_key_id,
)
from provmem.infra.crypto.logged_keys import LoggedKeyStore
from provmem.infra.stores.embedded import EmbeddedKeyStore, EmbeddedStores
from provmem.infra.stores.redis_stores import RedisKeys, RedisKeyStore
from tests.conftest import REDIS_URL
from tests.contract.conftest import OpenLog

A, B = os.urandom(32), os.urandom(32)
SUBJECT = "acme/support/alice"
OpenKeys = Callable[[], KeyStore]


@pytest.fixture
def open_keys(
    open_log: OpenLog, topic: str, tmp_path: Path, request: pytest.FixtureRequest
) -> OpenKeys:
    """A key store of the deployment as a new process opens it: the embedded one (with the
    embedded log's parametrization) or Redis recorded on the log (with Kafka's)."""
    if "embedded" in request.node.callspec.id:
        return lambda: EmbeddedKeyStore(EmbeddedStores(tmp_path / "views.db"))
    prefix = request.getfixturevalue("redis_prefix")

    def logged() -> KeyStore:
        cache = RedisKeyStore(aioredis.Redis.from_url(REDIS_URL), RedisKeys(prefix))
        return LoggedKeyStore(cache, open_log(), TopicConfig(topic, 1, Cleanup.COMPACT))

    return logged


@pytest.fixture
async def first(open_keys: OpenKeys) -> AsyncIterator[EvidenceSealer]:
    """The deployment's first process: it publishes under master key A."""
    sealer = EvidenceSealer(A, open_keys())
    await sealer.verify()
    yield sealer


async def test_a_process_with_another_master_key_refuses_and_makes_no_key(
    first: EvidenceSealer, open_keys: OpenKeys
) -> None:
    keys = open_keys()
    before = await keys.key_ids()
    foreign = EvidenceSealer(B, keys)
    with pytest.raises(ForeignMasterKeyError, match="PROVMEM_MASTER_KEY"):
        await foreign.verify()
    with pytest.raises(ForeignMasterKeyError):
        await foreign.seal("acme/support/bob", "a turn")  # nothing sealed, nothing appended
    assert await keys.key_ids() == before
    assert await EvidenceSealer(A, open_keys()).seal(SUBJECT, "fine")  # the deployment's key


async def test_a_foreign_data_key_is_skipped_by_readers_not_a_crash(
    first: EvidenceSealer, open_keys: OpenKeys
) -> None:
    sealed, _ = await first.seal(SUBJECT, "my own turn")
    keys = open_keys()
    poisoned = "acme/support/mallory"  # a key a foreign process wrapped before the check
    await keys.put_if_absent(subject_key_id(poisoned), KeyWrapper(B).wrap("x", os.urandom(32)))
    bad = sealed.model_copy(update={"key_id": subject_key_id(poisoned)})
    reader = EvidenceSealer(A, open_keys())
    assert await reader.open(sealed) == "my own turn"
    with pytest.raises(MissingDataKeyError, match="another master key"):
        await reader.open(bad)  # a LookupError: readers skip it as shredded


async def test_a_deployment_older_than_the_check_adopts_its_own_key(open_keys: OpenKeys) -> None:
    keys = open_keys()
    await keys.put_if_absent(subject_key_id(SUBJECT), KeyWrapper(A).wrap("x", os.urandom(32)))
    with pytest.raises(ForeignMasterKeyError):
        await EvidenceSealer(B, open_keys()).verify()
    await EvidenceSealer(A, open_keys()).verify()
    with pytest.raises(ForeignMasterKeyError):
        await EvidenceSealer(B, open_keys()).verify()


async def test_rotation_moves_the_check_to_the_new_key(
    first: EvidenceSealer, open_keys: OpenKeys
) -> None:
    sealed, _ = await first.seal(SUBJECT, "kept across the rotation")
    assert await rotate_master_key(open_keys(), A, B) == 1
    rotated = EvidenceSealer(B, open_keys())
    await rotated.verify()
    assert await rotated.open(sealed) == "kept across the rotation"
    with pytest.raises(ForeignMasterKeyError):
        await EvidenceSealer(A, open_keys()).verify()
