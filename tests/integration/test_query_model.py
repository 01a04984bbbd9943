"""The int8 query variant of the real embedding model: derived once, int8 MatMuls,
vectors close to (not equal to) the float path's, and erasable from the cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from provmem.infra.models.embedding import MiniLMEmbedder, default_onnx_path
from provmem.infra.models.query_model import quantize_matmuls, query_model_path

TEXTS = [
    "Where does Alice live now?",
    "What did Melanie do with her kids in July?",
    "Is Bob allergic to anything?",
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PROVMEM_MODEL_CACHE", str(tmp_path))
    return tmp_path


def test_the_variant_is_derived_once_with_every_weight_matmul_in_int8(cache: Path) -> None:
    path = query_model_path(default_onnx_path().resolve())
    assert path.parent == cache
    model = onnx.load(str(path))
    ops = [node.op_type for node in model.graph.node]
    assert ops.count("DynamicQuantizeMatMul") == 36  # q, k, v, out, two FFN: six layers
    assert quantize_matmuls(model) == 0  # nothing left to rewrite
    written = path.stat().st_mtime_ns
    assert query_model_path(default_onnx_path().resolve()) == path
    assert path.stat().st_mtime_ns == written  # reused, not rewritten


def test_query_vectors_are_close_to_the_document_path_but_computed_apart(cache: Path) -> None:
    embedder = MiniLMEmbedder(threads=1)
    documents = np.array(embedder.embed(TEXTS))
    queries = np.array([embedder.embed_query(text) for text in TEXTS])
    cosines = (documents * queries).sum(axis=1)
    assert np.all(cosines > 0.97), cosines
    assert np.all(cosines < 0.99999), "queries must come from the int8 variant"
    assert np.allclose(np.linalg.norm(queries, axis=1), 1.0, atol=1e-4)
    exact = MiniLMEmbedder(threads=1, int8_queries=False)
    assert np.allclose(exact.embed_query(TEXTS[0]), documents[0], atol=1e-5)


def test_forgetting_a_text_drops_its_document_and_query_vectors(cache: Path) -> None:
    embedder = MiniLMEmbedder(threads=1)
    embedder.embed([TEXTS[0]])
    embedder.embed_query(TEXTS[0])
    assert embedder.forget([TEXTS[0]]) == 2
    assert not embedder.cached(TEXTS[0])


def test_without_a_writable_model_cache_queries_take_the_float_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PROVMEM_MODEL_CACHE", str(blocker / "cache"))
    embedder = MiniLMEmbedder(threads=1)
    (document,) = embedder.embed([TEXTS[1]])
    assert np.allclose(embedder.embed_query(TEXTS[1]), document, atol=1e-5)
