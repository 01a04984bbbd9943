"""The byte audit of the log: every retained record, read as a holder of the master key
reads it.

A broker keeps what it has not compacted: on Tansu every record (it never compacts), on
Apache Kafka what its log cleaner has not reached yet. So the audit reads every record
every topic still holds, not each key's latest, and:

- scans the record as it is at rest (key and value bytes);
- opens each sealed record of the erased scope with the *live* data keys (a sealer of
  its own, nothing cached) and the turn's text sealed inside it, and scans the plaintext;
  what a destroyed key sealed stays closed, which is the point of crypto-shredding;
- counts a retained copy of the scope's data key that the master key unwraps and that
  is not its live key (infra/crypto/key_ring.py rewrites the key ring so there is none).

A hit in a record of a compacted topic that a later record of its key supersedes (an
older version, a turn before its tombstone) is not counted as residue but as *awaiting
compaction*: a compacting broker drops it within the topics' bound (streams/topics.py
``COMPACTION``), and the receipt and ``provmem audit erasure`` say how many records
and that bound. The erasure's own request and control record name the ids they erase:
only their words count; an ERASE change holds no content. A record's key always counts
(an erased id as a key is residue: turns and fact-changes keys are keyed fingerprints).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any

import structlog
from cryptography.exceptions import InvalidTag

from provmem.core.ports import Cleanup, EventLog, LogRecord, TopicAdmin, TopicConfig
from provmem.streams.erasure.ports import ErasureDeps, RecordedKeyStore
from provmem.streams.pipeline import CONTROL_PREFIX
from provmem.streams.runtime.adapters import (
    EvidenceSealer,
    Hit,
    KeyWrapper,
    LogSealer,
    ResidueScanner,
    content_tokens,
    is_log_key_of,
    is_sealed,
    mark,
    partition_records,
    raw_log,
    scope_records,
    subject_key_id,
)
from provmem.streams.topics import (
    COMPACTION,
    ERASURE_REQUESTS,
    TURNS,
    TopicNames,
    gate_changelogs,
)

log = structlog.get_logger(__name__)
_SCOPE = re.compile(rb'"scope":\{"org":"([^"]*)","project":"([^"]*)","user":"([^"]*)"')


@dataclass(frozen=True)
class Awaiting:
    """Retained log records that still open under a live key and hold a mark, which only
    a compacting broker drops (``bound_ms``: the topics' bound, when any are counted)."""

    records: int = 0
    bound_ms: int | None = None

    def to_json(self) -> dict[str, int | None]:
        return {"records": self.records, "bound_ms": self.bound_ms}


@dataclass(frozen=True)
class Retained:
    """A record the log holds; ``superseded``: a later record of its key is there."""

    location: str
    record: LogRecord
    superseded: bool


async def retained(
    log: EventLog, topic: str, compacted: bool, only: int | None = None, scope: str | None = None
) -> AsyncIterator[Retained]:
    """Every record of every partition of ``topic`` (of partition ``only``, when given), as
    the log holds it now; on a ``compacted`` topic, whether a later record of its key
    supersedes it (elsewhere nothing is: a delete-policy topic keeps every record until
    its retention). ``scope`` (with ``only``): that scope's records and those that show
    none, where the log reads by scope (a key's records are all of one scope, so whether
    one is superseded reads the same)."""
    every = range(await log.partitions(topic))
    for partition in every if only is None else [p for p in every if p == only]:
        if only is not None and scope is not None:
            records = [r async for r in scope_records(log, topic, partition, scope)]
        else:
            records = [r async for r in partition_records(log, topic, partition)]
        last = {r.key: r.offset for r in records if r.key is not None}
        for r in records:
            superseded = compacted and r.key is not None and last[r.key] > r.offset
            yield Retained(f"log:{topic}[{partition}]@{r.offset}", r, superseded)


@dataclass
class _Found:
    superseded: bool
    at_rest: list[Hit]
    opened: list[Hit]


@dataclass
class LogAudit:
    """One byte audit's scanner, what it allows (see streams/erasure/residue.byte_audit)
    and what awaits compaction."""

    hits: ResidueScanner
    scope_key: str
    partition: int | None = None  # scoped: only the scope's turns and fact changes there
    reported: list[Hit] = field(default_factory=list)
    log_only: set[str] = field(default_factory=set)  # allowed in the log and its file
    anywhere: set[str] = field(default_factory=set)  # scope-key words
    awaiting: int = 0

    async def log(self, deps: ErasureDeps) -> int:
        """Hits in the log's retained records that compaction would keep (the latest of
        their key); those it would drop are counted in :attr:`awaiting`."""
        marks, names = self.hits.marks, deps.names
        allowed = ResidueScanner(self.hits.key, marks)
        words = ResidueScanner(self.hits.key, replace(marks, ids=frozenset()))
        opener = _Opener(deps.secrets.live_sealer(deps.keys))
        found: list[_Found] = []
        scopes: set[str] = set()
        for config in self._topics(names):
            compacted = config.cleanup is Cleanup.COMPACT
            scoped = retained(
                raw_log(deps.log), config.name, compacted, self.partition, self.scope_key
            )
            async for item in scoped:
                record, value = item.record, item.record.value
                scope = _scope_of(value)
                scopes.add(scope or "")
                if self._elsewhere(scope):
                    continue
                parts = [(item.location, None, value)]
                own = value is not None and config.name != names.erasure_requests
                # a key always counts: record keys are keyed (infra/log/record_keys.py)
                at_rest = self.hits.scan_records([(item.location, record.key, None)])
                if is_sealed(value) or (own and scope in (None, self.scope_key)):
                    at_rest += self.hits.scan_records(parts)
                else:
                    allowed.scan_records(parts)
                opened: list[Hit] = []
                if scope == self.scope_key and is_sealed(value):
                    plain = await opener.plaintext(record)
                    scan = self.hits if _content(plain) else None
                    if _bookkeeping(config.name, names, record):
                        scan = words
                    if scan is not None:
                        opened = scan.scan_records([(item.location, None, p) for p in plain])
                if at_rest or opened:
                    found.append(_Found(item.superseded, at_rest, opened))
        if self.partition is None:  # scoped: the gate state is read by the audit itself
            found += await self._gate_state(deps, opener)
        self.log_only = {h.fingerprint for h in allowed.hits}
        tokens = content_tokens(part for scope in scopes for part in scope.split("/"))
        self.anywhere = {mark(self.hits.key, word) for word in tokens}
        return self._tally(found)

    def _elsewhere(self, scope: str | None) -> bool:
        """Scoped, a record of another scope is not read: the erased content was written
        to the scope's own records only (their keys are keyed by their own ids)."""
        return self.partition is not None and scope not in (None, self.scope_key)

    def _topics(self, names: TopicNames) -> list[TopicConfig]:
        """Every topic; scoped, the two the erased content was written to."""
        every = names.configs(key_ring=False)
        if self.partition is None:
            return every
        return [c for c in every if c.name in (names.turns, names.fact_changes)]

    async def _gate_state(self, deps: ErasureDeps, opener: _Opener) -> list[_Found]:
        """The workers' gate-state changelogs (compacted topics on Kafka, one per gate
        generation): every retained record, and each of the erased scope's opened with
        the live keys."""
        log: EventLog = raw_log(deps.log)
        if not isinstance(log, TopicAdmin):
            return []
        found: list[_Found] = []
        for topic in gate_changelogs(deps.settings.consumer_group, await log.topics()):
            found += await self._changelog(log, topic, opener)
        return found

    async def _changelog(self, log: EventLog, topic: str, opener: _Opener) -> list[_Found]:
        found: list[_Found] = []
        async for item in retained(log, topic, compacted=True):
            record = item.record
            at_rest = self.hits.scan_records([(item.location, record.key, record.value)])
            opened: list[Hit] = []
            if _state_scope(record.key) == self.scope_key and record.value is not None:
                plain = await opener.field(record.value, "sealed")
                opened = self.hits.scan_records([(item.location, None, p) for p in plain])
            if at_rest or opened:
                found.append(_Found(item.superseded, at_rest, opened))
        return found

    def _tally(self, found: list[_Found]) -> int:
        counted: list[Hit] = []
        for item in found:
            kept = [h for h in item.at_rest if not self._allowed(h)]
            kept += [h for h in item.opened if not self._scope_word(h)]
            if kept and item.superseded:
                self.awaiting += 1
            else:
                counted += kept
        self.reported += counted
        return len(counted)

    def counted(self, found: list[Hit]) -> int:
        kept = [h for h in found if not self._allowed(h)]
        self.reported += kept
        return len(kept)

    def awaiting_compaction(self) -> Awaiting:
        bound = COMPACTION.bound_ms if self.awaiting else None
        return Awaiting(self.awaiting, bound)

    def _scope_word(self, hit: Hit) -> bool:
        return hit.kind == "word" and hit.fingerprint in self.anywhere

    def _allowed(self, hit: Hit) -> bool:
        if self._scope_word(hit):
            return True
        in_log = hit.location.startswith(("log:", "log.db"))
        return in_log and hit.fingerprint in self.log_only


@dataclass
class _Opener:
    """Opens a record with the live keys: its value, and a turn's text inside it."""

    sealer: EvidenceSealer
    records: LogSealer = field(init=False)

    def __post_init__(self) -> None:
        self.records = LogSealer(self.sealer, _no_policy)

    async def plaintext(self, record: LogRecord) -> list[bytes]:
        value = (await self.records.open(record)).value
        if value is None:
            return []  # sealed under a destroyed key
        found = [value, *await self._reason(record.topic, value)]
        if record.topic.endswith("." + TURNS.suffix) and value.startswith(b"{"):
            try:
                turn = TURNS.decode(value)
                found.append((await self.sealer.open(turn.text)).encode("utf-8"))
            except (LookupError, ValueError, InvalidTag):
                pass  # a control record, or its text's key is gone
        return found

    async def _reason(self, topic: str, value: bytes) -> list[bytes]:
        """An erasure request's reason, sealed inside it under its subject's data key."""
        if not topic.endswith("." + ERASURE_REQUESTS.suffix):
            return []
        return await self.field(value, "reason")

    async def field(self, value: bytes, name: str) -> list[bytes]:
        """A field of a JSON value, opened with the live keys (a sealed blob; text from
        before sealing as it is): a gate-state record's ``sealed`` body, a request's
        ``reason``. None when absent, or sealed under a destroyed key."""
        try:
            found = json.loads(value).get(name)
            opened = await self.sealer.open_blob(found) if isinstance(found, str) else ""
        except (ValueError, AttributeError, LookupError, InvalidTag):
            return []
        return [opened.encode("utf-8")] if opened else []


def _state_scope(key: bytes | None) -> str | None:
    """The scope a gate-state key names (``…gate|<scope>|fact|…``)."""
    text = (key or b"").decode("utf-8", "replace")
    return text.split("gate|", 1)[1].split("|", 1)[0] if "gate|" in text else None


def _no_policy(topic: str, record: object) -> None:
    return None


def _bookkeeping(topic: str, names: Any, record: LogRecord) -> bool:
    """The erasure's own records that carry what was asked (its request and receipt, its
    control record on the turns partition): their ids are allowed, their words are not."""
    if topic in (names.erasure_requests, names.erasure_receipts):
        return True
    return (record.key or b"").startswith(CONTROL_PREFIX)


def _content(plain: list[bytes]) -> bool:
    """Whether opened bytes may hold content: anything but an ERASE change, which holds
    ids, the scope and a fixed reason only (core/erasure.py ``erasure_of``)."""
    try:
        body = json.loads(plain[0]) if plain else None
    except ValueError:
        return True
    erase = isinstance(body, dict) and body.get("op") == "ERASE" and body.get("fact") is None
    return bool(plain) and not erase


def _scope_of(value: bytes | None) -> str | None:
    found = _SCOPE.search(value or b"")
    return None if found is None else "/".join(part.decode() for part in found.groups())


async def key_copies(deps: ErasureDeps, scope_key: str) -> int:
    """Retained records of the scope's data key or of any epoch of its log key that the
    master key unwraps and that are not that key's live value (a shredded subject's, a
    retired epoch's, must be on none: infra/crypto/key_ring.py)."""
    keys = deps.keys
    if not isinstance(keys, RecordedKeyStore):
        return 0  # keys not kept on the log (the embedded runtime's are in views.db)
    wrapper = deps.secrets.wrapper
    live: dict[str, bytes | None] = {}
    copies = 0
    async for location, key, value in keys.records():
        key_id = (key or b"").decode("utf-8", "replace")
        if not _of_subject(key_id, scope_key) or value is None or not wrapper.owns(value):
            continue
        if key_id not in live:
            live[key_id] = await _live_key(keys, wrapper, key_id)
        try:
            unwrapped = wrapper.unwrap(key_id, value)
        except InvalidTag:
            continue
        if unwrapped != live[key_id]:
            copies += 1
            log.warning("erasure.residue", location=location, kind="data_key")
    return copies


def _of_subject(key_id: str, scope_key: str) -> bool:
    return key_id == subject_key_id(scope_key) or is_log_key_of(key_id, scope_key)


async def _live_key(keys: RecordedKeyStore, wrapper: KeyWrapper, key_id: str) -> bytes | None:
    live = await keys.get(key_id)
    return wrapper.unwrap(key_id, live) if live and wrapper.owns(live) else None
