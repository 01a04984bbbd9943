"""The claim extractor port: rules by default, an LLM adapter optionally.

Any implementation returns :class:`~provmem.core.extraction.Claim` objects whose spans
point into the turn's text and which have passed
:func:`~provmem.core.validation.validate_claim` (failures carry ``review_reason``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from .claims import EXTRACTION_VERSION, extract_claims
from .events import SpeakerRole as Role
from .extraction import Claim


class ClaimExtractor(Protocol):
    """Turns one turn's text into validated candidate claims."""

    @property
    def version(self) -> str: ...

    def extract(
        self, text: str, *, speaker: str, captured_at: datetime, role: Role = "user"
    ) -> list[Claim]:
        """``role`` is the turn's speaker role: an assistant's turn yields only the
        assistant's own statements (``Claim.role``), system and tool turns none."""
        ...


class RulesExtractor:
    """The default, deterministic extractor (no LLM): :func:`claims.extract_claims`."""

    @property
    def version(self) -> str:
        return EXTRACTION_VERSION

    def extract(
        self, text: str, *, speaker: str, captured_at: datetime, role: Role = "user"
    ) -> list[Claim]:
        return extract_claims(text, speaker=speaker, captured_at=captured_at, role=role)
