"""Embedded stores on SQLite: evidence, fact views, processor state and data keys."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import groupby
from pathlib import Path
from typing import TypeVar

from ..core.events import Fact, FactChanged, FactOp, TurnRecorded
from .crypto import DEPLOYMENT_CHECK
from .sealing import Bodies, ViewSealer
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
    """One SQLite file holding every embedded view; each port is a thin facade on it.

    With a ``sealer`` (every runtime wires one) bodies are sealed under the subject's
    data key and entity and slot index keys are keyed tags (infra/sealing.py)."""

    def __init__(self, path: Path, sealer: ViewSealer | None = None) -> None:
        self.path = path
        self.conn = connect(path, durable=False)
        self.conn.executescript(_SCHEMA)
        self.bodies = Bodies(sealer)

    def seal_with(self, sealer: ViewSealer) -> None:
        """Seal from now on (the sealer's key store may live in this very file)."""
        self.bodies.sealer = sealer

    async def purge(self) -> int:
        """Checkpoint and truncate the WAL (deleted rows are zeroed: secure_delete), so
        no page image from before an erasure stays on disk. 1 when done."""
        return int(checkpoint(self.conn))

    async def close(self) -> None:
        self.conn.close()


class EmbeddedEvidenceStore:
    def __init__(self, stores: EmbeddedStores) -> None:
        self._conn = stores.conn
        self._bodies = stores.bodies
        self.purge = stores.purge

    async def put(self, turn: TurnRecorded) -> bool:
        body = await self._bodies.seal(turn.scope.key, turn.model_dump_json())
        cursor = self._conn.execute(
            "INSERT OR IGNORE INTO evidence VALUES (?, ?, ?, ?)",
            (turn.evidence_id, turn.scope.key, turn.source_uri, body),
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


_T = TypeVar("_T")
_SQL_VARIABLES = 500  # ids per IN (...) query, well under SQLite's limit


@dataclass
class _Prepared:
    """What an upsert stores, sealed and tagged before the transaction (sealing awaits
    the key store), and the versions of the fact's history with their evidence."""

    body: str
    entities: list[str]
    slot: str | None
    history: dict[int, frozenset[str]]


class EmbeddedFactViews:
    def __init__(self, stores: EmbeddedStores) -> None:
        self._conn = stores.conn
        self._path = stores.path
        self._bodies = stores.bodies
        self.purge = stores.purge

    async def apply(self, change: FactChanged) -> bool:
        return await self.apply_batch([change]) == 1

    async def apply_batch(self, changes: Sequence[FactChanged]) -> int:
        """Apply changes in order in one transaction; a run of erasures is one set-based
        delete. Returns how many changes took effect."""
        prepared = await self._prepare(changes)
        applied = 0
        with self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            for erasing, run in groupby(changes, key=lambda c: c.op is FactOp.ERASE):
                if erasing:
                    applied += self._erase([c.fact_id for c in run])
                else:
                    applied += sum(self._upsert(change, prepared) for change in run)
        return applied

    async def _prepare(self, changes: Sequence[FactChanged]) -> dict[int, _Prepared]:
        histories: dict[str, dict[int, frozenset[str]]] = {}
        prepared: dict[int, _Prepared] = {}
        for change in changes:
            fact = change.fact
            if fact is None or change.op is FactOp.ERASE:
                continue
            if fact.fact_id not in histories:
                histories[fact.fact_id] = {
                    v.version: frozenset(v.evidence_ids) for v in await self.history(fact.fact_id)
                }
            prepared[id(change)] = await self._sealed(fact, histories[fact.fact_id])
        return prepared

    async def _sealed(self, fact: Fact, history: dict[int, frozenset[str]]) -> _Prepared:
        scope = fact.scope.key
        entities = await self._bodies.tags(scope, "entity", [e.lower() for e in fact.entities])
        slot = await self._bodies.tag(scope, "slot", fact.slot) if fact.slot else None
        body = await self._bodies.seal(scope, fact.model_dump_json())
        return _Prepared(body, entities, slot, history)

    def _current_version(self, fact_id: str) -> int:
        row = self._conn.execute("SELECT version FROM facts WHERE fact_id=?", (fact_id,)).fetchone()
        return 0 if row is None else int(row[0])

    def _upsert(self, change: FactChanged, prepared: dict[int, _Prepared]) -> bool:
        fact = change.fact
        if fact is None or self._current_version(change.fact_id) >= change.version:
            return False
        stored = prepared[id(change)]
        self._conn.execute(
            "INSERT OR REPLACE INTO facts VALUES (?, ?, ?, ?, ?)",
            (fact.fact_id, fact.scope.key, fact.version, fact.status.value, stored.body),
        )
        self._unlink(fact.fact_id)
        self._conn.executemany(
            "INSERT OR IGNORE INTO fact_evidence VALUES (?, ?)",
            [(ev, fact.fact_id) for ev in fact.evidence_ids],
        )
        self._conn.execute(
            "INSERT OR REPLACE INTO fact_history VALUES (?, ?, ?)",
            (fact.fact_id, fact.version, stored.body),
        )
        stored.history[fact.version] = frozenset(fact.evidence_ids)
        self._drop_stale_history(fact, stored.history)
        self._index(fact, stored)
        return True

    def _unlink(self, fact_id: str) -> None:
        for table in _LINKS:
            self._conn.execute(f"DELETE FROM {table} WHERE fact_id=?", (fact_id,))  # noqa: S608

    def _drop_stale_history(self, fact: Fact, history: dict[int, frozenset[str]]) -> None:
        """History never cites evidence the fact no longer has (erased evidence)."""
        live = set(fact.evidence_ids)
        for version, evidence in list(history.items()):
            if not evidence <= live:
                del history[version]
                self._conn.execute(
                    "DELETE FROM fact_history WHERE fact_id=? AND version=?",
                    (fact.fact_id, version),
                )

    def _index(self, fact: Fact, stored: _Prepared) -> None:
        scope = fact.scope.key
        self._conn.executemany(
            "INSERT OR IGNORE INTO fact_entities VALUES (?, ?, ?)",
            [(scope, entity, fact.fact_id) for entity in stored.entities],
        )
        if stored.slot:
            self._conn.execute(
                "INSERT OR IGNORE INTO fact_slots VALUES (?, ?, ?)",
                (scope, stored.slot, fact.fact_id),
            )

    def _erase(self, fact_ids: list[str]) -> int:
        return _erase_facts(self._conn, fact_ids)

    async def delete_scope(self, scope_key: str) -> int:
        """Delete the scope's facts and what links to them, in one transaction (in a
        worker thread: a subject has many rows to delete)."""
        return await _in_thread(self._path, partial(_delete_scope, scope_key=scope_key))

    async def get(self, fact_id: str) -> Fact | None:
        row = self._conn.execute("SELECT body FROM facts WHERE fact_id=?", (fact_id,)).fetchone()
        return None if row is None else await self._bodies.fact(row[0])

    async def get_many(self, fact_ids: Sequence[str]) -> dict[str, Fact]:
        ids = list(dict.fromkeys(fact_ids))
        found: dict[str, Fact] = {}
        for start in range(0, len(ids), _SQL_VARIABLES):
            chunk = ids[start : start + _SQL_VARIABLES]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT fact_id, body FROM facts WHERE fact_id IN ({marks})"  # noqa: S608
            for fact_id, body in self._conn.execute(query, chunk).fetchall():
                if (fact := await self._bodies.fact(body)) is not None:
                    found[fact_id] = fact
        return found

    async def facts_in_scope(self, scope_key: str) -> list[Fact]:
        rows = self._conn.execute(
            "SELECT body FROM facts WHERE scope_key=? ORDER BY fact_id", (scope_key,)
        ).fetchall()
        return await self._facts([body for (body,) in rows])

    async def _facts(self, bodies: list[str]) -> list[Fact]:
        facts = [await self._bodies.fact(body) for body in bodies]
        return [fact for fact in facts if fact is not None]

    async def facts_for_evidence(self, evidence_id: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT fact_id FROM fact_evidence WHERE evidence_id=? ORDER BY fact_id",
            (evidence_id,),
        ).fetchall()
        return [fact_id for (fact_id,) in rows]

    async def facts_for_entity(self, scope_key: str, entity: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT fact_id FROM fact_entities WHERE scope_key=? AND entity=? ORDER BY fact_id",
            (scope_key, await self._bodies.tag(scope_key, "entity", entity.lower())),
        ).fetchall()
        return [fact_id for (fact_id,) in rows]

    async def facts_for_slot(self, scope_key: str, slot: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT fact_id FROM fact_slots WHERE scope_key=? AND slot=? ORDER BY fact_id",
            (scope_key, await self._bodies.tag(scope_key, "slot", slot)),
        ).fetchall()
        return [fact_id for (fact_id,) in rows]

    async def history(self, fact_id: str) -> list[Fact]:
        rows = self._conn.execute(
            "SELECT body FROM fact_history WHERE fact_id=? ORDER BY version", (fact_id,)
        ).fetchall()
        return await self._facts([body for (body,) in rows])

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
