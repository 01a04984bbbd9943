"""Raw-turn retrieval baselines: BM25 (k1=1.2, b=0.75, stop-words removed) and dense."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from provmem.infra.embedding import MiniLMEmbedder
from provmem.infra.sparse import stopwords_dir

_WORD = re.compile(r"[a-z0-9]+")


def _stopwords() -> set[str]:
    return set((stopwords_dir() / "english.txt").read_text().split())


class RawBM25:
    """Okapi BM25 over a fixed list of documents."""

    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self._stop = _stopwords()
        self._docs = [Counter(self._terms(d)) for d in docs]
        self._lengths = [sum(c.values()) for c in self._docs]
        self._avg = sum(self._lengths) / max(1, len(self._docs))
        frequency = Counter(t for c in self._docs for t in c)
        n = len(self._docs)
        self._idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in frequency.items()}
        self._k1, self._b = k1, b

    def _terms(self, text: str) -> list[str]:
        return [w for w in _WORD.findall(text.lower()) if w not in self._stop]

    def rank(self, query: str, k: int) -> list[int]:
        terms = set(self._terms(query))
        scores = [self._score(i, terms) for i in range(len(self._docs))]
        return sorted(range(len(scores)), key=lambda i: -scores[i])[:k]

    def _score(self, i: int, terms: set[str]) -> float:
        doc, norm = self._docs[i], self._k1 * (1 - self._b + self._b * self._lengths[i] / self._avg)
        return sum(
            self._idf[t] * doc[t] * (self._k1 + 1) / (doc[t] + norm) for t in terms if t in doc
        )


class RawDense:
    def __init__(self, docs: Sequence[str], embedder: MiniLMEmbedder) -> None:
        self._embedder = embedder
        self._matrix = np.asarray(embedder.embed(list(docs)), dtype=np.float32)

    def rank(self, query: str, k: int) -> list[int]:
        scores = self._matrix @ np.asarray(self._embedder.embed([query])[0], dtype=np.float32)
        return [int(i) for i in np.argsort(-scores)[:k]]
