"""Readers for turn files: JSON Lines of turns, and the LoCoMo benchmark format."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

LOCOMO_DATE = "%I:%M %p on %d %B, %Y"


class TurnFileError(ValueError):
    """A turn file could not be read; the message names the line or field."""


def detect_format(path: Path) -> str:
    """``locomo`` for a JSON list (of LoCoMo samples), else ``jsonl`` (one object a line)."""
    with path.open("rb") as handle:
        head = handle.read(4096).lstrip()
    return "locomo" if head.startswith(b"[") else "jsonl"


def read_jsonl(path: Path) -> Iterator[dict[str, Any] | TurnFileError]:
    """One turn object per line; a line that is not valid UTF-8 JSON yields its error."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if raw.strip():
                yield _parse_line(number, raw)


def _parse_line(number: int, raw: bytes) -> dict[str, Any] | TurnFileError:
    try:
        value = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return TurnFileError(f"line {number}: text: invalid UTF-8 ({error.reason})")
    except json.JSONDecodeError as error:
        return TurnFileError(f"line {number}: not JSON ({error.msg})")
    if not isinstance(value, dict):
        return TurnFileError(f"line {number}: expected an object, got {type(value).__name__}")
    return value


def read_locomo(path: Path, org: str = "locomo") -> Iterator[dict[str, Any]]:
    """Turns of every LoCoMo sample; each sample is one scope ``org/<sample_id>/dialogue``."""
    samples = json.loads(path.read_text(encoding="utf-8"))
    for sample in samples:
        yield from locomo_turns(sample, org)


def locomo_turns(sample: dict[str, Any], org: str = "locomo") -> Iterator[dict[str, Any]]:
    """A sample's turns in session order: dia_id as the turn id, the session date as time."""
    conversation = sample["conversation"]
    scope = f"{org}/{sample['sample_id']}/dialogue"
    for number in _session_numbers(conversation):
        when = parse_locomo_date(conversation[f"session_{number}_date_time"])
        for turn in conversation[f"session_{number}"]:
            yield _locomo_turn(scope, sample["sample_id"], number, when, turn)


def _session_numbers(conversation: dict[str, Any]) -> list[int]:
    numbers = []
    for key, value in conversation.items():
        suffix = key.removeprefix("session_")
        if suffix.isdigit() and isinstance(value, list):
            numbers.append(int(suffix))
    return sorted(numbers)


def _locomo_turn(
    scope: str, sample_id: str, number: int, when: datetime, turn: dict[str, Any]
) -> dict[str, Any]:
    text = turn["text"]
    if turn.get("blip_caption"):
        text = f"{text} [shares an image: {turn['blip_caption']}]"
    return {
        "scope": scope,
        "text": text,
        "speaker": turn["speaker"],
        "captured_at": when.isoformat(),
        "turn_id": turn["dia_id"],
        "session": f"session_{number}",
        "source_uri": f"locomo:{sample_id}/session_{number}",
    }


def parse_locomo_date(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' as an aware datetime (LoCoMo gives no zone: UTC)."""
    return datetime.strptime(text.strip(), LOCOMO_DATE).replace(tzinfo=UTC)
