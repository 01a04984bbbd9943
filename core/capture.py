"""Evidence capture: validate an incoming turn and describe it as TurnRecorded."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from provmem.core.events import DeletionScope, SealedText, SpeakerRole, TurnRecorded
from provmem.core.ids import evidence_id
from provmem.core.scope import Scope, id_segment


class TurnInput(BaseModel):
    """A conversation turn as a client publishes it. Unknown fields are rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=False)

    scope: str = Field(description="org/project/user")
    text: str
    speaker: str = Field(min_length=1, max_length=256)
    captured_at: AwareDatetime
    turn_id: str | None = Field(None, min_length=1, max_length=256)
    session: str | None = Field(None, description="A run or session id (any, up to 256 chars)")
    agent: str | None = Field(None, description="An agent id (any, up to 256 chars)")
    source_uri: str | None = Field(None, min_length=1, max_length=2048)
    deletion_scope: DeletionScope = DeletionScope.USER
    role: SpeakerRole = Field("user", description="user, assistant, system or tool")

    @field_validator("scope")
    @classmethod
    def _scope_is_valid(cls, value: str) -> str:
        return Scope.parse(value).key  # the user id as its scope segment

    @field_validator("session", "agent")
    @classmethod
    def _any_id(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else id_segment(value, info.field_name or "id")

    @field_validator("text")
    @classmethod
    def _text_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return _encodable(value)

    @field_validator("speaker", "turn_id", "source_uri")
    @classmethod
    def _is_encodable(cls, value: str | None) -> str | None:
        return None if value is None else _encodable(value)

    def resolved_scope(self) -> Scope:
        base = Scope.parse(self.scope)
        return Scope.model_validate(
            {**base.model_dump(), "agent": self.agent, "session": self.session}
        )

    def source(self) -> str:
        if self.source_uri:
            return self.source_uri
        return f"session:{self.session}" if self.session else "provmem:direct"

    def resolved_turn_id(self) -> str:
        """The given turn id, else one derived from the turn's content and time."""
        if self.turn_id:
            return self.turn_id
        seed = f"{self.captured_at.isoformat()}\x1f{self.speaker}\x1f{self.text}"
        return "t_" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:24]


def _encodable(value: str) -> str:
    """The value, if it is valid Unicode (no lone surrogate): it must reach the log as UTF-8."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(f"invalid UTF-8 ({error.reason})") from error
    return value


class TurnRejectedError(ValueError):
    """A turn broke a capture rule; ``field`` names the culprit."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def check_limits(turn: TurnInput, now: datetime, max_text_bytes: int, max_skew_s: int) -> None:
    """Reject oversize text and timestamps too far in the future."""
    size = len(turn.text.encode("utf-8"))
    if size > max_text_bytes:
        raise TurnRejectedError("text", f"{size} bytes exceeds the limit of {max_text_bytes}")
    if turn.captured_at > now + timedelta(seconds=max_skew_s):
        raise TurnRejectedError("captured_at", "is too far in the future")


def turn_evidence_id(turn: TurnInput) -> str:
    return evidence_id(turn.resolved_scope().key, turn.source(), turn.resolved_turn_id())


def record_turn(turn: TurnInput, sealed: SealedText, content_hash: str) -> TurnRecorded:
    """The evidence event for a validated turn whose text is already sealed."""
    return TurnRecorded(
        evidence_id=turn_evidence_id(turn),
        scope=turn.resolved_scope(),
        source_uri=turn.source(),
        turn_id=turn.resolved_turn_id(),
        speaker=turn.speaker,
        captured_at=turn.captured_at,
        deletion_scope=turn.deletion_scope,
        content_hash=content_hash,
        text=sealed,
        role=turn.role,
    )
