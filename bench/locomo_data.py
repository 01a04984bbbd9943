"""LoCoMo questions and gold evidence, normalized (shared by bench/locomo and eval)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_ID = re.compile(r"D(\d+):0*(\d+)")


def normalize_ids(raw: list[str], known: set[str]) -> tuple[str, ...]:
    """Split joined ids ("D8:6; D9:17"), drop zero padding ("D30:05"), skip unknown ids."""
    found = []
    for text in raw:
        for session, turn in _ID.findall(text):
            dia_id = f"D{session}:{turn}"
            if dia_id in known and dia_id not in found:
                found.append(dia_id)
    return tuple(found)


@dataclass(frozen=True)
class Question:
    sample_id: str
    text: str
    category: int
    gold: tuple[str, ...]
    answer: str


def turn_ids(sample: dict[str, Any]) -> set[str]:
    conversation = sample["conversation"]
    return {
        t["dia_id"]
        for k, v in conversation.items()
        if k.startswith("session_") and isinstance(v, list)
        for t in v
    }


def questions(sample: dict[str, Any], categories: set[int]) -> list[Question]:
    known = turn_ids(sample)
    found = []
    for qa in sample["qa"]:
        if qa["category"] not in categories:
            continue
        gold = normalize_ids(qa.get("evidence", []), known)
        if gold or qa["category"] == 5:
            answer = str(qa.get("answer", qa.get("adversarial_answer", "")))
            found.append(
                Question(sample["sample_id"], qa["question"], qa["category"], gold, answer)
            )
    return found
