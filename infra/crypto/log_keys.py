"""Log keys: what a subject's log records are sealed under, in epochs.

A subject's records on compacted topics (its turns and fact changes, and the gate state,
whose changelog is a topic on Kafka) are sealed under the subject's *log key*, not its
data key (which seals the views, the evidence store, the index tags and the dead
letters). A log key has epochs: ``dk_<digest>v<n>`` (the released envelope schema allows
letters and digits only; the digest is 32 hex digits, so ``v`` ends it), the current one
named by the key-store entry ``log-epoch|<digest>`` (absent: epoch 0). The ids start
like a data key's (``dk_``), so a master-key rotation re-wraps them and the foreign-key
check covers them.

Why epochs: a broker compacts a topic in its own time, Tansu never. After a session or
an evidence erasure the records it superseded stay retained, and would open under a live
key. The erasure therefore moves the subject to a new epoch, seals what lives on under
it again (streams/erasure/log_compaction.py) and destroys the old epoch's key: what the broker
still retains of the erased records is ciphertext under a destroyed key. A subject
erasure destroys every epoch with the data key.

A process trusts the epoch it read for :data:`EPOCH_CACHE_S`; a rotation waits
:data:`SWITCH_S` before it re-seals, so that by then every process seals under the new
epoch.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from provmem.core.ports import KeyStore

__all__ = ["EPOCH_CACHE_S", "SWITCH_S", "LogKeys", "Rotation", "log_key_id"]

#: How long a process trusts the epoch it read (a rotation elsewhere reaches it after).
EPOCH_CACHE_S = 0.5
#: How long after a rotation every process seals under the new epoch.
SWITCH_S = 2 * EPOCH_CACHE_S + 0.5
_EPOCH_ENTRY = "log-epoch|"


def _digest(scope_key: str) -> str:
    return hashlib.sha256(b"provmem-subject-log\x1f" + scope_key.encode()).hexdigest()[:32]


def log_key_id(scope_key: str, epoch: int) -> str:
    """The id of the subject's log key at ``epoch``; reveals nothing about the scope."""
    return f"dk_{_digest(scope_key)}v{epoch}"


def is_log_key_of(key_id: str, scope_key: str) -> bool:
    """Whether ``key_id`` is an epoch of the subject's log key."""
    return key_id.startswith(f"dk_{_digest(scope_key)}v")


@dataclass(frozen=True)
class Rotation:
    """A subject moved to a new log-key epoch: ``current`` seals from now on, ``retired``
    (every earlier epoch) is destroyed once what lives on is sealed again."""

    scope_key: str
    current: str
    retired: tuple[str, ...]
    at: float

    def switched_in(self) -> float:
        """Seconds until every process seals under ``current``."""
        return max(0.0, self.at + SWITCH_S - time.monotonic())


class LogKeys:
    """The current epoch of each subject's log key (read through a short cache)."""

    def __init__(self, keys: KeyStore) -> None:
        self._keys = keys
        self._cache: dict[str, tuple[int, float]] = {}

    async def epoch(self, scope_key: str, fresh: bool = False) -> int:
        """The subject's current epoch (``fresh``: read from the store, not the cache)."""
        now = time.monotonic()
        cached = None if fresh else self._cache.get(scope_key)
        if cached is not None and now - cached[1] < EPOCH_CACHE_S:
            return cached[0]
        stored = await self._keys.get(_EPOCH_ENTRY + _digest(scope_key))
        epoch = int(stored) if stored is not None else 0
        self._cache[scope_key] = (epoch, now)
        return epoch

    async def current(self, scope_key: str) -> str:
        """The id of the key the subject's log records are sealed under now."""
        return log_key_id(scope_key, await self.epoch(scope_key))

    async def ids(self, scope_key: str) -> list[str]:
        """Every epoch's key id up to the current one (a subject erasure destroys them)."""
        epoch = await self.epoch(scope_key)
        return [log_key_id(scope_key, n) for n in range(epoch + 1)]

    async def advance(self, scope_key: str) -> Rotation:
        """Name the next epoch current (its key must exist already: the sealer makes it)."""
        epoch = await self.epoch(scope_key, fresh=True) + 1
        entry, value = _EPOCH_ENTRY + _digest(scope_key), str(epoch).encode()
        if await self._keys.put_if_absent(entry, value) != value:
            await self._keys.replace(entry, value)
        self._cache[scope_key] = (epoch, time.monotonic())
        retired = tuple(log_key_id(scope_key, n) for n in range(epoch))
        return Rotation(scope_key, log_key_id(scope_key, epoch), retired, time.monotonic())

    def cached_id(self, scope_key: str) -> str | None:
        """The key id of the epoch this process trusts now, and forget it (None: none)."""
        cached = self._cache.pop(scope_key, None)
        return None if cached is None else log_key_id(scope_key, cached[0])

    async def forget(self, scope_key: str) -> None:
        """Drop the subject's epoch entry (a subject erasure, after its keys)."""
        self._cache.pop(scope_key, None)
        await self._keys.destroy(_EPOCH_ENTRY + _digest(scope_key))
