"""Query vectors without fastembed match fastembed's on the same model files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fastembed import TextEmbedding

from provmem.infra.models.embedding import (
    MiniLMEmbedder,
    _register,
    default_onnx_path,
    tokenizer_dir,
)
from provmem.infra.models.query_model import query_model_path
from provmem.infra.models.query_session import QuerySession, optimized_graph

TEXTS = [
    "Where did Alice move to?",
    "",
    "a",
    "What did Melanie do with her kids in July 2023, and why?",
    "Zoë's café in São Paulo — naïve résumé, Straße, İstanbul",
    "東京に引っ越した？ 서울 Москва مرحبا 🙂",
    "def load(path: str) -> dict[str, int]: return {k: v for k, v in x.items()}",
    "alice@example.com https://example.org/a?b=1&c=2 #42 $1,000.50",
    "word " * 300,  # past the 256-token truncation
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
]


def _fastembed_queries(onnx_path: Path) -> np.ndarray:
    folder = str(tokenizer_dir())
    model = TextEmbedding(
        _register(onnx_path.resolve()), cache_dir=folder, threads=1, specific_model_path=folder
    )
    return np.array([next(iter(model.query_embed(text))) for text in TEXTS])


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PROVMEM_MODEL_CACHE", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("int8", [True, False], ids=["int8 query model", "float model"])
def test_query_vectors_equal_fastembeds_query_path(cache: Path, int8: bool) -> None:
    source = default_onnx_path()
    expected = _fastembed_queries(query_model_path(source.resolve()) if int8 else source)
    embedder = MiniLMEmbedder(threads=1, int8_queries=int8, cache_size=0)
    vectors = np.array([embedder.embed_query(text) for text in TEXTS], dtype=np.float64)
    cosines = (vectors * expected).sum(axis=1) / (
        np.linalg.norm(vectors, axis=1) * np.linalg.norm(expected, axis=1)
    )
    assert np.all(cosines >= 0.9999), dict(zip(TEXTS, cosines.round(6), strict=True))
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_a_query_imports_no_fastembed(cache: Path) -> None:
    code = (
        "import sys; from provmem.infra.models.embedding import MiniLMEmbedder; "
        "MiniLMEmbedder(threads=1).embed_query('Where did Alice move?'); "
        "assert 'fastembed' not in sys.modules, 'fastembed imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603


def test_the_saved_optimized_graph_gives_the_same_vectors_bit_for_bit(tmp_path: Path) -> None:
    source = default_onnx_path().resolve()
    folder = tmp_path / "sessions"
    fresh = QuerySession(source, tokenizer_dir())
    saved = QuerySession(source, tokenizer_dir(), cache_folder=folder)
    (graph,) = folder.glob("*.onnx")
    assert (folder / f"{graph.stem}.weights").stat().st_size > 10_000_000  # mapped, apart
    written = graph.stat().st_mtime_ns
    again = QuerySession(source, tokenizer_dir(), cache_folder=folder)
    assert graph.stat().st_mtime_ns == written  # loaded, not optimized again
    for text in TEXTS:
        assert np.array_equal(saved.embed(text), fresh.embed(text)), text
        assert np.array_equal(again.embed(text), fresh.embed(text)), text


def test_without_a_writable_folder_the_session_optimizes_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    source = default_onnx_path().resolve()
    assert optimized_graph(source, blocker / "sessions") == source
    session = QuerySession(source, tokenizer_dir(), cache_folder=blocker / "sessions")
    assert np.array_equal(
        session.embed(TEXTS[0]), QuerySession(source, tokenizer_dir()).embed(TEXTS[0])
    )


@pytest.mark.parametrize("int8", [True, False], ids=["int8 query model", "float model"])
def test_a_querys_forms_embedded_in_one_run_match_their_own_vectors(
    cache: Path, int8: bool
) -> None:
    """One run pads the shorter text (masked out): each vector stays its text's, exactly
    on the float path, within the int8 path's per-run activation scale otherwise."""
    embedder = MiniLMEmbedder(threads=1, int8_queries=int8, cache_size=0)
    forms = ["What did Melanie paint last summer?", "What did paint last summer?"]
    together = np.array(embedder.embed_queries(forms))
    alone = np.array([embedder.embed_query(text) for text in forms])
    cosines = (together * alone).sum(axis=1)
    assert np.all(cosines >= (0.98 if int8 else 0.9999)), cosines
    assert float(together[0] @ together[1]) < 0.99  # two vectors, not one repeated
