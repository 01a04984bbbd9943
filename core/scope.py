"""Scopes: the unit of isolation and of per-partition ordering."""

from __future__ import annotations

import re
import zlib

from pydantic import BaseModel, ConfigDict, Field

_SEGMENT = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
_SEGMENT_RE = re.compile(_SEGMENT)
SEGMENT_PATTERN = _SEGMENT  # what an org, project, user, agent or session must look like


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

    @property
    def key(self) -> str:
        """The isolation key ``org/project/user`` (agent and session do not split it)."""
        return f"{self.org}/{self.project}/{self.user}"

    @classmethod
    def parse(cls, text: str) -> Scope:
        """Parse ``org/project/user`` and raise ``ValueError`` naming the bad part."""
        parts = text.split("/")
        if len(parts) != 3:
            raise ValueError(f"scope must be 'org/project/user', got {text!r}")
        for name, part in zip(("org", "project", "user"), parts, strict=True):
            if not _SEGMENT_RE.fullmatch(part):
                raise ValueError(f"scope.{name}: {part!r} is not a valid segment ({_SEGMENT})")
        return cls(org=parts[0], project=parts[1], user=parts[2])

    def contains(self, other: Scope) -> bool:
        """True when ``other`` lies in this scope's org/project/user."""
        return self.key == other.key


def partition_for(scope_key: str, partitions: int) -> int:
    """Every record of a scope goes to one partition: a stable hash of the scope key."""
    return zlib.crc32(scope_key.encode("utf-8")) % partitions
