"""The BM25 query vector computed without fastembed equals fastembed's ``query_embed``."""

from __future__ import annotations

import pytest
from fastembed import SparseTextEmbedding

from provmem.infra.models.sparse import MODEL_NAME, BM25Encoder, stopwords_dir

QUERIES = [
    "Where did Alice move to?",
    "What is the name of the dog, and where does it run?",
    "the a an of and or but if",  # stopwords only: an empty vector
    "",
    "   \t\n ",
    "Running runners ran; connection, connected, connecting!",
    "Zoë's café in São Paulo — naïve résumé, Straße, İstanbul, ΣΊΣΥΦΟΣ",
    "東京に引っ越した？ 北京 서울 Москва مرحبا",
    "Dates: 2024-05-08, 13:01, 3.14159, #42, $1,000.50, 1e10",
    "def load(path: str) -> dict[str, int]: return {k: v for k, v in x.items()}",
    "snake_case_name __dunder__ _ __ a_b CamelCaseName kebab-case-name",
    "emoji 🙂 and symbols © ® ™ ± § ¶ • … “quoted” ‘single’ «guillemets»",
    "x" * 41 + " " + "y" * 40 + " supercalifragilisticexpialidocious",
    "I I I me me my MY Myself",
    "Alice alice ALICE aLiCe",
    "email: alice@example.com, url https://example.org/path?q=1&r=2",
    "tabs\tand\nnewlines\r\nmixed   spaces",
    "ﬁancée ﬂight Ǆemal ǅ ǆ",
]


@pytest.fixture(scope="module")
def fastembed_bm25() -> SparseTextEmbedding:
    folder = str(stopwords_dir())
    return SparseTextEmbedding(
        MODEL_NAME, cache_dir=folder, specific_model_path=folder, language="english"
    )


@pytest.mark.parametrize("query", QUERIES)
def test_the_query_vector_equals_fastembeds(
    query: str, fastembed_bm25: SparseTextEmbedding
) -> None:
    (expected,) = fastembed_bm25.query_embed(query)
    indices = tuple(sorted(int(i) for i in expected.indices.tolist()))
    vector = BM25Encoder().embed_query(query)
    assert vector.indices == indices
    assert vector.values == (1.0,) * len(indices)


def test_the_set_of_queries_reaches_every_filter() -> None:
    """Stopwords, stemming, the length limit, the lone "_" and non-Latin words all occur."""
    stems = BM25Encoder().embed_query
    assert stems(QUERIES[2]).indices == ()
    assert stems("running").indices == stems("runs").indices  # stemmed
    assert stems("x" * 41).indices == ()  # over fastembed's token_max_length
    assert stems("_").indices == ()  # category Pc, dropped as punctuation
    assert stems("__").indices != ()
    assert len(stems(QUERIES[7]).indices) >= 4


def test_the_query_side_imports_no_fastembed() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from provmem.infra.models.sparse import BM25Encoder; "
        "BM25Encoder().embed_query('Where did Alice move?'); "
        "assert 'fastembed' not in sys.modules, 'fastembed imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603
