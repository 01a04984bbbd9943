"""What an erasure derives from the deployment's master key (:class:`ErasureSecrets`): the
residue marks' key, the ledger's secret, the unwrapper of retained data-key copies and a
sealer without cached keys. The root reads the master key once
(streams/runtime/erasure.py ``erasure_deps``); the key itself is in no repr and no log."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from functools import cached_property

from provmem.core.ports import KeyStore
from provmem.streams.runtime.adapters import EvidenceSealer, KeyWrapper, audit_key


@dataclass(frozen=True)
class ErasureSecrets:
    """The keys an erasure derives from ``master`` (read once per process by its root)."""

    master: bytes = field(repr=False)

    @cached_property
    def audit_key(self) -> bytes:
        """The residue marks' key (infra/residue.py)."""
        return audit_key(self.master)

    @cached_property
    def ledger_secret(self) -> bytes:
        """The ledger's fingerprint secret and the receipt's scope hash key."""
        return hmac.new(self.master, b"provmem-audit", hashlib.sha256).digest()

    @cached_property
    def wrapper(self) -> KeyWrapper:
        """Unwraps the retained copies of data keys (the audit of key copies)."""
        return KeyWrapper(self.master)

    def live_sealer(self, keys: KeyStore) -> EvidenceSealer:
        """A sealer without cached data keys: it opens only what the live keys open."""
        return EvidenceSealer(self.master, keys)
