"""The checksum report: do the rebuilt views equal the live ones, scope by scope?

Per scope, two digests on each side, SHA-256 over sorted canonical JSON lines:

- **facts**: every fact of the scope's facts view (``model_dump(mode="json")``, keys
  sorted);
- **points**: for every fact id of the facts view and every evidence id of the scope,
  the vector-index point's payload (``None`` when absent), plus the count of the scope's
  points, so a stray point shows too. The payload carries what the dense and the keyword
  (BM25) routes filter and return: id, scope, status, kind, entities, time, statement.

A replay from turns ignores each fact's ``version``: versions count changes, and an
erasure's re-derivation bumps them past what a fresh derivation gives (core/erasure.py,
``same_view``); every other field is compared. History versions are not compared: the
log is compacted (only the latest change of a fact is kept), so a replay cannot restore
versions that compaction removed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from provmem.core.events import Fact
from provmem.core.ports import EventLog
from provmem.services.replay.stages import record_scope
from provmem.streams.runtime.components import Components
from provmem.streams.runtime.erasure import capabilities_of


class ScopeChecksum(BaseModel):
    scope: str
    facts: int
    rebuilt_facts: int
    facts_sha256: str
    rebuilt_facts_sha256: str
    points: int
    rebuilt_points: int
    points_sha256: str
    rebuilt_points_sha256: str
    equal: bool


class ChecksumReport(BaseModel):
    """Live against rebuilt, per scope and overall."""

    equal: bool
    scopes: list[ScopeChecksum]
    ignored_fields: list[str]

    @property
    def unequal_scopes(self) -> list[str]:
        return [s.scope for s in self.scopes if not s.equal]


async def checksum_report(
    live: Components, rebuilt: Components, scopes: Sequence[str], *, exact: bool
) -> ChecksumReport:
    """Compare the views of ``scopes``; ``exact`` compares fact versions too."""
    ignored = set() if exact else {"version"}
    checks = [await _scope_checksum(live, rebuilt, s, ignored) for s in sorted(scopes)]
    return ChecksumReport(
        equal=all(c.equal for c in checks), scopes=checks, ignored_fields=sorted(ignored)
    )


async def _scope_checksum(
    live: Components, rebuilt: Components, scope: str, ignored: set[str]
) -> ScopeChecksum:
    facts, facts_sha = await facts_digest(live, scope, ignored)
    rebuilt_facts, rebuilt_facts_sha = await facts_digest(rebuilt, scope, ignored)
    points, points_sha = await points_digest(live, scope)
    rebuilt_points, rebuilt_points_sha = await points_digest(rebuilt, scope)
    return ScopeChecksum(
        scope=scope,
        facts=facts,
        rebuilt_facts=rebuilt_facts,
        facts_sha256=facts_sha,
        rebuilt_facts_sha256=rebuilt_facts_sha,
        points=points,
        rebuilt_points=rebuilt_points,
        points_sha256=points_sha,
        rebuilt_points_sha256=rebuilt_points_sha,
        equal=(facts_sha, points_sha) == (rebuilt_facts_sha, rebuilt_points_sha),
    )


async def facts_digest(components: Components, scope: str, ignored: set[str]) -> tuple[int, str]:
    """How many facts the scope has, and the digest of their canonical JSON."""
    facts = await components.views.facts_in_scope(scope)
    return len(facts), _digest([_canonical(f, ignored) for f in facts])


async def points_digest(components: Components, scope: str) -> tuple[int, str]:
    """How many points the scope has in the vector index, and the digest of their payloads."""
    vectors = components.vectors
    found = capabilities_of(components.log, components.evidence, components.views, vectors)
    if found.payloads is None:
        raise TypeError(f"{type(vectors).__name__} cannot show payloads to compare")
    payload = found.payloads.payload
    facts = await components.views.facts_in_scope(scope)
    ids = sorted({f.fact_id for f in facts} | set(await components.evidence.ids_in_scope(scope)))
    count = await components.vectors.count(scope)
    lines = [f"count {count}"] + [_json({"id": i, "payload": await payload(i)}) for i in ids]
    return count, _digest(lines)


async def scopes_on_log(log: EventLog, topics: Iterable[str]) -> list[str]:
    """Every scope key a turn or a fact change on these topics names."""
    found: set[str | None] = set()
    for topic in topics:
        for partition in range(await log.partitions(topic)):
            offset = 0
            while batch := await log.read(topic, partition, offset, 1000):
                offset = batch[-1].offset + 1
                found.update(record_scope(r.value) for r in batch if r.value is not None)
    return sorted(scope for scope in found if scope is not None)


def _canonical(fact: Fact, ignored: set[str]) -> str:
    return _json(fact.model_dump(mode="json", exclude=ignored))


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(lines: list[str]) -> str:
    sha = hashlib.sha256()
    for line in sorted(lines):
        sha.update(line.encode("utf-8") + b"\n")
    return sha.hexdigest()
