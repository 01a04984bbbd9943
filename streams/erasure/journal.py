"""The journal of an erasure in progress, so that its receipt is right after a crash.

An erasure destroys what it counts: once a subject's turns are compacted away and its
data key destroyed, a re-run of the request after a crash finds nothing left and would
report 0 evidence, 0 facts and 0 keys erased. So before the first destructive step the
cascade journals what it is about to erase (the evidence ids), and after each step what
that step removed; a re-run merges the journal into what it finds (the larger count of
each store wins: a count can only have been reached once). The journal is dropped
when the receipt is written, which keeps only counts and keyed fingerprints.

The journal is an entry of the erasure ledger (a state store), under ``PENDING + id``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from provmem.core.ports import StateStore

PENDING = "erasure-pending|"


def keyed_print(secret: bytes, value: str) -> str:
    """A keyed fingerprint of an id: comparable by whoever holds the key, nobody else."""
    return hmac.new(secret, value.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def keyed_prints(secret: bytes, values: Iterable[str]) -> list[str]:
    return sorted({keyed_print(secret, value) for value in values})


@dataclass
class Journal:
    """What a request has erased so far (across crashed runs) and what it will erase."""

    ledger: StateStore
    request_id: str
    evidence_ids: list[str]
    box: tuple[Callable[[Any], Any], Callable[[Any], Any]]
    counts: dict[str, int] = field(default_factory=dict)

    @classmethod
    async def resume(
        cls,
        ledger: StateStore,
        request_id: str,
        evidence_ids: list[str],
        box: tuple[Callable[[Any], Any], Callable[[Any], Any]],
    ) -> Journal:
        """The journal of ``request_id`` with ``evidence_ids`` added, saved before any
        destructive step (a crashed run's ids are kept: its turns may be gone now). The
        ids are sealed by ``box`` (seal, open: the audit key), never stored raw."""
        raw = await ledger.load(PENDING + request_id)
        earlier = json.loads(raw) if raw is not None else {"evidence_ids": [], "counts": {}}
        ids = list(dict.fromkeys([*box[1](earlier["evidence_ids"]), *evidence_ids]))
        journal = cls(ledger, request_id, ids, box, dict(earlier["counts"]))
        await journal._save()
        return journal

    async def note(self, counts: Mapping[str, int]) -> None:
        """Record what a step removed (merged: the larger count of a store wins)."""
        self.counts = merged(self.counts, counts)
        await self._save()

    async def close(self) -> None:
        await self.ledger.delete(PENDING + self.request_id)

    async def _save(self) -> None:
        body = {"evidence_ids": self.box[0](self.evidence_ids), "counts": self.counts}
        await self.ledger.save(PENDING + self.request_id, json.dumps(body).encode())


def merged(first: Mapping[str, int], second: Mapping[str, int]) -> dict[str, int]:
    """Per store, the larger count of the two."""
    return {key: max(first.get(key, 0), second.get(key, 0)) for key in {*first, *second}}
