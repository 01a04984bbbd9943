"""Keyed record keys: a log record's key is a keyed fingerprint of the id it names.

The turns and fact-changes topics are compacted by key, so every record of an evidence
item or a fact, and the tombstone that erases it, shares one key. A raw id there would
outlive its erasure in the clear (a tombstone has no value to seal, and keeps its key).
So :class:`~provmem.infra.log.sealed.LogSealer` appends each such record under
:meth:`RecordKeys.key_of` of its id::

    rk1_<32 hex: HMAC-SHA256(secret, id)>

where ``secret`` is derived from the deployment's data key (``dk_deployment``, purpose
``log-record-keys``): deterministic, so compaction still works and two processes of a
deployment agree; unchanged by a master-key rotation (the data key is re-wrapped, not
replaced); meaningless to whoever lacks the master key. Partitioning does not use the
key (the producer picks ``partition_for(scope)``), so it is unchanged.

Readers never learn an id from a key: a record's id is in its (sealed) value, and a
tombstone's id is found by fingerprinting a candidate id and comparing
(:meth:`RecordKeys.names`). Records written before keyed keys (raw ids) still read:
:meth:`RecordKeys.names` accepts both forms, and :func:`is_keyed` tells them apart.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable
from functools import partial

from provmem.infra.crypto.envelope import EvidenceSealer

__all__ = ["PLAIN_KEYS", "KeyPrint", "RecordKeys", "is_keyed"]

#: A keyed record key's prefix (an id never starts so: ``ev_``, ``fact_``, ``erasure|``).
PREFIX = b"rk1_"
_PURPOSE = "log-record-keys"

KeyPrint = Callable[[str], bytes]


def is_keyed(key: bytes | None) -> bool:
    """Whether a record key is a keyed fingerprint (else a raw key, or none)."""
    return key is not None and key.startswith(PREFIX) and len(key) == len(PREFIX) + 32


class RecordKeys:
    """The keyed fingerprints of one deployment's record keys (the secret loaded once).

    Without a sealer (a log that seals nothing: adapter and unit tests) keys are the ids.
    """

    def __init__(self, sealer: EvidenceSealer | None) -> None:
        self._sealer = sealer
        self._secret: bytes | None = None

    async def printer(self) -> KeyPrint:
        """The fingerprint function, for a loop over many ids."""
        secret = await self._loaded()
        return _plain if secret is None else partial(_keyed_id, secret)

    async def key_of(self, key: bytes) -> bytes:
        """The key a record is appended under: ``key`` fingerprinted (once: a keyed key,
        e.g. a dead letter's re-driven record, is kept as it is)."""
        secret = await self._loaded()
        return key if secret is None or is_keyed(key) else _keyed(secret, key)

    async def _loaded(self) -> bytes | None:
        if self._sealer is not None and self._secret is None:
            self._secret = await self._sealer.deployment_data_secret(_PURPOSE)
        return self._secret

    async def names(self, keys: Iterable[bytes], ids: Iterable[str]) -> dict[bytes, str]:
        """Which of ``ids`` each of ``keys`` names (keyed, or a raw key of an older log)."""
        wanted, found = set(keys), dict[bytes, str]()
        if not wanted:
            return found
        printer = await self.printer()
        for item_id in ids:
            for form in (printer(item_id), item_id.encode("utf-8")):
                if form in wanted:
                    found[form] = item_id
        return found


def _keyed(secret: bytes, raw: bytes) -> bytes:
    return PREFIX + hmac.new(secret, raw, hashlib.sha256).hexdigest()[:32].encode("ascii")


def _keyed_id(secret: bytes, item_id: str) -> bytes:
    return _keyed(secret, item_id.encode("utf-8"))


def _plain(item_id: str) -> bytes:
    return item_id.encode("utf-8")


#: The record keys of a log that seals nothing.
PLAIN_KEYS = RecordKeys(None)
