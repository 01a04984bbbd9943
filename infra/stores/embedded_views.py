"""Embedded fact views on the shared SQLite file (infra/stores/embedded_db.py): current facts,
their history, and the evidence, entity and slot indexes that point at them."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import groupby
from pathlib import Path
from typing import TypeVar

from provmem.core.events import Fact, FactChanged, FactOp
from provmem.infra.stores.embedded_db import EmbeddedStores
from provmem.infra.stores.sqlite import connect

# Tables linking a fact to its evidence and index entries (indexed by fact id for deletes).
_LINKS = ("fact_evidence", "fact_entities", "fact_slots")
# One statement deletes a whole id list (a JSON array bound as one parameter).
_DELETE_IN = "DELETE FROM {table} WHERE fact_id IN (SELECT value FROM json_each(?))"
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
        self.scrub = stores.scrub

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

    async def versions_under(self, prefix: str) -> dict[str, tuple[str, int]]:
        rows = self._conn.execute(  # two ranges of the scope index: "0" sorts after "/"
            "SELECT fact_id, scope_key, version FROM facts WHERE scope_key=?"
            " UNION ALL SELECT fact_id, scope_key, version FROM facts"
            " WHERE scope_key>=? AND scope_key<?",
            (prefix, f"{prefix}/", f"{prefix}0"),
        ).fetchall()
        return {fact_id: (scope_key, int(version)) for fact_id, scope_key, version in rows}

    async def _facts(self, bodies: list[str]) -> list[Fact]:
        facts = [await self._bodies.fact(body) for body in bodies]
        return [fact for fact in facts if fact is not None]

    async def facts_for_evidence(self, evidence_id: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT fact_id FROM fact_evidence WHERE evidence_id=? ORDER BY fact_id",
            (evidence_id,),
        ).fetchall()
        return [fact_id for (fact_id,) in rows]

    async def facts_for_entity(
        self, scope_key: str, entity: str, limit: int | None = None
    ) -> list[str]:
        rows = self._conn.execute(  # the primary key's order: a limit stops the read there
            "SELECT fact_id FROM fact_entities WHERE scope_key=? AND entity=? "
            "ORDER BY fact_id LIMIT ?",
            (scope_key, await self._bodies.tag(scope_key, "entity", entity.lower()), _all(limit)),
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


def _all(limit: int | None) -> int:
    """A LIMIT value: ``limit``, or every row (SQLite reads a negative limit as none)."""
    return -1 if limit is None else max(limit, 0)
