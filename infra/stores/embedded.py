"""Embedded stores on SQLite: evidence, processor state, data keys and API keys.

The shared file and its schema are infra/stores/embedded_db.py; the fact views are
infra/stores/embedded_views.py (both re-exported here, where the runtimes import them).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path

from provmem.core.events import TurnRecorded
from provmem.infra.crypto.envelope import DEPLOYMENT_CHECK
from provmem.infra.stores.embedded_db import EmbeddedStores
from provmem.infra.stores.embedded_views import EmbeddedFactViews
from provmem.infra.stores.sqlite import connect

__all__ = [
    "EmbeddedApiKeyStore",
    "EmbeddedEvidenceStore",
    "EmbeddedFactViews",
    "EmbeddedKeyStore",
    "EmbeddedStateStore",
    "EmbeddedStores",
]
_DELETE_EVIDENCE = "DELETE FROM {table} WHERE evidence_id IN (SELECT value FROM json_each(?))"


class EmbeddedEvidenceStore:
    def __init__(self, stores: EmbeddedStores) -> None:
        self._conn = stores.conn
        self._bodies = stores.bodies
        self.purge = stores.purge
        self.scrub = stores.scrub

    async def put(self, turn: TurnRecorded) -> bool:
        body = await self._bodies.seal(turn.scope.key, turn.model_dump_json())
        source = await self._bodies.tag(turn.scope.key, "source", turn.source_uri)
        cursor = self._conn.execute(
            "INSERT OR IGNORE INTO evidence VALUES (?, ?, ?, ?)",
            (turn.evidence_id, turn.scope.key, source, body),
        )
        return cursor.rowcount == 1

    async def get(self, evidence_id: str) -> TurnRecorded | None:
        row = self._conn.execute(
            "SELECT body FROM evidence WHERE evidence_id=?", (evidence_id,)
        ).fetchone()
        return None if row is None else await self._bodies.turn(row[0])

    async def neighbours(self, evidence_id: str, radius: int) -> list[TurnRecorded]:
        row = self._conn.execute(
            "SELECT rowid, source_uri FROM evidence WHERE evidence_id=?", (evidence_id,)
        ).fetchone()
        if row is None:
            return []
        rowid, source = row
        before = self._conn.execute(
            "SELECT body FROM evidence WHERE source_uri=? AND rowid<? ORDER BY rowid DESC LIMIT ?",
            (source, rowid, radius),
        ).fetchall()
        after = self._conn.execute(
            "SELECT body FROM evidence WHERE source_uri=? AND rowid>=? ORDER BY rowid LIMIT ?",
            (source, rowid, radius + 1),
        ).fetchall()
        bodies = [b for (b,) in reversed(before)] + [b for (b,) in after]
        turns = [await self._bodies.turn(body) for body in bodies]
        return [turn for turn in turns if turn is not None]

    async def ids_in_scope(self, scope_key: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT evidence_id FROM evidence WHERE scope_key=? ORDER BY rowid", (scope_key,)
        ).fetchall()
        return [evidence_id for (evidence_id,) in rows]

    async def delete(self, evidence_id: str) -> bool:
        removed = self._conn.execute(
            "DELETE FROM evidence WHERE evidence_id=?", (evidence_id,)
        ).rowcount
        await self.release(evidence_id)
        return removed > 0

    async def delete_many(self, evidence_ids: Sequence[str]) -> int:
        """Delete evidence and publication claims by id list, in one transaction."""
        ids = json.dumps(list(dict.fromkeys(evidence_ids)))
        with self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            removed = self._conn.execute(_DELETE_EVIDENCE.format(table="evidence"), (ids,))
            self._conn.execute(_DELETE_EVIDENCE.format(table="publications"), (ids,))
        return int(removed.rowcount)

    async def reserve(self, evidence_id: str) -> bool:
        cursor = self._conn.execute("INSERT OR IGNORE INTO publications VALUES (?)", (evidence_id,))
        return cursor.rowcount == 1

    async def release(self, evidence_id: str) -> None:
        self._conn.execute("DELETE FROM publications WHERE evidence_id=?", (evidence_id,))

    async def close(self) -> None:
        """The shared connection is closed by :class:`EmbeddedStores`."""


def _replace_rows(
    conn: sqlite3.Connection, deletes: Sequence[str], saves: Mapping[str, bytes]
) -> None:
    conn.executemany("DELETE FROM state WHERE key=?", [(key,) for key in deletes])
    conn.executemany("INSERT OR REPLACE INTO state VALUES (?, ?)", saves.items())


class EmbeddedStateStore:
    def __init__(self, stores: EmbeddedStores) -> None:
        self._conn = stores.conn

    async def load(self, key: str) -> bytes | None:
        row = self._conn.execute("SELECT value FROM state WHERE key=?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    async def save(self, key: str, value: bytes) -> None:
        self._conn.execute("INSERT OR REPLACE INTO state VALUES (?, ?)", (key, value))

    async def delete(self, key: str) -> None:
        self._conn.execute("DELETE FROM state WHERE key=?", (key,))

    async def load_many(self, keys: Sequence[str]) -> dict[str, bytes]:
        """The stored values of these keys, in one query (absent keys are left out)."""
        rows = self._conn.execute(
            "SELECT key, value FROM state WHERE key IN (SELECT value FROM json_each(?))",
            (json.dumps(list(keys)),),
        ).fetchall()
        return {key: bytes(value) for key, value in rows}

    async def load_fields_many(
        self, keys: Sequence[str], paths: Sequence[str]
    ) -> dict[str, tuple[object, ...]]:
        """Fields (JSON paths, ``$.a.b``) of the JSON values of these keys, extracted by
        SQLite without decoding the values in Python; absent keys are left out."""
        fields = ", ".join("json_extract(CAST(value AS TEXT), ?)" for _ in paths)
        rows = self._conn.execute(
            f"SELECT key, {fields} FROM state "  # noqa: S608 - placeholders only
            "WHERE key IN (SELECT value FROM json_each(?))",
            (*paths, json.dumps(list(keys))),
        ).fetchall()
        return {key: tuple(found) for key, *found in rows}

    async def replace_many(self, deletes: Sequence[str], saves: Mapping[str, bytes]) -> None:
        """Delete keys, then save values, in one transaction (an erasure swaps a scope's
        records: a crash leaves the old ones or the new ones)."""
        with self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            _replace_rows(self._conn, deletes, saves)

    async def keys_with_prefix(self, prefix: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT key FROM state WHERE substr(key, 1, ?)=? ORDER BY key", (len(prefix), prefix)
        ).fetchall()
        return [key for (key,) in rows]


class EmbeddedKeyStore:
    def __init__(self, stores: EmbeddedStores) -> None:
        self._conn = stores.conn

    async def get(self, key_id: str) -> bytes | None:
        row = self._conn.execute(
            "SELECT wrapped FROM data_keys WHERE key_id=?", (key_id,)
        ).fetchone()
        return None if row is None else bytes(row[0])

    async def put_if_absent(self, key_id: str, wrapped: bytes) -> bytes:
        self._conn.execute("INSERT OR IGNORE INTO data_keys VALUES (?, ?)", (key_id, wrapped))
        stored = await self.get(key_id)
        assert stored is not None  # noqa: S101 - just inserted or already present
        return stored

    async def key_ids(self) -> list[str]:
        rows = self._conn.execute("SELECT key_id FROM data_keys ORDER BY key_id").fetchall()
        return [key_id for (key_id,) in rows if key_id != DEPLOYMENT_CHECK]

    async def replace(self, key_id: str, wrapped: bytes) -> None:
        self._conn.execute("UPDATE data_keys SET wrapped=? WHERE key_id=?", (wrapped, key_id))

    async def destroy(self, key_id: str) -> bool:
        removed = self._conn.execute("DELETE FROM data_keys WHERE key_id=?", (key_id,)).rowcount
        return removed > 0

    async def close(self) -> None:
        """The shared connection is closed by :class:`EmbeddedStores`."""


class EmbeddedApiKeyStore:
    """API key records (hashes, never tokens) in a durable SQLite file of their own.

    Not in the views file: views are projections of the log that a replay may rebuild,
    API keys are not derived from the log."""

    def __init__(self, path: Path) -> None:
        self._conn = connect(path, durable=True)
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS api_keys (key_id TEXT PRIMARY KEY, record BLOB NOT NULL)"
        )

    async def put(self, key_id: str, record: bytes) -> None:
        self._conn.execute("INSERT OR REPLACE INTO api_keys VALUES (?, ?)", (key_id, record))

    async def get(self, key_id: str) -> bytes | None:
        row = self._conn.execute("SELECT record FROM api_keys WHERE key_id=?", (key_id,)).fetchone()
        return None if row is None else bytes(row[0])

    async def records(self) -> list[bytes]:
        rows = self._conn.execute("SELECT record FROM api_keys ORDER BY key_id").fetchall()
        return [bytes(record) for (record,) in rows]

    async def count(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM api_keys").fetchone()[0])

    async def close(self) -> None:
        self._conn.close()
