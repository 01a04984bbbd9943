"""Embedded stores on SQLite: evidence, fact views, processor state and data keys."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from itertools import groupby
from pathlib import Path
from typing import TypeVar

from ..core.events import Fact, FactChanged, FactOp, TurnRecorded
from .sqlite_db import checkpoint, connect

_SCHEMA = """
CREATE TABLE IF NOT EXISTS evidence (
  evidence_id TEXT PRIMARY KEY, scope_key TEXT NOT NULL, source_uri TEXT NOT NULL,
  body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS evidence_by_source ON evidence (source_uri);
CREATE TABLE IF NOT EXISTS facts (
  fact_id TEXT PRIMARY KEY, scope_key TEXT NOT NULL, version INTEGER NOT NULL,
  status TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS facts_by_scope ON facts (scope_key);
CREATE TABLE IF NOT EXISTS fact_evidence (
  evidence_id TEXT NOT NULL, fact_id TEXT NOT NULL, PRIMARY KEY (evidence_id, fact_id));
CREATE INDEX IF NOT EXISTS fact_evidence_by_fact ON fact_evidence (fact_id);
CREATE TABLE IF NOT EXISTS fact_history (
  fact_id TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (fact_id, version));
CREATE TABLE IF NOT EXISTS fact_entities (
  scope_key TEXT NOT NULL, entity TEXT NOT NULL, fact_id TEXT NOT NULL,
  PRIMARY KEY (scope_key, entity, fact_id));
CREATE INDEX IF NOT EXISTS fact_entities_by_fact ON fact_entities (fact_id);
CREATE TABLE IF NOT EXISTS fact_slots (
  scope_key TEXT NOT NULL, slot TEXT NOT NULL, fact_id TEXT NOT NULL,
  PRIMARY KEY (scope_key, slot, fact_id));
CREATE INDEX IF NOT EXISTS fact_slots_by_fact ON fact_slots (fact_id);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS data_keys (key_id TEXT PRIMARY KEY, wrapped BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS publications (evidence_id TEXT PRIMARY KEY);
"""
# Tables linking a fact to its evidence and index entries (indexed by fact id for deletes).
_LINKS = ("fact_evidence", "fact_entities", "fact_slots")
# One statement deletes a whole id list (a JSON array bound as one parameter).
_DELETE_IN = "DELETE FROM {table} WHERE fact_id IN (SELECT value FROM json_each(?))"
_DELETE_EVIDENCE = "DELETE FROM {table} WHERE evidence_id IN (SELECT value FROM json_each(?))"


class EmbeddedStores:
    """One SQLite file holding every embedded view; each port is a thin facade on it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = connect(path, durable=False)
        self.conn.executescript(_SCHEMA)

    async def purge(self) -> int:
        """Checkpoint and truncate the WAL (deleted rows are zeroed: secure_delete), so
        no page image from before an erasure stays on disk. 1 when done."""
        return int(checkpoint(self.conn))

    async def close(self) -> None:
        self.conn.close()


class EmbeddedEvidenceStore:
    def __init__(self, stores: EmbeddedStores) -> None:
        self._conn = stores.conn
        self.purge = stores.purge

    async def put(self, turn: TurnRecorded) -> bool:
        cursor = self._conn.execute(
            "INSERT OR IGNORE INTO evidence VALUES (?, ?, ?, ?)",
            (turn.evidence_id, turn.scope.key, turn.source_uri, turn.model_dump_json()),
        )
        return cursor.rowcount == 1

    async def get(self, evidence_id: str) -> TurnRecorded | None:
        row = self._conn.execute(
            "SELECT body FROM evidence WHERE evidence_id=?", (evidence_id,)
        ).fetchone()
        return None if row is None else TurnRecorded.model_validate_json(row[0])

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
        return [TurnRecorded.model_validate_json(body) for body in bodies]

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


_T = TypeVar("_T")
_SQL_VARIABLES = 500  # ids per IN (...) query, well under SQLite's limit


class EmbeddedFactViews:
    def __init__(self, stores: EmbeddedStores) -> None:
        self._conn = stores.conn
        self._path = stores.path
        self.purge = stores.purge

    async def apply(self, change: FactChanged) -> bool:
        return await self.apply_batch([change]) == 1

    async def apply_batch(self, changes: Sequence[FactChanged]) -> int:
        """Apply changes in order in one transaction; a run of erasures is one set-based
        delete. Returns how many changes took effect."""
        applied = 0
        with self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            for erasing, run in groupby(changes, key=lambda c: c.op is FactOp.ERASE):
                if erasing:
                    applied += self._erase([c.fact_id for c in run])
                else:
                    applied += sum(self._upsert(change) for change in run)
        return applied

    def _current_version(self, fact_id: str) -> int:
        row = self._conn.execute("SELECT version FROM facts WHERE fact_id=?", (fact_id,)).fetchone()
        return 0 if row is None else int(row[0])

    def _upsert(self, change: FactChanged) -> bool:
        fact = change.fact
        if fact is None or self._current_version(change.fact_id) >= change.version:
            return False
        body = fact.model_dump_json()
        self._conn.execute(
            "INSERT OR REPLACE INTO facts VALUES (?, ?, ?, ?, ?)",
            (fact.fact_id, fact.scope.key, fact.version, fact.status.value, body),
        )
        self._unlink(fact.fact_id)
        self._conn.executemany(
            "INSERT OR IGNORE INTO fact_evidence VALUES (?, ?)",
            [(ev, fact.fact_id) for ev in fact.evidence_ids],
        )
        self._conn.execute(
            "INSERT OR REPLACE INTO fact_history VALUES (?, ?, ?)",
            (fact.fact_id, fact.version, body),
        )
        self._drop_stale_history(fact)
        self._index(fact)
        return True

    def _unlink(self, fact_id: str) -> None:
        for table in _LINKS:
            self._conn.execute(f"DELETE FROM {table} WHERE fact_id=?", (fact_id,))  # noqa: S608

    def _drop_stale_history(self, fact: Fact) -> None:
        """History never cites evidence the fact no longer has (erased evidence)."""
        live = set(fact.evidence_ids)
        for version in self._history(fact.fact_id):
            if not set(version.evidence_ids) <= live:
                self._conn.execute(
                    "DELETE FROM fact_history WHERE fact_id=? AND version=?",
                    (fact.fact_id, version.version),
                )

    def _index(self, fact: Fact) -> None:
        scope = fact.scope.key
        self._conn.executemany(
            "INSERT OR IGNORE INTO fact_entities VALUES (?, ?, ?)",
            [(scope, entity.lower(), fact.fact_id) for entity in fact.entities],
        )
        if fact.slot:
            self._conn.execute(
                "INSERT OR IGNORE INTO fact_slots VALUES (?, ?, ?)",
                (scope, fact.slot, fact.fact_id),
            )

    def _erase(self, fact_ids: list[str]) -> int:
        return _erase_facts(self._conn, fact_ids)

    async def delete_scope(self, scope_key: str) -> int:
        """Delete the scope's facts and what links to them, in one transaction (in a
        worker thread: a subject has many rows to delete)."""
        return await _in_thread(self._path, partial(_delete_scope, scope_key=scope_key))

    async def get(self, fact_id: str) -> Fact | None:
        row = self._conn.execute("SELECT body FROM facts WHERE fact_id=?", (fact_id,)).fetchone()
        return None if row is None else Fact.model_validate_json(row[0])

    async def get_many(self, fact_ids: Sequence[str]) -> dict[str, Fact]:
        ids = list(dict.fromkeys(fact_ids))
        found: dict[str, Fact] = {}
        for start in range(0, len(ids), _SQL_VARIABLES):
            chunk = ids[start : start + _SQL_VARIABLES]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT fact_id, body FROM facts WHERE fact_id IN ({marks})"  # noqa: S608
            for fact_id, body in self._conn.execute(query, chunk):
                found[fact_id] = Fact.model_validate_json(body)
        return found

    async def facts_in_scope(self, scope_key: str) -> list[Fact]:
        rows = self._conn.execute(
            "SELECT body FROM facts WHERE scope_key=? ORDER BY fact_id", (scope_key,)
        ).fetchall()
        return [Fact.model_validate_json(body) for (body,) in rows]

    async def facts_for_evidence(self, evidence_id: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT fact_id FROM fact_evidence WHERE evidence_id=? ORDER BY fact_id",
            (evidence_id,),
        ).fetchall()
        return [fact_id for (fact_id,) in rows]

    async def facts_for_entity(self, scope_key: str, entity: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT fact_id FROM fact_entities WHERE scope_key=? AND entity=? ORDER BY fact_id",
            (scope_key, entity.lower()),
        ).fetchall()
        return [fact_id for (fact_id,) in rows]

    async def facts_for_slot(self, scope_key: str, slot: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT fact_id FROM fact_slots WHERE scope_key=? AND slot=? ORDER BY fact_id",
            (scope_key, slot),
        ).fetchall()
        return [fact_id for (fact_id,) in rows]

    async def history(self, fact_id: str) -> list[Fact]:
        return self._history(fact_id)

    def _history(self, fact_id: str) -> list[Fact]:
        rows = self._conn.execute(
            "SELECT body FROM fact_history WHERE fact_id=? ORDER BY version", (fact_id,)
        ).fetchall()
        return [Fact.model_validate_json(body) for (body,) in rows]

    async def close(self) -> None:
        """The shared connection is closed by :class:`EmbeddedStores`."""


def _erase_facts(conn: sqlite3.Connection, fact_ids: list[str]) -> int:
    """Delete facts and everything that links to them, set-based (by id list)."""
    ids = json.dumps(list(dict.fromkeys(fact_ids)))
    removed = conn.execute(_DELETE_IN.format(table="facts"), (ids,)).rowcount
    for table in ("fact_history", *_LINKS):
        conn.execute(_DELETE_IN.format(table=table), (ids,))
    return int(removed)


def _delete_scope(conn: sqlite3.Connection, scope_key: str) -> int:
    rows = conn.execute("SELECT fact_id FROM facts WHERE scope_key=?", (scope_key,))
    return _erase_facts(conn, [fact_id for (fact_id,) in rows.fetchall()])


def _replace_rows(
    conn: sqlite3.Connection, deletes: Sequence[str], saves: Mapping[str, bytes]
) -> None:
    conn.executemany("DELETE FROM state WHERE key=?", [(key,) for key in deletes])
    conn.executemany("INSERT OR REPLACE INTO state VALUES (?, ?)", saves.items())


async def _in_thread(path: Path, work: Callable[[sqlite3.Connection], _T]) -> _T:
    """``work`` as one transaction on a connection of its own, in a worker thread (a bulk
    write of an erasure): the event loop and the shared connection stay free meanwhile,
    and SQLite's lock orders it with the other writers."""

    def run() -> _T:
        conn = connect(path, durable=False)
        try:
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                return work(conn)
        finally:
            conn.close()

    return await asyncio.to_thread(run)


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
        return [key_id for (key_id,) in rows]

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
