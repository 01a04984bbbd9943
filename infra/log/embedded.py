"""The embedded default event log: a durable single-node log in one SQLite file.

It keeps Kafka's semantics: topics with a fixed partition count, per-partition
offsets from 0, keys, tombstones (``value`` NULL) and committed consumer-group
offsets. Appends are transactions, so a crash never leaves half a batch.

Each record also carries the scope key its sealed envelope shows (infra/log/sealed.py:
``{"seal":1,"scope":{...}``, an identifier already in the value at rest), indexed, so
that an erasure reads and compacts only its scope's records of a partition
(:meth:`EmbeddedEventLog.read_scope`, :meth:`EmbeddedEventLog.compact_scope`: issue 30
item 4, cost bounded by what is erased). A record that shows no scope (a tombstone, a
record written before sealing, a control record) has none and belongs to every scope's
reads. A file written before the column gets it on open, filled from the envelopes.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
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
  key BLOB, value BLOB, scope TEXT, PRIMARY KEY (topic, partition, offset)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_by_key ON records (topic, partition, key, offset);
CREATE INDEX IF NOT EXISTS records_by_scope ON records (topic, partition, scope, offset);
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

#: The records of one scope, and those that show none, of a partition from an offset on:
#: two lookups of ``records_by_scope`` (one ``OR`` would scan the partition; without the
#: ``INDEXED BY`` the planner, which has no statistics, walks the partition's offsets).
_READ_SCOPE = (
    "SELECT offset, key, value FROM records INDEXED BY records_by_scope WHERE topic=:topic "
    "AND partition=:partition AND scope=:scope AND offset>=:start UNION ALL "
    "SELECT offset, key, value FROM records INDEXED BY records_by_scope WHERE topic=:topic "
    "AND partition=:partition AND scope IS NULL AND offset>=:start ORDER BY offset LIMIT :limit"
)

#: :data:`_COMPACT` over one scope's records of a partition (and, apart, those of none).
_COMPACT_SCOPE = (
    "DELETE FROM records INDEXED BY records_by_scope WHERE topic=:topic "
    "AND partition=:partition AND scope{scope} "
    "AND key IS NOT NULL AND EXISTS (SELECT 1 FROM records later WHERE "
    "later.topic=records.topic AND later.partition=records.partition "
    "AND later.key=records.key AND later.offset>records.offset)"
)

#: The scope a sealed envelope shows at its start (infra/log/sealed.py writes it so).
_ENVELOPE_SCOPE = re.compile(
    rb'\{"seal":\d+,"scope":\{"org":"([^"\\]*)","project":"([^"\\]*)","user":"([^"\\]*)"\}'
)


def envelope_scope(value: bytes | None) -> str | None:
    """The scope key ``org/project/user`` a sealed value shows (None: none shown)."""
    found = _ENVELOPE_SCOPE.match(value or b"")
    return None if found is None else b"/".join(found.groups()).decode("utf-8")


class UnknownTopicError(KeyError):
    """Raised when a topic was never created."""


class EmbeddedEventLog:
    """An :class:`~provmem.core.ports.EventLog` on local disk."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._conn = connect(path)
        _add_scopes(self._conn)
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
            self._conn.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)", rows)
        return [row[2] for row in rows]

    def _numbered(
        self, topic: str, records: Sequence[Append]
    ) -> list[tuple[str, int, int, bytes | None, bytes | None, str | None]]:
        """The rows to insert, each with its offset (inside the append's transaction)."""
        ends: dict[int, int] = {}
        rows = []
        for record in records:
            if record.partition not in ends:
                ends[record.partition] = self._end(topic, record.partition)
            offset = ends[record.partition]
            ends[record.partition] = offset + 1
            scope = envelope_scope(record.value)
            rows.append((topic, record.partition, offset, record.key, record.value, scope))
        return rows

    async def read(self, topic: str, partition: int, start: int, limit: int) -> list[LogRecord]:
        rows = self._conn.execute(
            "SELECT offset, key, value FROM records WHERE topic=? AND partition=? "
            "AND offset>=? ORDER BY offset LIMIT ?",
            (topic, partition, start, limit),
        ).fetchall()
        return [LogRecord(topic, partition, off, key, value) for off, key, value in rows]

    async def read_scope(
        self, topic: str, partition: int, scope_key: str, start: int, limit: int
    ) -> list[LogRecord]:
        """:meth:`read` of the records of one scope and of those that show no scope
        (tombstones, unsealed records): what a reader of that scope alone may need, in
        log order; its cost follows the scope's records, not the partition's."""
        rows = self._conn.execute(
            _READ_SCOPE,
            {"topic": topic, "partition": partition, "scope": scope_key, "start": start}
            | {"limit": limit},
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

    async def compact_scope(self, scope_key: str, partition: int, topic: str, *more: str) -> int:
        """:meth:`compact` of one scope's records on one partition and of the records
        there that show no scope (what an erasure of part of the scope superseded: its
        turns before their tombstones, its facts' older versions); in a worker thread."""
        topics = (topic, *more)
        return await asyncio.to_thread(_compact_scope, self._path, scope_key, partition, topics)

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


def _compact_scope(path: Path, scope_key: str, partition: int, topics: tuple[str, ...]) -> int:
    conn = connect(path)
    try:
        with conn:
            conn.execute("BEGIN IMMEDIATE")
            removed = 0
            for topic, scope in [(t, s) for t in topics for s in ("=:scope", " IS NULL")]:
                query = _COMPACT_SCOPE.format(scope=scope)
                found = conn.execute(
                    query, {"topic": topic, "partition": partition} | {"scope": scope_key}
                )
                removed += int(found.rowcount)
            return removed
    finally:
        conn.close()


def _add_scopes(conn: sqlite3.Connection) -> None:
    """A log written before the ``scope`` column: add it and fill it from the envelopes,
    in one transaction (a crash leaves the file as it was)."""
    if _has_scopes(conn):
        return
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        if _has_scopes(conn):  # another process added it meanwhile
            return
        conn.execute("ALTER TABLE records ADD COLUMN scope TEXT")
        rows = conn.execute(
            "SELECT topic, partition, offset, substr(value, 1, 400) FROM records "
            "WHERE value IS NOT NULL"
        ).fetchall()
        scoped = [(s, t, p, o) for t, p, o, v in rows if (s := envelope_scope(v)) is not None]
        conn.executemany(
            "UPDATE records SET scope=? WHERE topic=? AND partition=? AND offset=?", scoped
        )


def _has_scopes(conn: sqlite3.Connection) -> bool:
    """Whether the records table has the scope column (a new file: none yet, no table)."""
    columns = [row[1] for row in conn.execute("PRAGMA table_info(records)")]
    return not columns or "scope" in columns
