"""Dead letters: list them, and re-drive them onto the topic they came from.

A stage that cannot process a record writes a dead letter (``streams/outcome.py``): the
stage, the reason, the record's origin (topic, partition, offset), its key and its value,
sealed under the data key of the subject it names (``streams/runtime/sealed_topics.py``): a
letter of an erased subject reads as erased and is not listed.
Re-driving appends the original record (or a fixed value) to its original topic and
partition, where the pipeline processes it like any other record, and appends a
*redriven* marker to the dead-letter topic so the letter is not driven twice. The log
stays append-only: nothing is rewritten, and the markers say what was done and when.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from provmem.core.ports import Append, EventLog, LogRecord
from provmem.streams.outcome import REDRIVEN_MARKER
from provmem.streams.topics import TopicNames

_MARKER_KEY = REDRIVEN_MARKER
_PAGE = 1000


class DeadLetter(BaseModel):
    """One dead letter, as ``provmem dlq list`` shows it."""

    offset: int
    stage: str
    error: str
    topic: str
    partition: int
    origin_offset: int
    key: str | None
    value: str | None
    redriven: bool = False


class Redriven(BaseModel):
    """Where a re-driven letter went."""

    letter: int
    topic: str
    partition: int
    offset: int


@dataclass
class DeadLetters:
    """The dead-letter topic of one deployment."""

    log: EventLog
    names: TopicNames

    async def letters(self, *, include_redriven: bool = False) -> list[DeadLetter]:
        """Dead letters, oldest first; re-driven ones only with ``include_redriven``."""
        records = [r for r in await self._all() if r.value is not None]  # None: erased
        done = {_marker_of(r) for r in records} - {None}
        letters = [_letter(r, r.offset in done) for r in records if _marker_of(r) is None]
        return [x for x in letters if include_redriven or not x.redriven]

    async def letter(self, offset: int) -> DeadLetter:
        for found in await self.letters(include_redriven=True):
            if found.offset == offset:
                return found
        raise LookupError(f"dead letter {offset}: not found on {self.names.dead_letters}")

    async def redrive(
        self, offsets: Sequence[int], *, value: bytes | None = None
    ) -> list[Redriven]:
        """Append each letter's record (or ``value``) to its origin; mark the letter."""
        letters = [await self.letter(offset) for offset in offsets]
        for found in letters:
            if found.redriven:
                raise ValueError(f"dead letter {found.offset}: already re-driven")
        return [await self._redrive_one(found, value) for found in letters]

    async def _redrive_one(self, found: DeadLetter, value: bytes | None) -> Redriven:
        body = value if value is not None else _decode(found.value)
        if body is None:
            raise ValueError(f"dead letter {found.offset}: value: none recorded, give one")
        key = None if found.key is None else found.key.encode("utf-8")
        (offset,) = await self.log.append(found.topic, [Append(found.partition, key, body)])
        marker = {"redriven": found.offset, "offset": offset, "at": datetime.now(UTC).isoformat()}
        await self.log.append(
            self.names.dead_letters, [Append(0, _MARKER_KEY, json.dumps(marker).encode())]
        )
        return Redriven(
            letter=found.offset, topic=found.topic, partition=found.partition, offset=offset
        )

    async def _all(self) -> list[LogRecord]:
        topic, records = self.names.dead_letters, []
        for partition in range(await self.log.partitions(topic)):
            start = 0
            while page := await self.log.read(topic, partition, start, _PAGE):
                records += page
                start = page[-1].offset + 1
        return records


def _marker_of(record: LogRecord) -> int | None:
    if record.key != _MARKER_KEY or record.value is None:
        return None
    return int(json.loads(record.value)["redriven"])


def _letter(record: LogRecord, redriven: bool) -> DeadLetter:
    body: dict[str, Any] = json.loads(record.value or b"{}")
    return DeadLetter(
        offset=record.offset,
        stage=str(body.get("stage", "?")),
        error=str(body.get("error", "?")),
        topic=str(body.get("topic", "?")),
        partition=int(body.get("partition", 0)),
        origin_offset=int(body.get("offset", -1)),
        key=_key_of(record, body),
        value=body.get("value_b64"),
        redriven=redriven,
    )


def _key_of(record: LogRecord, body: dict[str, Any]) -> str | None:
    """The failed record's key: in the sealed body (``key_b64``), or, in a letter written
    before, the letter's own key."""
    if "key_b64" in body:
        key = _decode(body["key_b64"])
    else:
        key = record.key
    return None if key is None else key.decode("utf-8", "replace")


def _decode(value_b64: str | None) -> bytes | None:
    return None if value_b64 is None else base64.b64decode(value_b64)
