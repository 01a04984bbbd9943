"""The default claim extractor: the rules, no LLM. The port it implements is
:class:`~provmem.core.ports.Extractor` (the LLM adapter: infra/models/llm_extractor.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from provmem.core.claim import Claim
from provmem.core.events import SpeakerRole as Role
from provmem.core.extraction.claims import extract_claims, extraction_version
from provmem.core.ports import ClauseParser


class RulesExtractor:
    """The default, deterministic extractor (no LLM): :func:`claims.extract_claims`;
    ``clauses``: the parser that reads comma splices (infra/models/clause_parser.py)."""

    def __init__(self, clauses: ClauseParser | None = None) -> None:
        self._clauses = clauses

    @property
    def version(self) -> str:
        return extraction_version(self._clauses)

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
            text,
            speaker=speaker,
            captured_at=captured_at,
            role=role,
            participants=participants,
            clauses=self._clauses,
        )
