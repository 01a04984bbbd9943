"""Pipeline handlers shared by both runtimes: decode, call the pure core, say what to write.

A handler never sends anything itself: it returns an :class:`Outcome` and the
runtime sends the outgoing records first, then saves state, then commits the
input offset. A crash anywhere replays the input, and every step is idempotent
by id and version, so delivery is at-least-once with exactly-once effects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import structlog
from pydantic import ValidationError

from provmem.core.claim import Claim
from provmem.core.events import FactChanged, TurnRecorded
from provmem.core.extraction.values import ValueReading, read_turn_values
from provmem.core.facts.attribute_similarity import attribute_parts
from provmem.core.facts.corrections import ActionInput, Original, apply_action, target_of
from provmem.core.facts.gate import GateConfig, MergeAdvisor
from provmem.core.facts.memory_state import AttributeVectors, ScopeMemory, Vector, as_unit
from provmem.core.facts.value_state import SaidValue
from provmem.core.ports import (
    Embedder,
    EvidenceSealing,
    EvidenceStore,
    Extractor,
    FactViews,
    LogRecord,
    Parser,
)
from provmem.core.scope import partition_for
from provmem.core.stages import (
    Candidate,
    GateResult,
    attribute_phrase,
    derive_fact_changes,
    record_statement,
)
from provmem.streams.gate_store import GateStore
from provmem.streams.indexing import SearchIndex
from provmem.streams.outcome import Origin, Outcome, Outgoing, dead_letter, describe
from provmem.streams.topics import FACT_CHANGES, TURNS, TopicNames

log = structlog.get_logger(__name__)

#: How many earlier turns of a source name the session's participants for a turn's "you".
PARTICIPANT_WINDOW = 12

#: Key prefix of an erasure control record on the turns topic (turn keys are evidence
#: ids). The distributed runtime's derive agent runs the cascade when it meets one.
CONTROL_PREFIX = b"erasure|"


@dataclass(frozen=True)
class DeriveDeps:
    """What the derive stage needs besides the record: stores, crypto, models, gate config."""

    evidence: EvidenceStore
    gate: GateStore
    sealer: EvidenceSealing
    extractor: Extractor
    embedder: Embedder
    config: GateConfig
    advisor: MergeAdvisor | None = None
    parser: Parser | None = None
    """Reads the values a turn states (core/extraction/values.py); none read without it."""


class Deriver:
    """Turns -> evidence view + gate decisions (fact changes)."""

    def __init__(self, names: TopicNames, partitions: int, deps: DeriveDeps) -> None:
        self._names = names
        self._partitions = partitions
        self._deps = deps
        self._prepared: dict[str, list[Candidate]] = {}
        self._said: dict[str, list[SaidValue]] = {}

    @property
    def gate(self) -> GateStore:
        return self._deps.gate

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        """Handle records in order; later turns of a scope see the earlier ones' state.

        The batch's claims are extracted and embedded together first (neither depends on
        the gate state), so the model runs once per batch, not once per turn."""
        self._prepared = await self._prepare(records)
        self._said = await self._prepare_values(records)
        try:
            outcome = Outcome()
            for record in records:
                outcome.merge(await self.handle_record(record, outcome.state))
            return outcome
        finally:
            self._prepared, self._said = {}, {}

    async def _prepare(self, records: Sequence[LogRecord]) -> dict[str, list[Candidate]]:
        """Candidates of the batch's readable spoken turns, embedded in one call."""
        claims: dict[str, list[tuple[Claim, str]]] = {}
        for record in records:
            turn = _spoken_turn(record)
            if turn is None or turn.evidence_id in claims:
                continue
            try:
                found = await self._claims(turn)
            except LookupError:
                continue  # its subject was erased: handle() says so
            claims[turn.evidence_id] = [(claim, turn.speaker) for claim in found]
        every = [pair for pairs in claims.values() for pair in pairs]
        candidates = iter(candidates_of(self._deps.embedder, every))
        return {evidence_id: [next(candidates) for _ in cs] for evidence_id, cs in claims.items()}

    async def _prepare_values(self, records: Sequence[LogRecord]) -> dict[str, list[SaidValue]]:
        """The values the batch's users' turns state, parsed and embedded together."""
        turns: dict[str, tuple[TurnRecorded, str, list[Claim]]] = {}
        for record in records:
            turn = _spoken_turn(record)
            if turn is None or turn.role != "user" or turn.evidence_id in turns:
                continue
            try:
                text = await self._deps.sealer.open(turn.text)
            except LookupError:
                continue
            claims = [c.claim for c in self._prepared.get(turn.evidence_id, [])]
            turns[turn.evidence_id] = (turn, text, claims)
        return self._values_of(list(turns.values()))

    def _values_of(
        self, turns: list[tuple[TurnRecorded, str, list[Claim]]]
    ) -> dict[str, list[SaidValue]]:
        """Each turn's values read from its text and its user claims' statements (parsed
        in one call), embedded in another."""
        parser = self._deps.parser
        if parser is None or not turns:
            return {}
        mine = [[c for c in claims if c.role == "user"] for _, _, claims in turns]
        texts = [text for _, text, _ in turns] + [c.statement for cs in mine for c in cs]
        parsed = iter(parser.parse(texts))
        turn_parses = [next(parsed) for _ in turns]
        readings = {}
        for (turn, _, _), parse, claims in zip(turns, turn_parses, mine, strict=True):
            statements = [(next(parsed), (c.start, c.end)) for c in claims]
            readings[turn.evidence_id] = (
                turn,
                read_turn_values(parse, statements, turn.speaker),
            )
        every = [(turn, r) for turn, found in readings.values() for r in found]
        said = iter(said_values(self._deps.embedder, every))
        return {key: [next(said) for _ in found] for key, (_, found) in readings.items()}

    async def handle_record(self, record: LogRecord, pending: dict[str, bytes]) -> Outcome:
        """One turn against the gate state as the batch left it (``pending``)."""
        key, raw, origin = record.key, record.value, Origin.of(record)
        if raw is None:
            return Outcome()  # a tombstone: erasure handles its effects
        if key is not None and key.startswith(CONTROL_PREFIX):
            return Outcome()  # an erasure control record: see streams/erasure/eraser.py
        try:
            return await self._derive(TURNS.decode(raw), pending)
        except (ValidationError, ValueError, LookupError) as error:
            reason = describe(error)
            log.warning(
                "dead_letter",
                stage="derive",
                topic=origin.topic,
                partition=origin.partition,
                offset=origin.offset,
                reason=reason,
            )
            return Outcome([dead_letter(self._names, "derive", key, raw, reason, origin)])

    async def _derive(self, turn: TurnRecorded, pending: dict[str, bytes]) -> Outcome:
        deps, scope_key = self._deps, turn.scope.key
        await deps.evidence.put(turn)
        if await deps.gate.seen(scope_key, turn.evidence_id, pending):
            return Outcome()
        revision, memory = await deps.gate.load(scope_key, pending)
        result = await self._step(turn, memory)
        state = deps.gate.dump(scope_key, revision, memory, result.memory, turn.evidence_id)
        partition = partition_for(scope_key, self._partitions)
        outgoing = [self._out(change, partition) for change in result.changes]
        return Outcome(outgoing, state, list(result.decisions))

    async def rebuild(self, turns: Sequence[TurnRecorded]) -> ScopeMemory:
        """A scope's memory derived afresh from these turns, as a replay would."""
        memory = ScopeMemory()
        for turn in turns:
            memory = (await self._step(turn, memory)).memory
        return memory

    async def _step(self, turn: TurnRecorded, memory: ScopeMemory) -> GateResult:
        """One turn through the core: what was said goes through the gate; an action
        (correct, retract, approve, reject) goes to the corrections module."""
        deps = self._deps
        if turn.action != "say":
            action = await self._action(turn, memory)
            return apply_action(action, memory, deps.config)
        candidates = await self._candidates(turn)
        said = await self._said_values(turn, candidates)
        return derive_fact_changes(
            turn, candidates, memory, deps.config, deps.extractor.version, deps.advisor, said
        )

    async def _said_values(
        self, turn: TurnRecorded, candidates: Sequence[Candidate]
    ) -> list[SaidValue]:
        prepared = self._said.pop(turn.evidence_id, None)
        if prepared is not None or turn.role != "user" or self._deps.parser is None:
            return prepared or []
        text = await self._deps.sealer.open(turn.text)
        claims = [c.claim for c in candidates]
        return self._values_of([(turn, text, claims)]).get(turn.evidence_id, [])

    async def _action(self, turn: TurnRecorded, memory: ScopeMemory) -> ActionInput:
        """Decrypt the action's text; embed a new statement; read the original evidence
        an edited approval is checked against."""
        text = await self._deps.sealer.open(turn.text)
        target = target_of(turn, memory)
        vector, originals = None, []
        if target is not None and turn.action in ("correct", "approve"):
            if text.strip() and text.strip() != target.statement:
                vector = as_unit(self._deps.embedder.embed([text.strip()])[0])
            if turn.action == "approve":
                originals = await self._originals(target.evidence_ids)
        return ActionInput(turn, text, vector, originals, self._deps.extractor.version)

    async def _originals(self, evidence_ids: Sequence[str]) -> list[Original]:
        originals = []
        for evidence_id in evidence_ids:
            turn = await self._deps.evidence.get(evidence_id)
            if turn is None:
                continue
            try:
                originals.append(Original(turn, await self._deps.sealer.open(turn.text)))
            except LookupError:
                continue  # its subject was erased
        return originals

    async def _candidates(self, turn: TurnRecorded) -> list[Candidate]:
        prepared = self._prepared.pop(turn.evidence_id, None)
        if prepared is not None:
            return prepared
        claims = await self._claims(turn)
        return candidates_of(self._deps.embedder, [(c, turn.speaker) for c in claims])

    async def _claims(self, turn: TurnRecorded) -> list[Claim]:
        text = await self._deps.sealer.open(turn.text)
        return self._deps.extractor.extract(
            text,
            speaker=turn.speaker,
            captured_at=turn.captured_at,
            role=turn.role,
            participants=await self._participants(turn),
        )

    async def _participants(self, turn: TurnRecorded) -> tuple[str, ...]:
        """The other users who spoke in the turn's source before it, most recent first.

        Read from the evidence store in source order (the turn is stored first, as
        ``_derive`` would), so a live run and a replay of the log see the same ones."""
        if turn.role != "user":
            return ()
        await self._deps.evidence.put(turn)
        return await participants_before(self._deps.evidence, turn)

    def _out(self, change: FactChanged, partition: int) -> Outgoing:
        return Outgoing(self._names.fact_changes, FACT_CHANGES.record(partition, change))


async def participants_before(evidence: EvidenceStore, turn: TurnRecorded) -> tuple[str, ...]:
    """The other users who spoke in the stored turn's source before it, most recent first
    (none for a turn not of a user): what the extractor is given to read "you" by."""
    if turn.role != "user":
        return ()
    around = await evidence.neighbours(turn.evidence_id, PARTICIPANT_WINDOW)
    ids = [t.evidence_id for t in around]
    earlier = around[: ids.index(turn.evidence_id)] if turn.evidence_id in ids else []
    speakers = [t.speaker for t in reversed(earlier) if t.role == "user"]
    return tuple(dict.fromkeys(s for s in speakers if s != turn.speaker))


def candidates_of(embedder: Embedder, claims: Sequence[tuple[Claim, str]]) -> list[Candidate]:
    """Each claim (with its speaker) embedded, and its open reading's attribute phrase
    with the phrase's parts (core/facts/attribute_similarity.py): the statements in one call,
    the distinct parts of all of them in another (so the statements' batches, and their
    vectors, are those they would be without the parts)."""
    phrases = [attribute_phrase(claim, speaker) for claim, speaker in claims]
    parts = list(dict.fromkeys(p for phrase in phrases if phrase for p in attribute_parts(phrase)))
    statements = [claim.statement for claim, _ in claims]
    vectors = [as_unit(v) for v in embedder.embed(statements)] if statements else []
    part_vectors = [as_unit(v) for v in embedder.embed(parts)] if parts else []
    part_vector = dict(zip(parts, part_vectors, strict=True))
    return [
        Candidate(claim, vector, _attribute(phrase, part_vector))
        for (claim, _), vector, phrase in zip(claims, vectors, phrases, strict=True)
    ]


def said_values(
    embedder: Embedder, readings: Sequence[tuple[TurnRecorded, ValueReading]]
) -> list[SaidValue]:
    """Each reading with its attribute phrase, its sentence and the statement of its state
    record embedded. The sentences are the turn's own words: embedded outside the
    embedding cache, as raw evidence is (streams/indexing.py), so erasure need not find
    them there."""
    if not readings:
        return []
    named = []
    for turn, reading in readings:
        named += [reading.attribute, record_statement(turn, reading)]
    vectors = [as_unit(v) for v in embedder.embed(named)]
    once = getattr(embedder, "embed_transient", embedder.embed)
    sentences = [as_unit(v) for v in once([reading.context for _, reading in readings])]
    return [
        SaidValue(reading, vectors[2 * k], sentences[k], vectors[2 * k + 1])
        for k, (_, reading) in enumerate(readings)
    ]


def _attribute(phrase: str | None, part_vector: dict[str, Vector]) -> AttributeVectors | None:
    if phrase is None:
        return None
    return AttributeVectors(phrase, {p: part_vector[p] for p in attribute_parts(phrase)})


def _spoken_turn(record: LogRecord) -> TurnRecorded | None:
    """The turn a record holds when it is something said (not an action, a control record,
    a tombstone or a record the derive stage dead-letters)."""
    if record.value is None or (record.key or b"").startswith(CONTROL_PREFIX):
        return None
    try:
        turn = TURNS.decode(record.value)
    except (ValidationError, ValueError):
        return None
    return turn if turn.action == "say" else None


class Materializer:
    """Fact changes -> fact views and/or the search index (either may be absent)."""

    def __init__(
        self, names: TopicNames, views: FactViews | None, index: SearchIndex | None
    ) -> None:
        self._names = names
        self._views = views
        self._index = index

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        """Decode a batch, dead-letter what does not decode, apply the rest together."""
        outcome, changes = Outcome(), []
        for record in records:
            if record.value is None:
                continue
            try:
                changes.append(FACT_CHANGES.decode(record.value))
            except (ValidationError, ValueError) as error:
                letter = dead_letter(
                    self._names,
                    "materialize",
                    record.key,
                    record.value,
                    describe(error),
                    Origin.of(record),
                )
                outcome.outgoing.append(letter)
        await self.apply(changes)
        return outcome

    async def apply(self, changes: Sequence[FactChanged]) -> None:
        """Apply a batch of changes as one view write and one index update."""
        if self._views is not None and changes:
            await self._views.apply_batch(changes)
        if self._index is not None:
            await self._index.index_facts(changes)
