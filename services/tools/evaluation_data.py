"""Benchmark data for ``provmem eval``: LoCoMo samples, questions, raw-turn baselines.

A LoCoMo file is a JSON list of samples; each has ``sample_id``, a ``conversation`` of
``session_<n>`` turn lists (``dia_id``, ``speaker``, ``text``) with ``session_<n>_date_time``,
and ``qa`` items (``question``, ``evidence`` dia ids, optional ``category``).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.infra.models.sparse import stopwords_dir
from provmem.services.memory.loaders import parse_locomo_date

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
ADVERSARIAL = 5
ADVERSARIAL_LABEL = CATEGORIES[ADVERSARIAL]
_ID = re.compile(r"D(\d+):0*(\d+)")
_WORD = re.compile(r"[a-z0-9]+")


class DatasetFormatError(ValueError):
    """The file is not in LoCoMo format; the message names the file, item and field."""


@dataclass(frozen=True)
class Question:
    sample_id: str
    text: str
    category: int | None
    gold: tuple[str, ...]
    answer: str

    @property
    def label(self) -> str:
        return CATEGORIES.get(self.category or 0, "uncategorised")

    @property
    def adversarial(self) -> bool:
        return self.category == ADVERSARIAL


def load_samples(path: Path) -> list[dict[str, Any]]:
    """Read and check a LoCoMo file; raise :class:`DatasetFormatError` naming what is missing."""
    try:
        samples = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DatasetFormatError(f"{path}: not a LoCoMo JSON file ({error})") from error
    if not isinstance(samples, list) or not samples:
        raise DatasetFormatError(f"{path}: expected a non-empty JSON list of LoCoMo samples")
    for number, sample in enumerate(samples):
        _check_sample(f"{path}: sample {number}", sample)
    return samples


def _check_sample(where: str, sample: Any) -> None:
    _require(where, sample, ("sample_id", "conversation", "qa"))
    where = f"{where} ({sample['sample_id']})"
    sessions = session_numbers(sample["conversation"])
    if not sessions:
        raise DatasetFormatError(f"{where}: missing field 'conversation.session_1'")
    for number in sessions:
        _require(f"{where}: conversation", sample["conversation"], (f"session_{number}_date_time",))
        for index, turn in enumerate(sample["conversation"][f"session_{number}"]):
            _require(f"{where}: session_{number}[{index}]", turn, ("dia_id", "speaker", "text"))
    for index, qa in enumerate(sample["qa"]):
        _require(f"{where}: qa[{index}]", qa, ("question",))


def _require(where: str, item: Any, fields: Sequence[str]) -> None:
    if not isinstance(item, dict):
        raise DatasetFormatError(f"{where}: expected an object, got {type(item).__name__}")
    for name in fields:
        if name not in item:
            raise DatasetFormatError(f"{where}: missing field '{name}'")


def session_numbers(conversation: dict[str, Any]) -> list[int]:
    found = [k.removeprefix("session_") for k, v in conversation.items() if isinstance(v, list)]
    return sorted(int(n) for n in found if n.isdigit())


def normalize_ids(raw: Sequence[str], known: set[str]) -> tuple[str, ...]:
    """Split joined ids ("D8:6; D9:17"), drop zero padding ("D30:05"), skip unknown ids."""
    found: list[str] = []
    for text in raw:
        for session, turn in _ID.findall(str(text)):
            dia_id = f"D{session}:{turn}"
            if dia_id in known and dia_id not in found:
                found.append(dia_id)
    return tuple(found)


def turn_ids(sample: dict[str, Any]) -> set[str]:
    conversation = sample["conversation"]
    return {
        t["dia_id"] for n in session_numbers(conversation) for t in conversation[f"session_{n}"]
    }


def questions(sample: dict[str, Any]) -> list[Question]:
    """Every question with resolvable gold evidence, and every adversarial one."""
    known = turn_ids(sample)
    found = []
    for qa in sample["qa"]:
        category = qa.get("category")
        gold = normalize_ids(qa.get("evidence", []), known)
        if gold or category == ADVERSARIAL:
            answer = str(qa.get("answer", qa.get("adversarial_answer", "")))
            found.append(Question(str(sample["sample_id"]), qa["question"], category, gold, answer))
    return found


def last_session_time(sample: dict[str, Any]) -> datetime:
    conversation = sample["conversation"]
    return max(
        parse_locomo_date(conversation[f"session_{n}_date_time"])
        for n in session_numbers(conversation)
    )


def _stopwords() -> set[str]:
    return set((stopwords_dir() / "english.txt").read_text().split())


class RawBM25:
    """Okapi BM25 (k1=1.2, b=0.75, stop-words removed) over raw turns."""

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
    """Cosine ranking of raw turns by the MiniLM embedder provmem itself uses."""

    def __init__(self, docs: Sequence[str], embedder: MiniLMEmbedder) -> None:
        self._embedder = embedder
        self._matrix = np.asarray(embedder.embed(list(docs)), dtype=np.float32)

    def rank(self, query: str, k: int) -> list[int]:
        scores = self._matrix @ np.asarray(self._embedder.embed([query])[0], dtype=np.float32)
        return [int(i) for i in np.argsort(-scores)[:k]]
