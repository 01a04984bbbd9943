"""The embedded default event log: a durable single-node log in one SQLite file.

It keeps Kafka's semantics: topics with a fixed partition count, per-partition
offsets from 0, keys, tombstones (``value`` NULL) and committed consumer-group
offsets. Appends are transactions, so a crash never leaves half a batch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from provmem.core.ports import Append, LogRecord, TopicConfig
from provmem.infra.stores.sqlite import checkpoint, connect

_SCHEMA = """
CREATE TABLE IF NOT EXISTS topics (
  name TEXT PRIMARY KEY, partitions INTEGER NOT NULL, cleanup TEXT NOT NULL,
  retention_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS records (
  topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
  key BLOB, value BLOB, PRIMARY KEY (topic, partition, offset)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_by_key ON records (topic, partition, key, offset);
CREATE TABLE IF NOT EXISTS offsets (
  grp TEXT NOT NULL, topic TEXT NOT NULL, partition INTEGER NOT NULL,
  offset INTEGER NOT NULL, PRIMARY KEY (grp, topic, partition));
"""


_COMPACT = (
    "DELETE FROM records WHERE topic=? AND key IS NOT NULL AND EXISTS ("
    "SELECT 1 FROM records later WHERE later.topic=records.topic "
    "AND later.partition=records.partition AND later.key=records.key "
    "AND later.offset>records.offset)"
)


_EXPUNGE = "DELETE FROM records WHERE topic=? AND partition=? AND key=?"


class UnknownTopicError(KeyError):
    """Raised when a topic was never created."""


class EmbeddedEventLog:
    """An :class:`~provmem.core.ports.EventLog` on local disk."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._conn = connect(path)
        self._conn.executescript(_SCHEMA)

    async def ensure_topics(self, topics: Sequence[TopicConfig]) -> None:
        for topic in topics:
            self._conn.execute(
                "INSERT OR IGNORE INTO topics VALUES (?, ?, ?, ?)",
                (topic.name, topic.partitions, topic.cleanup.value, topic.retention_ms),
            )

    async def append(self, topic: str, records: Sequence[Append]) -> list[int]:
        """Append in one transaction: one end-offset query per partition, one insert."""
        count = await self.partitions(topic)
        for record in records:
            if not 0 <= record.partition < count:
                raise ValueError(f"partition {record.partition} out of range for {topic} ({count})")
        with self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            rows = self._numbered(topic, records)
            self._conn.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?)", rows)
        return [offset for _, _, offset, _, _ in rows]

    def _numbered(
        self, topic: str, records: Sequence[Append]
    ) -> list[tuple[str, int, int, bytes | None, bytes | None]]:
        """The rows to insert, each with its offset (inside the append's transaction)."""
        ends: dict[int, int] = {}
        rows = []
        for record in records:
            if record.partition not in ends:
                ends[record.partition] = self._end(topic, record.partition)
            offset = ends[record.partition]
            ends[record.partition] = offset + 1
            rows.append((topic, record.partition, offset, record.key, record.value))
        return rows

    async def read(self, topic: str, partition: int, start: int, limit: int) -> list[LogRecord]:
        rows = self._conn.execute(
            "SELECT offset, key, value FROM records WHERE topic=? AND partition=? "
            "AND offset>=? ORDER BY offset LIMIT ?",
            (topic, partition, start, limit),
        ).fetchall()
        return [LogRecord(topic, partition, off, key, value) for off, key, value in rows]

    async def end_offset(self, topic: str, partition: int) -> int:
        return self._end(topic, partition)

    def _end(self, topic: str, partition: int) -> int:
        row = self._conn.execute(
            "SELECT MAX(offset) FROM records WHERE topic=? AND partition=?", (topic, partition)
        ).fetchone()
        return 0 if row[0] is None else int(row[0]) + 1

    async def partitions(self, topic: str) -> int:
        row = self._conn.execute("SELECT partitions FROM topics WHERE name=?", (topic,)).fetchone()
        if row is None:
            raise UnknownTopicError(topic)
        return int(row[0])

    async def topics(self) -> list[str]:
        rows = self._conn.execute("SELECT name FROM topics ORDER BY name").fetchall()
        return [str(name) for (name,) in rows]

    async def delete_topics(self, names: Sequence[str]) -> None:
        """The topics, their records (zeroed: secure_delete) and their offsets."""
        with self._conn:
            for name in names:
                self._conn.execute("DELETE FROM records WHERE topic=?", (name,))
                self._conn.execute("DELETE FROM offsets WHERE topic=?", (name,))
                self._conn.execute("DELETE FROM topics WHERE name=?", (name,))

    async def commit(self, group: str, topic: str, partition: int, offset: int) -> None:
        self._conn.execute(
            "INSERT OR REPLACE INTO offsets VALUES (?, ?, ?, ?)", (group, topic, partition, offset)
        )

    async def committed(self, group: str, topic: str, partition: int) -> int:
        row = self._conn.execute(
            "SELECT offset FROM offsets WHERE grp=? AND topic=? AND partition=?",
            (group, topic, partition),
        ).fetchone()
        return 0 if row is None else int(row[0])

    async def compact(self, topic: str, *more: str) -> int:
        """Keep only the latest record of each key (tombstones stay): what Kafka's log
        cleaner does for compacted topics. Returns the records removed.

        The topics are compacted in one transaction, in a worker thread on a connection
        of its own (an erasure compacts many large records): the event loop and this
        client's connection stay free meanwhile, and SQLite's lock orders it with appends."""
        return await asyncio.to_thread(_compact, self._path, (topic, *more))

    async def expunge(self, topic: str, partition: int, keys: Sequence[bytes]) -> int:
        """Delete every record of ``keys`` on one partition, tombstones too (an erasure of
        records keyed as an older version keyed them: nothing later shares their key, so
        compaction alone would keep them). Returns the records removed."""
        if not keys:
            return 0
        with self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            return sum(
                int(self._conn.execute(_EXPUNGE, (topic, partition, key)).rowcount) for key in keys
            )

    async def purge(self) -> int:
        """After an erasure (compaction deleted its records, secure_delete zeroed them):
        checkpoint and truncate the WAL so no older page image keeps them. 1 when done."""
        return int(await asyncio.to_thread(_checkpoint, self._path))

    async def close(self) -> None:
        self._conn.close()


def _checkpoint(path: Path) -> bool:
    conn = connect(path)
    try:
        return checkpoint(conn)
    finally:
        conn.close()


def _compact(path: Path, topics: tuple[str, ...]) -> int:
    conn = connect(path)
    try:
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            return sum(int(conn.execute(_COMPACT, (topic,)).rowcount) for topic in topics)
    finally:
        conn.close()
