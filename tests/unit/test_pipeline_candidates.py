"""The derive stage's candidates: statements and attribute phrases embedded per batch."""

from __future__ import annotations

from collections.abc import Sequence

from provmem.core.claim import Claim
from provmem.streams.pipeline import candidates_of


class CountingEmbedder:
    """Each text's vector from its length; every call recorded."""

    dim = 4

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[float(len(t)), 1.0, 0.0, 0.0] for t in texts]


def claim(statement: str) -> Claim:
    return Claim(statement, ((0, len(statement)),))


def test_attribute_phrases_are_embedded_with_the_statements_batched() -> None:
    embedder = CountingEmbedder()
    claims = [claim("Each worker uses 900MB of RAM."), claim("Alice likes green tea.")]
    claims.append(claim("Worker memory is 450MB now."))
    found = candidates_of(embedder, [(c, "Alice") for c in claims])  # type: ignore[arg-type]
    statements, parts = embedder.calls  # the whole batch's statements, then its parts
    assert statements == [c.statement for c in claims]
    assert parts == ["worker ram", "worker", "ram", "worker memory", "memory"]  # once each
    first, tea, later = found
    assert first.attribute is not None and first.attribute.phrase == "worker ram"
    assert set(first.attribute.parts) == {"worker ram", "worker", "ram"}
    assert later.attribute is not None and set(later.attribute.parts) >= {"worker"}
    assert tea.attribute is None  # no value: nothing more to embed
    assert [c.claim for c in found] == claims


def test_no_claims_no_call() -> None:
    embedder = CountingEmbedder()
    assert candidates_of(embedder, []) == []  # type: ignore[arg-type]
    assert embedder.calls == []
