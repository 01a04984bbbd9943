"""The erasure ledger: what each request erased, and its receipt.

An entry (state-store key ``LEDGER + request id``) keeps the scope and the erased
evidence ids sealed under the audit key, keyed fingerprints of the erased text's word
runs with their scheme, the residue marks (streams/erasure_residue.py), what the
verification found per store (``verification``) and the receipt;
never text. The receipt also goes on the erasure-receipts topic. While a request runs,
its journal (streams/erasure_journal.py) is an entry of the same store.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..core.events import ErasureCompleted, ErasureRequested
from ..core.ports import Append, EventLog, StateStore
from ..infra.crypto import master_key
from ..infra.residue import audit_key, ledger_box
from ..infra.settings import Settings
from .erasure_fingerprints import LEGACY_SCHEME, SCHEME, Fingerprint, fingerprinter
from .erasure_journal import Journal, keyed_print
from .erasure_residue import MARKS_FIELD
from .log_audit import Awaiting
from .topics import ERASURE_RECEIPTS, TopicNames

LEDGER = "erasure|"
#: /2: the verification runs the byte audit too (every byte the process reaches).
VERIFIED_BY = "provmem-audit/2"


@dataclass(frozen=True)
class AuditKeys:
    """The audit's keys, from the master key: ``secret`` keys the fingerprints and the
    receipt's scope hash; ``seal`` and ``open`` box the ids the ledger keeps."""

    secret: bytes
    seal: Callable[[Any], Any]
    open: Callable[[Any], Any]

    @classmethod
    def of(cls, settings: Settings) -> AuditKeys:
        key = master_key(settings)
        seal, open_ = ledger_box(audit_key(key))
        return cls(hmac.new(key, b"provmem-audit", hashlib.sha256).digest(), seal, open_)

    def mark(self, scheme: str = SCHEME) -> Fingerprint:
        return fingerprinter(scheme, self.secret)


@dataclass(frozen=True)
class Recorded:
    """A ledger entry, opened: what the request erased and how its fingerprints were made."""

    scope_key: str
    evidence_ids: list[str]
    fragments: set[str]
    scheme: str
    fields: dict[str, Any]  # the entry as stored (the residue marks among them)


@dataclass(frozen=True)
class Erased:
    """What one run of a request erased, for its receipt and its ledger entry."""

    request: ErasureRequested
    evidence_ids: list[str]
    removed: dict[str, int]  # per store, and facts_erased / facts_revalidated
    prints: set[str]
    seconds: float
    residue: dict[str, int]  # what the verification found, per store
    awaiting: Awaiting = Awaiting()  # log records that open until the broker compacts


class ErasureLedger:
    """Ledger entries and receipts in one state store; receipts on their topic too."""

    def __init__(self, store: StateStore, log: EventLog, names: TopicNames, keys: AuditKeys):
        self.store = store
        self.log = log
        self.names = names
        self.keys = keys

    async def journal(self, request_id: str, evidence_ids: list[str]) -> Journal:
        """The request's journal, resumed from a crashed run (ids sealed by the audit key)."""
        box = (self.keys.seal, self.keys.open)
        return await Journal.resume(self.store, request_id, evidence_ids, box)

    async def recorded(self, request_id: str) -> Recorded | None:
        entry = await self._entry(request_id)
        if entry is None:
            return None
        return Recorded(
            scope_key=self.keys.open(entry["scope"]),
            evidence_ids=self.keys.open(entry["evidence_ids"]),
            fragments=set(entry["fragments"]),
            scheme=entry.get("fingerprint_scheme", LEGACY_SCHEME),
            fields=entry,
        )

    async def receipt(self, request_id: str) -> ErasureCompleted | None:
        entry = await self._entry(request_id)
        return None if entry is None else ErasureCompleted.model_validate(entry["receipt"])

    async def _entry(self, request_id: str) -> dict[str, Any] | None:
        raw = await self.store.load(LEDGER + request_id)
        return None if raw is None else dict(json.loads(raw))

    def receipt_of(self, erased: Erased) -> ErasureCompleted:
        removed = erased.removed
        return ErasureCompleted(
            request_id=erased.request.request_id,
            scope_key_hash=keyed_print(self.keys.secret, erased.request.scope.key),
            evidence_erased=len(erased.evidence_ids),
            facts_erased=removed["facts_erased"],
            facts_revalidated=removed["facts_revalidated"],
            removed_per_store={k: v for k, v in removed.items() if not k.startswith("facts_")},
            seconds_to_receipt=round(erased.seconds, 4),
            residue_found=sum(erased.residue.values()),
            verified_by=VERIFIED_BY,
            completed_at=datetime.now(UTC),
            awaiting_compaction=erased.awaiting.records,
            compaction_bound_ms=erased.awaiting.bound_ms,
        )

    async def record(
        self, erased: Erased, receipt: ErasureCompleted, marks: dict[str, object]
    ) -> None:
        """The entry, then the receipt on the erasure-receipts topic."""
        request_id = erased.request.request_id
        entry = {
            "scope": self.keys.seal(erased.request.scope.key),
            "evidence_ids": self.keys.seal(erased.evidence_ids),
            "fragments": sorted(erased.prints),
            "fingerprint_scheme": SCHEME,
            MARKS_FIELD: marks,
            "verification": {k: v for k, v in erased.residue.items() if v},  # counts
            "awaiting_compaction": erased.awaiting.to_json(),
            "receipt": receipt.model_dump(mode="json"),
        }
        await self.store.save(LEDGER + request_id, json.dumps(entry).encode())
        record = Append(0, request_id.encode(), ERASURE_RECEIPTS.encode(receipt))
        await self.log.append(self.names.erasure_receipts, [record])
