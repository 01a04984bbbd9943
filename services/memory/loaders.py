"""Readers for turn files: JSON Lines of turns, a JSON array of turns, and LoCoMo.

:func:`read_turn_file` yields every turn with where it was found (``line 7``, ``item 3``,
``sample 2 session_1 turn 4``) and an error for every part it could not read, naming
the same place; one bad part never costs a good one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

LOCOMO_DATE = "%I:%M %p on %d %B, %Y"
FORMATS = ("auto", "jsonl", "json", "locomo")
_BOM = b"\xef\xbb\xbf"


class TurnFileError(ValueError):
    """A turn file could not be read; the message names the line or field."""


@dataclass(frozen=True)
class FileTurn:
    """A turn object read from a file, and where (``line 7``)."""

    where: str
    turn: dict[str, Any]


def detect_format(path: Path) -> str:
    """``jsonl`` unless the file is one JSON array: of LoCoMo samples (``locomo``) or of
    turn objects (``json``)."""
    with path.open("rb") as handle:
        head = handle.read(4096).removeprefix(_BOM).lstrip()
    if not head.startswith(b"["):
        return "jsonl"
    try:
        whole = _loads(path.read_bytes())
    except (ValueError, RecursionError):
        return "jsonl"  # e.g. a JSONL file whose first line is an array
    first = whole[0] if isinstance(whole, list) and whole else None
    return "locomo" if isinstance(first, dict) and "conversation" in first else "json"


def read_turn_file(path: Path, kind: str) -> Iterator[FileTurn | TurnFileError]:
    """Every turn of a file of format ``kind`` (see :func:`detect_format`)."""
    if kind == "jsonl":
        yield from read_jsonl(path)
        return
    try:
        whole = _loads(path.read_bytes())
    except (ValueError, RecursionError) as error:
        yield TurnFileError(f"{path.name}: not a JSON file ({_reason(error)})")
        return
    if not isinstance(whole, list):
        yield TurnFileError(f"{path.name}: expected a JSON array, got {type(whole).__name__}")
        return
    yield from (_locomo_items(whole) if kind == "locomo" else _array_items(whole))


def read_jsonl(path: Path) -> Iterator[FileTurn | TurnFileError]:
    """One turn object per line; a line that is not a UTF-8 JSON object yields its error."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.removeprefix(_BOM) if number == 1 else raw
            if line.strip():
                yield _parse_line(f"line {number}", line)


def _parse_line(where: str, raw: bytes) -> FileTurn | TurnFileError:
    try:
        value = _loads(raw)
    except UnicodeDecodeError as error:
        return TurnFileError(f"{where}: text: invalid UTF-8 ({error.reason})")
    except (ValueError, RecursionError) as error:
        return TurnFileError(f"{where}: not JSON ({_reason(error)})")
    return _object(where, value)


def _object(where: str, value: Any) -> FileTurn | TurnFileError:
    if not isinstance(value, dict):
        return TurnFileError(f"{where}: expected an object, got {type(value).__name__}")
    return FileTurn(where, value)


def _loads(raw: bytes) -> Any:
    return json.loads(raw.removeprefix(_BOM).decode("utf-8"))


def _reason(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return error.msg if isinstance(error, json.JSONDecodeError) else str(error)


def _array_items(items: list[Any]) -> Iterator[FileTurn | TurnFileError]:
    for number, value in enumerate(items, start=1):
        yield _object(f"item {number}", value)


def _locomo_items(samples: list[Any]) -> Iterator[FileTurn | TurnFileError]:
    for number, sample in enumerate(samples, start=1):
        where = f"sample {number}"
        try:
            yield from _located_locomo_turns(where, sample)
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            yield TurnFileError(f"{where}: not a LoCoMo sample ({_missing(error)})")


def _located_locomo_turns(where: str, sample: Any) -> Iterator[FileTurn | TurnFileError]:
    conversation, sample_id = sample["conversation"], str(sample["sample_id"])
    scope = f"locomo/{sample_id}/dialogue"
    for number in _session_numbers(conversation):
        when = parse_locomo_date(conversation[f"session_{number}_date_time"])
        for index, turn in enumerate(conversation[f"session_{number}"], start=1):
            at = f"{where} session_{number} turn {index}"
            try:
                yield FileTurn(at, _locomo_turn(scope, sample_id, number, when, turn))
            except (KeyError, TypeError, AttributeError) as error:
                yield TurnFileError(f"{at}: not a LoCoMo turn ({_missing(error)})")


def _missing(error: Exception) -> str:
    return f"missing field {error}" if isinstance(error, KeyError) else str(error)


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
