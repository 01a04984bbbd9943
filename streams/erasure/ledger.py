"""The erasure ledger: what each request erased, and its receipt.

An entry (state-store key ``LEDGER + request id``) keeps the scope and the erased
evidence ids sealed under the audit key, keyed fingerprints of the erased text's word
runs with their scheme, the residue marks (streams/erasure/residue.py), what the
verification found per store (``verification``) and the receipt;
never text. The receipt also goes on the erasure-receipts topic. While a request runs,
its journal (streams/erasure/journal.py) is an entry of the same store.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from provmem.core.events import ErasureCompleted, ErasureRequested
from provmem.core.ports import EventLog, StateStore
from provmem.streams.erasure.fingerprints import LEGACY_SCHEME, SCHEME, Fingerprint, fingerprinter
from provmem.streams.erasure.journal import Journal, keyed_print, keyed_prints
from provmem.streams.erasure.log_audit import Awaiting
from provmem.streams.erasure.residue import MARKS_FIELD
from provmem.streams.erasure.secrets import ErasureSecrets
from provmem.streams.runtime.adapters import ledger_box
from provmem.streams.topics import ERASURE_RECEIPTS, TopicNames

LEDGER = "erasure|"
#: /2: the verification runs the byte audit too (every byte the process reaches).
VERIFIED_BY = "provmem-audit/2"
#: An evidence or session erasure's verification: only where the erased content went (its
#: ids in the stores that held them, its marks in the scope's facts and in the scope's
#: partition of the turns and fact-changes topics, the gate state, the embedding cache);
#: the byte scan of every file and store is ``provmem audit erasure`` (VERIFIED_BY).
SCOPED_VERIFIED_BY = "provmem-audit-scoped/1"


@dataclass(frozen=True)
class AuditKeys:
    """The audit's keys, from the master key: ``secret`` keys the fingerprints and the
    receipt's scope hash; ``seal`` and ``open`` box the ids the ledger keeps."""

    secret: bytes
    seal: Callable[[Any], Any]
    open: Callable[[Any], Any]

    @classmethod
    def of(cls, secrets: ErasureSecrets) -> AuditKeys:
        seal, open_ = ledger_box(secrets.audit_key)
        return cls(secrets.ledger_secret, seal, open_)

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
    fact_ids: list[str] = field(default_factory=list)  # the facts that went


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
    fact_ids: tuple[str, ...] = ()  # the facts that went
    findings: tuple[dict[str, Any], ...] = ()  # each byte hit of the verification
    verified_by: str = VERIFIED_BY  # which verification ran (SCOPED_VERIFIED_BY: scoped)


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
            fact_ids=self.keys.open(entry["facts_gone"]) if "facts_gone" in entry else [],
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
            verified_by=erased.verified_by,
            completed_at=datetime.now(UTC),
            awaiting_compaction=erased.awaiting.records,
            compaction_bound_ms=erased.awaiting.bound_ms,
            erased_evidence=keyed_prints(self.keys.secret, erased.evidence_ids),
            erased_facts=keyed_prints(self.keys.secret, erased.fact_ids),
        )

    async def record(
        self, erased: Erased, receipt: ErasureCompleted, marks: dict[str, object]
    ) -> None:
        """The entry, then the receipt on the erasure-receipts topic."""
        request_id = erased.request.request_id
        entry = {
            "scope": self.keys.seal(erased.request.scope.key),
            "evidence_ids": self.keys.seal(erased.evidence_ids),
            "facts_gone": self.keys.seal(list(erased.fact_ids)),
            "fragments": sorted(erased.prints),
            "fingerprint_scheme": SCHEME,
            MARKS_FIELD: marks,
            "verification": {k: v for k, v in erased.residue.items() if v},  # counts
            "findings": list(erased.findings),  # where, and the term's keyed fingerprint
            "awaiting_compaction": erased.awaiting.to_json(),
            "receipt": receipt.model_dump(mode="json"),
        }
        await self.store.save(LEDGER + request_id, json.dumps(entry).encode())
        record = ERASURE_RECEIPTS.record(0, receipt)
        await self.log.append(self.names.erasure_receipts, [record])
