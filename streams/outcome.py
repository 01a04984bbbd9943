"""What a stage returns and how a failed record becomes a dead letter."""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import ValidationError

from provmem.core.capture import TurnRejectedError
from provmem.core.ports import Append, LogRecord
from provmem.streams.topics import TopicNames

if TYPE_CHECKING:
    from provmem.core.facts.gate import Decision  # the gate loads with the first derived turn


@dataclass(frozen=True)
class Outgoing:
    topic: str
    record: Append


@dataclass
class Outcome:
    """What a handler wants written: records to send, then state to save."""

    outgoing: list[Outgoing] = field(default_factory=list)
    state: dict[str, bytes] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)

    def merge(self, other: Outcome) -> None:
        self.outgoing.extend(other.outgoing)
        self.state.update(other.state)
        self.decisions.extend(other.decisions)


#: Sends outgoing records and returns once the log has acknowledged them.
Send = Callable[[Sequence[Outgoing]], Awaitable[None]]
#: Saves one state record.
Save = Callable[[str, bytes], Awaitable[None]]


async def execute(outcome: Outcome, send: Send, save: Save | None) -> None:
    """Carry out what a handler returned, in the order every runtime keeps: the outgoing
    records first (acknowledged), then the state. The caller commits the input after."""
    if outcome.outgoing:
        await send(outcome.outgoing)
    if save is not None:
        for key, value in outcome.state.items():
            await save(key, value)


@dataclass(frozen=True)
class Origin:
    """Where a record was read: its topic, partition and offset."""

    topic: str
    partition: int
    offset: int

    @classmethod
    def of(cls, record: LogRecord) -> Origin:
        return cls(record.topic, record.partition, record.offset)


#: The key of a dead letter's *redriven* marker (services/memory/dlq.py).
REDRIVEN_MARKER = b"provmem:redriven"


def dead_letter(
    names: TopicNames,
    stage: str,
    key: bytes | None,
    raw: bytes | None,
    error: str,
    origin: Origin,
) -> Outgoing:
    """The dead-letter record for a record that could not be processed, with its reason.
    The original key goes into the (sealed) body, not the record's key: an evidence id
    in the clear would outlive its subject's erasure on this delete-only topic."""
    body = {
        "stage": stage,
        "error": error,
        "topic": origin.topic,
        "partition": origin.partition,
        "offset": origin.offset,
        "key_b64": None if key is None else base64.b64encode(key).decode("ascii"),
        "value_b64": None if raw is None else base64.b64encode(raw).decode("ascii"),
    }
    return Outgoing(names.dead_letters, Append(0, None, json.dumps(body).encode("utf-8")))


def describe(error: Exception) -> str:
    """A one-line reason that names the failing fields."""
    if isinstance(error, ValidationError):
        return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    if isinstance(error, TurnRejectedError):
        return str(error)
    return f"{type(error).__name__}: {error}"
