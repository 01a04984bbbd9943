"""The search index: facts and raw evidence turns as dense + BM25 points in Qdrant.

An evidence point's sparse vector also holds the turn's hard anchors (identifiers, paths,
``package@version``, commands, measures, errors: :func:`indexed_anchor_terms`) as exact
terms of their own namespace (:func:`anchor_vector`), found by recall's anchor route.

Facts are indexed from fact changes; evidence turns from the turns topic (decrypted
in memory, embedded, never stored as text: evidence points carry no text payload).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import ValidationError

from ..core.events import Fact, FactChanged, FactOp, TurnRecorded
from ..core.ports import (
    CachingEmbedder,
    LogRecord,
    PurgeableStore,
    SparseVector,
    VectorIndex,
    VectorPoint,
)
from ..core.signals import indexed_anchor_terms
from ..infra.crypto import EvidenceSealer
from ..infra.sparse import anchor_vector, with_anchors
from .outcome import Outcome
from .topics import TURNS


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


class EvidenceIndexer:
    """Turns -> raw evidence points (the raw-evidence retrieval route)."""

    def __init__(self, index: SearchIndex, sealer: EvidenceSealer) -> None:
        self._index = index
        self._sealer = sealer

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        turns: list[tuple[TurnRecorded, str]] = []
        erased: list[str] = []
        for record in records:
            if record.value is None:
                erased.append((record.key or b"").decode())
                continue
            turn = decode_turn(record.value)
            if turn is not None and turn.action == "say":  # actions are covered by facts
                try:
                    turns.append((turn, await self._sealer.open(turn.text)))
                except LookupError:
                    continue  # its subject was erased: the data key is gone
        if erased:
            await self._index.erased(erased)
        if turns:
            await self._index.index_evidence(turns)
        return Outcome()  # malformed turns are dead-lettered by the derive stage


def decode_turn(raw: bytes) -> TurnRecorded | None:
    """The turn a record holds; None for one the derive stage dead-letters."""
    try:
        turn = TURNS.decode(raw)
    except (ValidationError, ValueError):
        return None
    return turn if isinstance(turn, TurnRecorded) else None
