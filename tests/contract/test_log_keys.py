"""Log-key epochs on both key stores (embedded SQLite; Redis recorded on the log).

A subject's log records are sealed under its current log-key epoch (infra/crypto/log_keys.py).
A rotation names a new epoch that every process (after its short cache) seals under; the
records sealed under a retired epoch open until its key is destroyed and never after,
while those under the new epoch, and the subject's data-key seals, still open. A
subject's shredding destroys every epoch.
"""

from __future__ import annotations

import asyncio

import pytest

from provmem.infra.crypto.envelope import EvidenceSealer, MissingDataKeyError
from provmem.infra.crypto.log_keys import EPOCH_CACHE_S, is_log_key_of, log_key_id
from tests.contract.test_master_key import SUBJECT, A, OpenKeys, open_keys  # noqa: F401


def _key_of(blob: str) -> str:
    return blob.split(".", 2)[1]


async def test_a_rotation_moves_every_process_to_a_new_epoch(open_keys: OpenKeys) -> None:  # noqa: F811
    eraser, publisher = EvidenceSealer(A, open_keys()), EvidenceSealer(A, open_keys())
    old = await publisher.seal_log_bytes(SUBJECT, b"before")
    assert _key_of(old) == log_key_id(SUBJECT, 0) and is_log_key_of(_key_of(old), SUBJECT)
    rotation = await eraser.rotate_log_key(SUBJECT)
    assert rotation.current == log_key_id(SUBJECT, 1)
    assert rotation.retired == (log_key_id(SUBJECT, 0),)
    assert _key_of(await eraser.seal_log_bytes(SUBJECT, b"now")) == rotation.current
    await asyncio.sleep(EPOCH_CACHE_S + 0.1)  # the publisher's cache of the epoch runs out
    new = await publisher.seal_log_bytes(SUBJECT, b"after")
    assert _key_of(new) == rotation.current
    assert await eraser.open_bytes(old) == b"before"  # a retired key opens until destroyed


async def test_destroying_a_retired_epoch_closes_only_its_records(open_keys: OpenKeys) -> None:  # noqa: F811
    sealer = EvidenceSealer(A, open_keys())
    text, _ = await sealer.seal(SUBJECT, "sealed under the data key")
    old = await sealer.seal_log_bytes(SUBJECT, b"superseded")
    rotation = await sealer.rotate_log_key(SUBJECT)
    new = await sealer.seal_log_bytes(SUBJECT, b"kept")
    assert await sealer.destroy_log_keys(rotation.retired) == 1

    reader = EvidenceSealer(A, open_keys())  # nothing cached
    with pytest.raises(MissingDataKeyError):
        await reader.open_bytes(old)
    assert await reader.open_bytes(new) == b"kept"
    assert await reader.open(text) == "sealed under the data key"


async def test_shredding_a_subject_destroys_every_epoch(open_keys: OpenKeys) -> None:  # noqa: F811
    sealer = EvidenceSealer(A, open_keys())
    first = await sealer.seal_log_bytes(SUBJECT, b"one")
    await sealer.rotate_log_key(SUBJECT)  # a crashed erasure: its retired key still there
    second = await sealer.seal_log_bytes(SUBJECT, b"two")
    assert await sealer.shred(SUBJECT) == {"data_keys": 0, "log_keys": 2}

    reader = EvidenceSealer(A, open_keys())
    for blob in (first, second):
        with pytest.raises(MissingDataKeyError):
            await reader.open_bytes(blob)
    back = await reader.seal_log_bytes(SUBJECT, b"back")  # the subject returns: epoch 0
    assert _key_of(back) == log_key_id(SUBJECT, 0)
