"""BM25 keyword vectors: fastembed's ``Qdrant/bm25``, offline, with a shipped stopword list.

Qdrant computes BM25 split in two. A document vector holds, per term, the term-frequency
part ``tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avg_len))``; a query vector holds 1.0
per distinct query term; the index multiplies in the IDF (the sparse vector's ``idf``
modifier), so ``query . document`` is the BM25 score. Terms are lower-cased ``\\w+`` tokens,
English stopwords dropped, Snowball-stemmed, and hashed to ``abs(murmur3_32(stem))``, the
same ids as Qdrant's own BM25 (qdrant-edge's ``Bm25``) for ordinary text. Those ids are
unsalted: anyone can hash a word and look for it. What the index stores is therefore
:func:`keyed_terms` of them, per subject (the sealed vector index does it on both the
document and the query side).

Queries skip fastembed (whose import costs a CLI query ~1.5 s): :class:`_QueryTerms`
repeats its ``query_embed`` step by step with the same stopword file, stemmer and hash
(tests/unit/test_sparse_query.py checks they agree). Documents go through fastembed.

Nothing is downloaded: fastembed gets the folder ``provmem.infra.models/bm25`` (it only
reads ``english.txt`` from it) as ``specific_model_path``. Term ids are part of the stored
data: changing the stopwords, the stemmer or the hashing means rebuilding the index.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import structlog

from provmem.core.ports import SparseVector

if TYPE_CHECKING:
    from fastembed import SparseEmbedding, SparseTextEmbedding

__all__ = [
    "BM25Encoder",
    "STOPWORDS_FILE",
    "anchor_vector",
    "keyed_terms",
    "stopwords_dir",
    "with_anchors",
]

_log = structlog.get_logger(__name__)

MODEL_NAME = "Qdrant/bm25"
#: The stopword file fastembed reads from the model folder for ``language="english"``.
STOPWORDS_FILE = "english.txt"


def stopwords_dir() -> Path:
    """The folder holding ``english.txt``, as a real directory on disk."""
    folder = resources.files("provmem.infra.models") / "bm25"
    if isinstance(folder, Path):
        return folder
    # Installed in a zip or similar: copy the one small file to a temporary folder.
    target = Path(tempfile.mkdtemp(prefix="provmem-bm25-"))
    with resources.as_file(folder / STOPWORDS_FILE) as source:
        shutil.copyfile(source, target / STOPWORDS_FILE)
    return target


def _sparse(embedding: SparseEmbedding) -> SparseVector:
    """fastembed's numpy pair as a port vector, sorted by term id."""
    pairs = sorted(zip(embedding.indices.tolist(), embedding.values.tolist(), strict=True))
    return SparseVector(
        indices=tuple(int(i) for i, _ in pairs), values=tuple(float(v) for _, v in pairs)
    )


class BM25Encoder:
    """Texts to BM25 sparse vectors for an index with Qdrant's IDF modifier.

    ``k1`` saturates term frequency, ``b`` weighs document length against ``avg_len``
    (in tokens after stopword removal). The defaults are Qdrant's (1.2, 0.75, 256): with
    short facts against 256 the length normalization is mild; pass the corpus' average
    to make it bite. Documents and queries must be encoded with the same settings.

    Loads on first use, not in ``__init__``. Deterministic and thread-safe.
    """

    def __init__(
        self,
        *,
        k1: float = 1.2,
        b: float = 0.75,
        avg_len: float = 256.0,
        batch_size: int = 256,
        model_dir: Path | None = None,
    ) -> None:
        """``model_dir``: a folder with ``english.txt`` (default: the shipped one)."""
        if k1 < 0:
            raise ValueError("k1 must not be negative")
        if not 0.0 <= b <= 1.0:
            raise ValueError("b must be within [0, 1]")
        if avg_len <= 0:
            raise ValueError("avg_len must be positive")
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.k1 = k1
        self.b = b
        self.avg_len = avg_len
        self._batch_size = batch_size
        self._model_dir = model_dir
        self._model: SparseTextEmbedding | None = None
        self._query_terms: _QueryTerms | None = None
        self._load_lock = threading.Lock()

    def warm_up(self) -> None:
        """Load the model now instead of on the first call."""
        self._loaded()

    def embed_documents(self, texts: Sequence[str]) -> list[SparseVector]:
        """Term-frequency vectors of documents (empty for texts with no terms)."""
        if not texts:
            return []
        embeddings: Iterable[SparseEmbedding] = self._loaded().embed(
            list(texts), batch_size=self._batch_size
        )
        return [_sparse(e) for e in embeddings]

    def embed_query(self, text: str) -> SparseVector:
        """1.0 for each distinct query term (empty when the query has none)."""
        if self._query_terms is None:
            with self._load_lock:
                if self._query_terms is None:
                    self._query_terms = _QueryTerms(self._stopwords_folder())
        terms = sorted(self._query_terms.term_ids(text))
        return SparseVector(indices=tuple(terms), values=(1.0,) * len(terms))

    def _stopwords_folder(self) -> Path:
        folder = self._model_dir or stopwords_dir()
        if not (folder / STOPWORDS_FILE).is_file():
            # fastembed would silently index stopwords without it.
            raise FileNotFoundError(f"{folder / STOPWORDS_FILE} is missing")
        return folder

    def _loaded(self) -> SparseTextEmbedding:
        if self._model is None:
            with self._load_lock:
                if self._model is None:
                    self._model = self._load()
        return self._model

    def _load(self) -> SparseTextEmbedding:
        from fastembed import SparseTextEmbedding
        from fastembed.sparse import bm25

        bm25.get_all_punctuation = punctuation  # type: ignore[attr-defined]  # the same set, ~9x faster (start-up time)

        folder = self._stopwords_folder()
        model = SparseTextEmbedding(
            MODEL_NAME,
            cache_dir=str(folder),  # else fastembed creates <tmp>/fastembed_cache
            specific_model_path=str(folder),  # never downloads
            k=self.k1,
            b=self.b,
            avg_len=self.avg_len,
            language="english",
        )
        _log.info("bm25.loaded", folder=str(folder), k1=self.k1, b=self.b, avg_len=self.avg_len)
        return model


_NOT_WORD_OR_SPACE = re.compile(r"[^\w\s]", flags=re.UNICODE)
_NOT_WORD = re.compile(r"[^\w]")
_SPACES = re.compile(r"\s+")
#: fastembed's ``token_max_length``: longer tokens are dropped.
TOKEN_MAX_LENGTH = 40


class _QueryTerms:
    """fastembed ``Bm25.query_embed``'s term ids, without importing fastembed: the same
    ``remove_non_alphanumeric``, ``SimpleTokenizer``, ``_stem`` and ``compute_token_id``."""

    def __init__(self, folder: Path) -> None:
        from py_rust_stemmers import SnowballStemmer

        with open(folder / STOPWORDS_FILE) as lines:  # as fastembed reads it
            self._stopwords = set(lines.read().splitlines())
        self._stemmer = SnowballStemmer("english")

    def term_ids(self, text: str) -> set[int]:
        import mmh3

        return {abs(mmh3.hash(stem)) for stem in self._stems(_tokens(text))}

    def _stems(self, tokens: list[str]) -> list[str]:
        stems = []
        for token in tokens:
            lower = token.lower()
            if _is_punctuation(token) or lower in self._stopwords:
                continue
            if len(token) > TOKEN_MAX_LENGTH:
                continue
            if stem := self._stemmer.stem_word(lower):
                stems.append(stem)
        return stems


def _tokens(text: str) -> list[str]:
    """``SimpleTokenizer.tokenize(remove_non_alphanumeric(text))``."""
    text = _NOT_WORD_OR_SPACE.sub(" ", text)
    text = _SPACES.sub(" ", _NOT_WORD.sub(" ", text.lower()))
    return text.strip().split()


def _is_punctuation(token: str) -> bool:
    """``token in punctuation()`` without building the set: it holds single characters."""
    import unicodedata

    return len(token) == 1 and unicodedata.category(token).startswith("P")


def punctuation() -> set[str]:
    """Every punctuation character (Unicode category P*). fastembed's own version scans
    all 1.1M code points (~0.8 s per process, paid by every CLI query); none of category
    P lies at or above U+20000, so scanning below it gives the same set in a ninth of the
    time (tests/unit/test_sparse_punctuation.py checks they are equal)."""
    import unicodedata

    return {chr(i) for i in range(0x20000) if unicodedata.category(chr(i)).startswith("P")}


def keyed_terms(sparse: SparseVector, key: bytes) -> SparseVector:
    """The vector with every term id replaced by a keyed hash of it (32 bits, BLAKE2b
    under the subject's term key), so stored term ids no longer tell which words a point
    holds: a reader cannot test a word without the subject's key, and after the key is
    destroyed nobody can. Documents and queries of a subject go through the same key, so
    ``query . document`` is unchanged (up to a rare collision, whose weights add up).
    """
    keyed: dict[int, float] = {}
    for index, value in zip(sparse.indices, sparse.values, strict=True):
        digest = hashlib.blake2b(index.to_bytes(4, "little"), key=key, digest_size=4).digest()
        term = int.from_bytes(digest, "little")
        keyed[term] = keyed.get(term, 0.0) + value
    pairs = sorted(keyed.items())
    return SparseVector(indices=tuple(i for i, _ in pairs), values=tuple(v for _, v in pairs))


#: Anchor terms are hashed in their own namespace: a BM25 query (word stems) never meets
#: them, and an anchor query (exact anchors) never meets a word's term id.
_ANCHOR_NAMESPACE = "\x00anchor\x1f"


def anchor_vector(terms: Sequence[str]) -> SparseVector:
    """Exact-match anchor terms (``flask@2.3.1``, ``src/app.py``, ``parse_config``) as a
    sparse vector of 1.0 per distinct term, beside the BM25 terms of the same point.

    Presence, not frequency: an anchor named once identifies its turn as well as one named
    five times. The index's IDF modifier weighs rare anchors above common ones, and the
    terms are keyed per subject like every other term (:func:`keyed_terms`).
    """
    import mmh3

    ids = sorted({abs(mmh3.hash(_ANCHOR_NAMESPACE + term)) for term in terms if term})
    return SparseVector(indices=tuple(ids), values=(1.0,) * len(ids))


def with_anchors(sparse: SparseVector, anchors: SparseVector) -> SparseVector:
    """A point's BM25 vector with its anchor terms added (weights add on a collision)."""
    if not anchors.indices:
        return sparse
    merged = dict(zip(sparse.indices, sparse.values, strict=True))
    for index, value in zip(anchors.indices, anchors.values, strict=True):
        merged[index] = merged.get(index, 0.0) + value
    pairs = sorted(merged.items())
    return SparseVector(indices=tuple(i for i, _ in pairs), values=tuple(v for _, v in pairs))
