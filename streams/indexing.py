"""The search index: facts and raw evidence turns as dense + BM25 points in Qdrant.

An evidence point's sparse vector also holds the turn's hard anchors (identifiers, paths,
``package@version``, commands, measures, errors: :func:`indexed_anchor_terms`) as exact
terms of their own namespace (:func:`anchor_vector`), found by recall's anchor route.

Facts are indexed from fact changes; evidence turns from the turns topic (decrypted
in memory, embedded, never stored as text: evidence points carry no text payload).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import ValidationError

from provmem.core.events import Fact, FactChanged, FactOp, TurnRecorded
from provmem.core.language.signals import indexed_anchor_terms
from provmem.core.ports import (
    CachingEmbedder,
    EventLog,
    EvidenceSealing,
    ListedItems,
    LogRecord,
    PurgeableStore,
    SparseVector,
    VectorIndex,
    VectorPoint,
)
from provmem.streams.outcome import Outcome
from provmem.streams.runtime.adapters import (
    PLAIN_KEYS,
    RecordKeys,
    anchor_vector,
    is_keyed,
    with_anchors,
)
from provmem.streams.topics import TURNS

#: How many indexed turns' keyed record keys an indexer remembers (to match tombstones).
REMEMBERED = 100_000
_SCAN = 1000


class KeywordEncoder(Protocol):
    def embed_documents(self, texts: Sequence[str]) -> list[SparseVector]: ...

    def embed_query(self, text: str) -> SparseVector: ...


@dataclass(frozen=True)
class SearchIndex:
    """``purge_after_erase``: the index whose deleted points are dropped physically after
    each batch that erased some (a reader's local index on Kafka, chosen by its root; the
    embedded cascade purges once itself)."""

    vectors: VectorIndex
    embedder: CachingEmbedder
    keywords: KeywordEncoder
    purge_after_erase: PurgeableStore | None = None

    async def erased(self, item_ids: Sequence[str]) -> None:
        """Delete items' points (and purge them, see above)."""
        await self.vectors.delete(item_ids)
        if self.purge_after_erase is not None:
            await self.purge_after_erase.purge()

    async def index_facts(self, changes: Sequence[FactChanged]) -> None:
        """One set-based delete and one upsert per batch; a fact's last change wins."""
        last = {c.fact_id: c for c in changes if c.op is not FactOp.NOOP}
        erased = [i for i, c in last.items() if c.op is FactOp.ERASE]
        fresh = [c.fact for c in last.values() if c.op is not FactOp.ERASE and c.fact]
        if erased:
            await self.erased(erased)
        if fresh:
            await self.vectors.upsert(self._fact_points(fresh))

    def _fact_points(self, facts: Sequence[Fact]) -> list[VectorPoint]:
        texts = [f.statement for f in facts]
        dense, sparse = self.embedder.embed(texts), self.keywords.embed_documents(texts)
        return [
            VectorPoint(
                f.fact_id,
                d,
                f.scope.key,
                f.status.value,
                f.statement,
                s,
                tuple(e.lower() for e in f.entities),
                (f.valid_from or f.last_verified_at).isoformat(),
                "fact",
            )
            for f, d, s in zip(facts, dense, sparse, strict=True)
        ]

    async def index_evidence(self, turns: Sequence[tuple[TurnRecorded, str]]) -> None:
        texts = [evidence_document(turn, text) for turn, text in turns]
        dense, words = _embed_transient(self.embedder, texts), self.keywords.embed_documents(texts)
        sparse = [
            with_anchors(w, anchor_vector(indexed_anchor_terms(text)))
            for w, (_, text) in zip(words, turns, strict=True)
        ]
        await self.vectors.upsert(
            [
                VectorPoint(
                    t.evidence_id,
                    d,
                    t.scope.key,
                    "active",
                    "",
                    s,
                    (t.speaker.lower(),),
                    t.captured_at.isoformat(),
                    "evidence",
                )
                for (t, _), d, s in zip(turns, dense, sparse, strict=True)
            ]
        )


def evidence_document(turn: TurnRecorded, text: str) -> str:
    """What the raw-evidence routes index for a turn: who said it and when, then the text.

    A turn's words alone miss its attribution ("I" is the speaker) and its time; questions
    name both ("What did Caroline say in May?"). The header makes them searchable.
    """
    when = turn.captured_at
    return f"{turn.speaker} on {when.day} {when:%B %Y}: {text}"


def _embed_transient(embedder: CachingEmbedder, texts: Sequence[str]) -> list[list[float]]:
    """Embed evidence documents outside the embedding cache: they are embedded once, and
    erasure must not have to reconstruct them to clean the cache."""
    return embedder.embed_transient(texts)


class TombstonedTurns:
    """The evidence ids that turns' tombstones name.

    A tombstone's key is a keyed fingerprint of the evidence id (infra/log/record_keys.py):
    its id is found among the turns this reader met (the latest :data:`REMEMBERED`),
    else, given ``held``, among the evidence points the reader's own index holds (a
    reader restarted since it indexed them: after a subject erasure the subject's turns
    no longer open on the log), else, given ``log``, among the partition's turns before
    the tombstone (read through the log's sealer; a turn compacted away is not found, nor
    needed: whoever read it met its tombstone then). A raw key (a tombstone of an older
    log) is the id."""

    def __init__(
        self,
        keys: RecordKeys = PLAIN_KEYS,
        log: EventLog | None = None,
        held: ListedItems | None = None,
    ) -> None:
        self._keys = keys
        self._log = log
        self._held = held
        self._met: OrderedDict[bytes, str] = OrderedDict()

    async def remember(self, turns: Sequence[TurnRecorded]) -> None:
        printer = await self._keys.printer()
        for turn in turns:
            self._met[printer(turn.evidence_id)] = turn.evidence_id
        while len(self._met) > REMEMBERED:
            self._met.popitem(last=False)

    async def ids(self, tombstones: Sequence[LogRecord]) -> list[str]:
        return list(dict.fromkeys((await self.named(tombstones)).values()))

    async def named(self, tombstones: Sequence[LogRecord]) -> dict[bytes, str]:
        """Each tombstone's key -> the evidence id it names (those found)."""
        found: dict[bytes, str] = {}
        unknown = []
        for record in tombstones:
            key = record.key or b""
            if not is_keyed(key):
                found[key] = TURNS.id_in(key)
            elif key in self._met:
                found[key] = self._met[key]
            else:
                unknown.append(record)
        if unknown and self._held is not None:
            wanted = {t.key or b"" for t in unknown}
            found.update(await self._keys.names(wanted, await self._held.item_ids("evidence")))
            unknown = [t for t in unknown if (t.key or b"") not in found]
        if unknown and self._log is not None:
            for partition in sorted({t.partition for t in unknown}):
                mine = [t for t in unknown if t.partition == partition]
                found.update(await self._on_log(self._log, mine))
        return found

    async def _on_log(self, log: EventLog, tombstones: Sequence[LogRecord]) -> dict[bytes, str]:
        """The ids of one partition's tombstones, among the turns before them."""
        topic, partition = tombstones[0].topic, tombstones[0].partition
        end, offset, ids = max(t.offset for t in tombstones), 0, []
        while offset < end and (batch := await log.read(topic, partition, offset, _SCAN)):
            offset = batch[-1].offset + 1
            turns = [decode_turn(r.value) for r in batch if r.value and r.offset < end]
            ids += [t.evidence_id for t in turns if t is not None]
        wanted = {t.key or b"" for t in tombstones}
        return await self._keys.names(wanted, ids)


class EvidenceIndexer:
    """Turns -> raw evidence points (the raw-evidence retrieval route); a turn's
    tombstone deletes its point (``tombstones`` finds its id)."""

    def __init__(
        self,
        index: SearchIndex,
        sealer: EvidenceSealing,
        tombstones: TombstonedTurns | None = None,
    ) -> None:
        self._index = index
        self._sealer = sealer
        self._tombstones = tombstones or TombstonedTurns()

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        decoded = [(r, decode_turn(r.value)) for r in records if r.value is not None]
        met = [turn for _, turn in decoded if turn is not None]
        await self._tombstones.remember(met)
        erased = await self._erased(records, {t.evidence_id: r.offset for r, t in decoded if t})
        turns: list[tuple[TurnRecorded, str]] = []
        for turn in met:
            if turn.action != "say" or turn.evidence_id in erased:
                continue  # actions are covered by facts
            try:
                turns.append((turn, await self._sealer.open(turn.text)))
            except LookupError:
                continue  # its subject was erased: the data key is gone
        if erased:
            await self._index.erased(sorted(erased))
        if turns:
            await self._index.index_evidence(turns)
        return Outcome()  # malformed turns are dead-lettered by the derive stage

    async def _erased(self, records: Sequence[LogRecord], said_at: dict[str, int]) -> set[str]:
        """The ids whose last record in the batch has no value: a tombstone, or a record
        sealed under a key since destroyed. A record that reads as no value and is
        followed by a readable one of the same turn (Kafka's crypto-compaction re-seals
        the turns an evidence erasure keeps under a new key, after the old ones) is not
        an erasure: that turn stays."""
        empty = [r for r in records if r.value is None]
        named = await self._tombstones.named(empty)
        return {
            evidence_id
            for record in empty
            if (evidence_id := named.get(record.key or b"")) is not None
            and said_at.get(evidence_id, -1) < record.offset
        }


def decode_turn(raw: bytes) -> TurnRecorded | None:
    """The turn a record holds; None for one the derive stage dead-letters."""
    try:
        return TURNS.decode(raw)
    except (ValidationError, ValueError):
        return None
