"""Builders of domain events for tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from provmem.core.events import SealedText, TurnRecorded
from provmem.core.ids import evidence_id
from provmem.core.scope import Scope

T0 = datetime(2026, 5, 8, 13, 0, tzinfo=UTC)


def turn(
    turn_id: str, scope: str = "acme/support/u1", speaker: str = "Alice", minute: int = 0
) -> TurnRecorded:
    """A turn whose sealed text is a placeholder (stages get plaintext separately)."""
    parsed = Scope.parse(scope)
    return TurnRecorded(
        evidence_id=evidence_id(parsed.key, "session:s1", turn_id),
        scope=parsed,
        source_uri="session:s1",
        turn_id=turn_id,
        speaker=speaker,
        captured_at=T0 + timedelta(minutes=minute),
        content_hash="0" * 64,
        text=SealedText(key_id="dk_test", nonce="AAAA", ciphertext="AAAA"),
    )


class DictState:
    """A state store in a dict (the StateStore port, for unit tests of pure code)."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    async def load(self, key: str) -> bytes | None:
        return self.data.get(key)

    async def save(self, key: str, value: bytes) -> None:
        self.data[key] = value

    async def delete(self, key: str) -> None:
        self.data.pop(key, None)
