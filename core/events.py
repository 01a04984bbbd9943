"""Versioned, frozen domain events: every record that travels on a topic.

Each event carries ``schema_version``; a released version is never edited. A
change adds a version, a JSON Schema file in ``schemas/`` and an upcaster.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from provmem.core.scope import Scope

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class DeletionScope(StrEnum):
    USER = "user"
    PROJECT = "project"
    ORGANIZATION = "organization"


class FactStatus(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    DELETED = "deleted"
    NEEDS_REVIEW = "needs-review"


class FactOp(StrEnum):
    ADD = "ADD"
    NOOP = "NOOP"
    UPDATE = "UPDATE"
    ERASE = "ERASE"


class SealedText(BaseModel):
    """Text encrypted with AES-256-GCM under a per-subject data key."""

    model_config = _FROZEN

    key_id: str = Field(description="Id of the subject's data key in the key store")
    nonce: str = Field(description="Base64 96-bit GCM nonce")
    ciphertext: str = Field(description="Base64 ciphertext with its GCM tag")


TurnAction = Literal["say", "correct", "retract", "approve", "reject"]
SpeakerRole = Literal["user", "assistant", "system", "tool"]


def upcast_turn_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A TurnRecorded v1 payload as v2: v1 knew no roles, so its speaker is a user."""
    return {**data, "schema_version": 2, "role": data.get("role", "user")}


class TurnRecorded(BaseModel):
    """One captured conversation turn: immutable, encrypted evidence.

    A turn either says something (``say``) or acts on a fact (a correction, a retraction,
    a review decision). An action turn's sealed text is what the person said: the new
    statement (correct, approve) or the reason (retract, reject). ``role`` is the
    speaker's role (v2): an assistant's turn never yields facts about the user.
    A v1 record is upcast on decoding (:func:`upcast_turn_v1`).
    """

    model_config = _FROZEN

    schema_version: Literal[2] = 2
    evidence_id: str
    scope: Scope
    source_uri: str = Field(min_length=1, max_length=2048)
    turn_id: str = Field(min_length=1, max_length=256)
    speaker: str = Field(min_length=1, max_length=256)
    captured_at: AwareDatetime
    deletion_scope: DeletionScope = DeletionScope.USER
    content_hash: str = Field(description="Keyed HMAC-SHA256 of the text under the subject key")
    text: SealedText
    action: TurnAction = "say"
    target_fact_id: str | None = Field(default=None, description="The fact an action acts on")
    reason: str = Field(default="", max_length=1000, description="Why, for an action")
    role: SpeakerRole = Field(default="user", description="The speaker's role in the dialogue")

    @model_validator(mode="before")
    @classmethod
    def _upcast(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("schema_version") == 1:
            return upcast_turn_v1(data)
        return data


class SupportSpan(BaseModel):
    """Characters ``[start, end)`` of one evidence's text that support a statement."""

    model_config = _FROZEN

    evidence_id: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)


#: The signal of a state record (core/stages.py): a fact that says one value a turn
#: states ("Maya's prints sold is 4."), not what the turn says; its turn stays raw
#: evidence for recall (core/retrieval/fusion.py).
VALUE_STATE = "value-state"


class Fact(BaseModel):
    """A canonical fact with its provenance. Provenance is not truth: it is support."""

    model_config = _FROZEN

    fact_id: str
    scope: Scope
    statement: str = Field(min_length=1)
    evidence_ids: tuple[str, ...] = Field(min_length=1)
    support: tuple[SupportSpan, ...] = ()
    entities: tuple[str, ...] = ()
    slot: str | None = Field(default=None, description="subject|attribute key, if any")
    slot_value: str | None = Field(default=None, description="The slot's normalized value")
    negated: bool = Field(default=False, description="The statement says something is not so")
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    signals: tuple[str, ...] = ()
    status: FactStatus = FactStatus.ACTIVE
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    supersedes: str | None = None
    superseded_by: str | None = None
    review_reason: str | None = Field(default=None, description="Why it needs review")
    conflicts_with: tuple[str, ...] = Field(
        default=(), description="Active facts this one contradicts (both stay, linked)"
    )
    asserted_by: str = Field(
        default="user", description="Role of the speaker whose words the fact comes from"
    )
    time_expressions: tuple[tuple[str, str], ...] = Field(
        default=(),
        description="Each date as said beside its resolved value (no year when none was said)",
    )
    extraction_version: str
    last_verified_at: AwareDatetime
    version: int = Field(ge=1)

    def __str__(self) -> str:
        return f"{self.statement}  ({self.fact_id}, {self.status.value})"


class FactChanged(BaseModel):
    """The gate's decision about one fact: ADD, NOOP, UPDATE or ERASE.

    v2: the fact carries ``conflicts_with`` and ``asserted_by`` (v1 records upcast).
    """

    model_config = _FROZEN

    schema_version: Literal[2] = 2
    change_id: str
    op: FactOp
    fact_id: str
    scope: Scope
    version: int = Field(ge=1)
    fact: Fact | None = Field(default=None, description="New state; None only for ERASE")
    reason: str
    caused_by: str = Field(description="Evidence id or erasure request id that caused it")

    @model_validator(mode="before")
    @classmethod
    def _upcast(cls, data: object) -> object:
        return upcast_fact_changed(data)


def upcast_fact_changed(data: object) -> object:
    """FactChanged v1 -> v2: the v1 fact lacks fields that v2 defaults (no conflicts,
    asserted by the user), so only the version changes."""
    if isinstance(data, dict) and data.get("schema_version") == 1:
        return {**data, "schema_version": 2}
    return data


class ErasureTarget(StrEnum):
    SUBJECT = "subject"
    SESSION = "session"
    EVIDENCE = "evidence"
    PROJECT = "project"
    ORGANIZATION = "organization"


class ErasureRequested(BaseModel):
    """A compliance deletion request."""

    model_config = _FROZEN

    schema_version: Literal[1] = 1
    request_id: str
    scope: Scope
    target: ErasureTarget
    ids: tuple[str, ...] = ()
    requested_at: AwareDatetime
    reason: str = ""


class ErasureCompleted(BaseModel):
    """The receipt for an erasure. It holds no personal data.

    v2: ``awaiting_compaction``, the log records that still open under a live key and
    that only a compacting broker drops (superseded by a later record or a tombstone of
    their key), and ``compaction_bound_ms``, the topics' bound on when it does (v1
    receipts upcast: none counted).

    v3: which evidence and facts went, ``erased_evidence`` and ``erased_facts``: keyed
    fingerprints of their ids (like ``scope_key_hash``: an evidence id follows from its
    scope and turn, so a raw id would tell whose erasure it was); a holder of the audit
    key checks an id against them, and ``provmem audit erasure`` shows the ids (v1 and
    v2 receipts upcast: none listed)."""

    model_config = _FROZEN

    schema_version: Literal[3] = 3
    request_id: str
    scope_key_hash: str
    evidence_erased: int = Field(ge=0)
    facts_erased: int = Field(ge=0)
    facts_revalidated: int = Field(ge=0)
    removed_per_store: dict[str, int]
    seconds_to_receipt: float = Field(ge=0)
    residue_found: int = Field(ge=0)
    verified_by: str
    completed_at: AwareDatetime
    awaiting_compaction: int = Field(default=0, ge=0)
    compaction_bound_ms: int | None = Field(default=None, ge=0)
    erased_evidence: list[str] = Field(default_factory=list)
    erased_facts: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _upcast(cls, data: object) -> object:
        if isinstance(data, dict) and data.get("schema_version") in (1, 2):
            return {**data, "schema_version": 3}
        return data


EVENT_MODELS: dict[str, type[BaseModel]] = {
    "TurnRecorded": TurnRecorded,
    "FactChanged": FactChanged,
    "ErasureRequested": ErasureRequested,
    "ErasureCompleted": ErasureCompleted,
}
