"""The BM25 encoder's punctuation set is fastembed's, computed faster."""

from __future__ import annotations

from fastembed.sparse.bm25 import get_all_punctuation

from provmem.infra.models.sparse import punctuation


def test_the_fast_punctuation_set_equals_fastembeds() -> None:
    assert punctuation() == set(get_all_punctuation())
