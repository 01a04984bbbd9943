"""The default claim extractor: the rules, no LLM. The port it implements is
:class:`~provmem.core.ports.Extractor` (the LLM adapter: infra/models/llm_extractor.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from provmem.core.claim import Claim
from provmem.core.events import SpeakerRole as Role
from provmem.core.extraction.claims import EXTRACTION_VERSION, extract_claims


class RulesExtractor:
    """The default, deterministic extractor (no LLM): :func:`claims.extract_claims`."""

    @property
    def version(self) -> str:
        return EXTRACTION_VERSION

    def extract(
        self,
        text: str,
        *,
        speaker: str,
        captured_at: datetime,
        role: Role = "user",
        participants: Sequence[str] = (),
    ) -> list[Claim]:
        return extract_claims(
            text, speaker=speaker, captured_at=captured_at, role=role, participants=participants
        )
