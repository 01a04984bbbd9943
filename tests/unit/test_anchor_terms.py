"""Anchor terms of turns and queries, and their sparse vectors (the anchor route's keys)."""

from __future__ import annotations

from provmem.core.language.signals import indexed_anchor_terms, query_anchor_terms
from provmem.core.ports import SparseVector
from provmem.infra.models.sparse import anchor_vector, with_anchors

TURN = """Fixed it in `src/app.py`:

```python
def parse_config(path):
    return load_yaml(path)
```

and bumped flask==2.3.1."""


def test_a_turn_is_indexed_by_its_code_names_paths_and_file_names() -> None:
    terms = indexed_anchor_terms(TURN)
    assert {"src/app.py", "app.py", "parse_config", "load_yaml", "flask@2.3.1"} <= set(terms)
    assert "return" not in terms and "fixed" not in terms


def test_a_query_asks_for_code_shaped_names_of_its_prose() -> None:
    assert query_anchor_terms("Where is parse_config defined in app.py?") == (
        "app.py",
        "parse_config",
    )
    assert "app.config" in query_anchor_terms("What does app.config hold?")
    assert "useeffect" in query_anchor_terms("Why does useEffect run twice?")


def test_prose_names_and_abbreviations_are_no_anchors_of_a_query() -> None:
    assert query_anchor_terms("How much of TrailMap is covered by tests, e.g. the API?") == ()
    assert query_anchor_terms("When did Caroline go to the support group?") == ()


def test_anchor_vectors_meet_on_the_same_term_only() -> None:
    doc, query = anchor_vector(indexed_anchor_terms(TURN)), anchor_vector(("parse_config",))
    assert set(query.indices) <= set(doc.indices)
    assert not set(anchor_vector(("parse",)).indices) & set(doc.indices)
    assert set(query.values) == {1.0}


def test_anchors_join_the_bm25_vector_without_changing_its_terms() -> None:
    words = SparseVector(indices=(3, 9), values=(0.5, 1.2))
    anchors = SparseVector(indices=(5, 9), values=(1.0, 1.0))
    merged = with_anchors(words, anchors)
    assert merged.indices == (3, 5, 9) and merged.values == (0.5, 1.0, 2.2)
    assert with_anchors(words, SparseVector(indices=(), values=())) is words
