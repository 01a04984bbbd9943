"""Scopes: the unit of isolation and of per-partition ordering."""

from __future__ import annotations

import hashlib
import re
import zlib

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

_SEGMENT = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
_SEGMENT_RE = re.compile(_SEGMENT)
SEGMENT_PATTERN = _SEGMENT  # what an org, project, user, agent or session must look like
ID_MAX_CHARS = 256
SEALED_ID_PREFIX = "sid0."  # a segment standing for an id that is not a segment itself


def id_segment(value: object, field: str = "user_id") -> str:
    """The scope segment for a user, agent or run/session id: any non-empty string of at
    most 256 characters is an id. One that already is a segment stays as it is (existing
    folders keep working); any other (an email, ``auth0|5f7c8e``, ``user:42``, ``Zoë``)
    becomes ``sid0.`` and the SHA-256 of its UTF-8 text, so no id can reach a path or
    another scope, and the string itself is never stored as a scope.

    >>> id_segment("u-42")
    'u-42'
    >>> id_segment("alice@example.com")[:13]
    'sid0.ff8d9819'
    """
    if not isinstance(value, str) or not value or len(value) > ID_MAX_CHARS:
        got = f"{len(value)} characters" if isinstance(value, str) else type(value).__name__
        raise ValueError(
            f"{field}: must be a non-empty string of at most {ID_MAX_CHARS} characters (got {got})"
        )
    if _SEGMENT_RE.fullmatch(value):
        return value
    try:
        text = value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{field}: must be valid Unicode text (a lone surrogate)") from None
    return SEALED_ID_PREFIX + hashlib.sha256(text).hexdigest()


class Scope(BaseModel):
    """``org/project/user`` plus an optional agent and session.

    >>> Scope.parse("acme/support/u-42").key
    'acme/support/u-42'
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    org: str = Field(pattern=_SEGMENT)
    project: str = Field(pattern=_SEGMENT)
    user: str = Field(pattern=_SEGMENT)
    agent: str | None = Field(default=None, pattern=_SEGMENT)
    session: str | None = Field(default=None, pattern=_SEGMENT)

    @field_validator("user", "agent", "session", mode="before")
    @classmethod
    def _any_id(cls, value: object, info: ValidationInfo) -> object:
        return value if value is None else id_segment(value, f"scope.{info.field_name}")

    @property
    def key(self) -> str:
        """The isolation key ``org/project/user`` (agent and session do not split it)."""
        return f"{self.org}/{self.project}/{self.user}"

    @classmethod
    def parse(cls, text: str) -> Scope:
        """Parse ``org/project/user`` and raise ``ValueError`` naming the bad part. The
        user is any id (:func:`id_segment`), so everything after the second ``/`` is it."""
        parts = text.split("/", 2)
        if len(parts) != 3:
            raise ValueError(f"scope must be 'org/project/user', got {text!r}")
        for name, part in zip(("org", "project"), parts, strict=False):
            if not _SEGMENT_RE.fullmatch(part):
                raise ValueError(f"scope.{name}: {part!r} is not a valid segment ({_SEGMENT})")
        return cls(org=parts[0], project=parts[1], user=id_segment(parts[2], "scope.user"))

    def contains(self, other: Scope) -> bool:
        """True when ``other`` lies in this scope's org/project/user."""
        return self.key == other.key


def partition_for(scope_key: str, partitions: int) -> int:
    """Every record of a scope goes to one partition: a stable hash of the scope key."""
    return zlib.crc32(scope_key.encode("utf-8")) % partitions


def scope_prefix(text: str, field: str = "scope") -> str:
    """Validate ``org``, ``org/project`` or ``org/project/user``; ValueError names the part."""
    parts = text.split("/", 2)
    for name, part in zip(("org", "project"), parts, strict=False):
        if not _SEGMENT_RE.fullmatch(part):
            raise ValueError(f"{field}.{name}: {part!r} is not a valid segment")
    if len(parts) == 3:
        return "/".join([*parts[:2], id_segment(parts[2], f"{field}.user")])
    return text


def within(scope_key: str, prefix: str) -> bool:
    """Whether ``scope_key`` (any depth) lies inside the scope ``prefix``."""
    return scope_key == prefix or scope_key.startswith(prefix + "/")
