"""What the facade returns besides the service's own models: search results whose
``str`` reads well, and the error of a refused add."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from provmem.core.events import Fact
from provmem.services.memory.results import (
    EvidenceItem,
    PublishResult,
    Recollection,
    RouteDiagnostic,
)


class RejectedError(ValueError):
    """Some messages were refused; ``results`` has every message's outcome (the accepted
    ones are recorded)."""

    def __init__(self, results: Sequence[PublishResult]) -> None:
        refused = [r for r in results if r.status == "rejected"]
        detail = "; ".join(f"message {r.index}: {r.error}" for r in refused)
        super().__init__(f"{len(refused)} of {len(results)} messages rejected: {detail}")
        self.results = list(results)


@dataclass(frozen=True)
class Bundle:
    """A fact (or a raw turn no fact covers) with the evidence behind it."""

    fact: Fact | None
    score: float
    routes: tuple[str, ...]
    evidence: tuple[EvidenceItem, ...]
    history: tuple[Fact, ...]
    similarity: float = 0.0  # cosine similarity to the query, 0-1

    @property
    def statement(self) -> str:
        return self.fact.statement if self.fact is not None else self.evidence[0].quote

    def __str__(self) -> str:
        head = (
            f"{self.statement}  ({self.fact.fact_id}, {self.fact.status.value})"
            if (self.fact is not None)
            else f"[raw evidence] {self.statement}"
        )
        lines = [head]
        for item in self.evidence:
            when = f"{item.captured_at:%Y-%m-%d %H:%M}"
            lines.append(f'  evidence {item.evidence_id} ({item.speaker}, {when}): "{item.quote}"')
        lines += [f"  was: {old.statement} ({old.fact_id})" for old in self.history]
        return "\n".join(lines)


@dataclass(frozen=True)
class SearchResult(Sequence[Bundle]):
    """The bundles for a query, best first, with the router's path and route diagnostics."""

    query: str
    scope: str
    bundles: tuple[Bundle, ...]
    path: str
    path_reasons: tuple[str, ...]
    routes: tuple[RouteDiagnostic, ...]
    recollection: Recollection

    @classmethod
    def of(cls, found: Recollection) -> SearchResult:
        bundles = tuple(
            Bundle(b.fact, b.score, b.routes, b.evidence, b.history, b.similarity)
            for b in found.bundles
        )
        reasons, routes = found.path_reasons, found.routes
        return cls(found.query, found.scope, bundles, found.path, reasons, routes, found)

    def __getitem__(self, index: Any) -> Any:
        return self.bundles[index]

    def __len__(self) -> int:
        return len(self.bundles)

    def __str__(self) -> str:
        if not self.bundles:
            return f"{self.query!r}: nothing found (insufficient evidence)"
        return "\n".join(str(bundle) for bundle in self.bundles)
