"""Mem0's calls and result shapes on provmem's memory: switch from Mem0 by changing the
import (``from mem0 import Memory`` -> ``from provmem.mem0 import Memory``).

    from provmem.mem0 import Memory
    m = Memory()
    m.add([{"role": "user", "content": "I moved to Lisbon in May."}], user_id="alice")
    m.search("Where does alice live?", filters={"user_id": "alice"}, top_k=5)["results"]

Both of Mem0's forms are taken: 2.x (``search(query, top_k=, filters={"user_id": ...},
threshold=)``, ``get_all(filters=, top_k=)``, ``update(memory_id, text=, metadata=)``)
and 1.x (``search(query, user_id=, limit=)``, ``get_all(user_id=)``, ``update(memory_id,
data)``). Items are Mem0's (``id``, ``memory``, ``hash``, ``metadata``, ``score``,
``created_at``, ``updated_at``, ``user_id``/``agent_id``/``run_id``) with provmem's
``status``, ``evidence``, ``supersedes``, ``superseded_by`` and ``confidence`` beside
them. ``update`` is a correction and ``delete`` a retraction (the audit trail stays);
``delete_all`` and ``reset`` are erasures, and return their receipts. Every provmem
method (``correct``, ``erase``, ``facts``, ``subscribe``...) is there too; ``add``,
``search`` and ``history`` answer in Mem0's shapes here.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from provmem.core.events import Fact, FactStatus
from provmem.core.scope import id_segment
from provmem.services.sdk import facade
from provmem.services.sdk.facade import positive

_IDS = ("user_id", "agent_id", "run_id")
_OPERATORS = ("eq", "ne", "in", "nin", "gt", "gte", "lt", "lte", "contains", "icontains")
DEFAULT_LIMIT = 100
DELETED = "Memory deleted successfully!"


class AsyncMemory(facade.AsyncMemory):
    """:class:`provmem.AsyncMemory` answering Mem0's calls in Mem0's shapes."""

    @classmethod
    def from_config(cls, config_dict: Mapping[str, Any]) -> AsyncMemory:
        """Mem0's ``from_config``: provmem's keys (``path``, ``url``, ``api_key``, ``org``,
        ``project``) are honoured; Mem0's ``vector_store``/``llm``/``embedder`` sections
        are not needed (provmem brings its own) and are ignored."""
        return cls(**_options(config_dict))

    def _owner(self, ids: Mapping[str, Any], filters: Mapping[str, Any] | None) -> dict[str, str]:
        given = {k: v for k, v in ids.items() if v is not None}
        found = {k: v for k, v in {**(filters or {}), **given}.items() if k in _IDS}
        if not found:
            raise ValueError("filters: at least one of user_id, agent_id or run_id is required")
        return found

    async def add(  # type: ignore[override]
        self,
        messages: Any,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        infer: bool = True,
        **options: Any,
    ) -> dict[str, Any]:
        """Mem0's ``add``: the memories the messages made or changed, each with its
        ``event`` (ADD, UPDATE, DELETE). provmem always keeps the messages as evidence
        and derives memories from them; ``infer`` is accepted for compatibility."""
        owner = self._owner({"user_id": user_id, "agent_id": agent_id, "run_id": run_id}, None)
        user = _user_of(owner)
        before = {f.fact_id: f for f in await self.facts(user_id=user, every=True)}
        published = await super().add(
            messages, user_id=user, agent_id=agent_id, session_id=run_id, **options
        )
        await self._notes().keep([r.evidence_id for r in published if r.evidence_id], metadata)
        after = await self.facts(user_id=user, every=True)
        return {"results": await self._items(_changes(before, after), owner)}

    async def search(  # type: ignore[override]
        self,
        query: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        top_k: int | None = None,
        filters: Mapping[str, Any] | None = None,
        threshold: float | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Mem0's ``search``: ``{"results": [...]}`` best first, each with a 0-1
        ``score`` (``threshold`` drops lower ones) and its evidence quotes."""
        owner = self._owner({"user_id": user_id, "agent_id": agent_id, "run_id": run_id}, filters)
        wanted = _limit(limit, top_k)
        found = await super().search(query, user_id=_user_of(owner), limit=wanted, **options)
        scored = [
            (b.fact, _unit(b.score), b)
            for b in found
            if b.fact is not None and (threshold is None or _unit(b.score) >= threshold)
        ]
        items = await self._items([(fact, None) for fact, _, _ in scored], owner)
        for item, (_, score, bundle) in zip(items, scored, strict=True):
            item["score"] = score
            item["evidence"] = [e.model_dump(mode="json") for e in bundle.evidence]
        return {"results": _kept(items, filters, owner)[:wanted]}

    async def get(self, memory_id: str) -> dict[str, Any] | None:
        """Mem0's ``get``: the memory (in any status), or None."""
        try:
            detail = await super().history(memory_id)
        except LookupError:
            return None
        (item,) = await self._items([(detail.fact, None)], {})
        item["evidence"] = [e.model_dump(mode="json") for e in detail.evidence]
        return item

    async def get_all(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        filters: Mapping[str, Any] | None = None,
        limit: int | None = None,
        top_k: int | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Mem0's ``get_all``: the owner's active memories (``{"results": [...]}``)."""
        owner = self._owner({"user_id": user_id, "agent_id": agent_id, "run_id": run_id}, filters)
        facts = await self.facts(user_id=_user_of(owner), **options)
        items = _kept(await self._items([(f, None) for f in facts], owner), filters, owner)
        return {"results": items[: _limit(limit, top_k)]}

    async def update(
        self,
        memory_id: str,
        data: str | None = None,
        *,
        text: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Mem0's ``update``: a correction (the new memory supersedes the old one, which
        stays in the history); ``metadata`` replaces the memory's metadata."""
        statement = text if text is not None else data
        if statement is None and metadata is None:
            raise ValueError("update: give the new text (data or text=) or metadata")
        new_id = memory_id
        if statement is not None:
            await self.correct(memory_id, statement, reason="updated")
            new_id = (await self._chain(memory_id))[-1].fact_id
        if metadata is not None:
            await self._notes().keep([new_id], metadata)
        return {"message": "Memory updated successfully!", "id": new_id}

    async def delete(self, memory_id: str) -> dict[str, Any]:
        """Mem0's ``delete``: a retraction (the memory is deleted, its evidence and
        history stay). To forget what was said, erase instead (docs/mem0.md)."""
        await self.retract(memory_id, reason="deleted")
        return {"message": DELETED}

    async def delete_all(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> dict[str, Any]:
        """Mem0's ``delete_all``, an erasure with its receipt: everything of the user, or
        of one run (``run_id``) or one agent (``agent_id``) of the user."""
        owner = self._owner({"user_id": user_id, "agent_id": agent_id, "run_id": run_id}, None)
        user = _user_of(owner)
        facts = await self.facts(user_id=user, every=True)
        if agent_id is not None and user_id is not None:
            agent = self._segment(agent_id)
            facts = [f for f in facts if f.scope.agent == agent]
        # first: the erasure's audit finds no trace of what it erases, these notes included
        await self._notes().forget(i for f in facts for i in (f.fact_id, *f.evidence_ids))
        if agent_id is not None and user_id is not None:
            ids = [e for f in facts for e in f.evidence_ids]
            receipt = await self.erase(user_id=user, evidence_ids=ids, reason="delete_all")
        elif run_id is not None and user_id is not None:
            receipt = await self.erase(user_id=user, session_id=run_id, reason="delete_all")
        else:
            receipt = await self.erase(user_id=user, reason="delete_all")
        return {"message": "Memories deleted successfully!", "receipt": _dumped(receipt)}

    async def reset(self) -> dict[str, Any]:
        """Mem0's ``reset``: every user of this memory's org/project erased (receipts)."""
        backend = await self.open()
        memory = getattr(backend, "memory", None)
        if memory is None:
            raise ValueError("reset: erase users one by one on a server (delete_all)")
        from provmem.services.erasure.scope import subjects_in

        receipts = []
        self._notes().clear()
        for scope in await subjects_in(memory, f"{self._org}/{self._project}"):
            receipt = await backend.erase(scope, {"subject": True, "reason": "reset"})
            receipts.append(_dumped(receipt))
        return {"message": "Memory reset successfully!", "receipts": receipts}

    async def history(self, memory_id: str) -> list[dict[str, Any]]:  # type: ignore[override]
        """Mem0's ``history``: the memory's changes, oldest first, each with
        ``old_memory``, ``new_memory`` and ``event`` (ADD, UPDATE, DELETE)."""
        chain = await self._chain(memory_id)
        changes: list[dict[str, Any]] = []
        for i, fact in enumerate(chain):
            old = chain[i - 1].statement if i else None
            changes.append(_change(memory_id, i, "UPDATE" if i else "ADD", old, fact))
        if chain[-1].status is FactStatus.DELETED:
            changes.append(_change(memory_id, len(chain), "DELETE", chain[-1].statement, None))
        return changes

    async def _chain(self, memory_id: str) -> list[Fact]:
        detail = await super().history(memory_id)
        chain = [*reversed(detail.supersedes), detail.fact]
        while chain[-1].superseded_by is not None:
            chain.append((await super().history(chain[-1].superseded_by)).fact)
        return chain

    def _segment(self, value: str) -> str:
        return id_segment(value, "agent_id")

    def _notes(self) -> Notes:
        backend = self._backend
        memory = getattr(backend, "memory", None)
        folder = None if memory is None else memory.components.settings.data_dir
        return Notes(folder)

    async def _items(
        self, facts: Iterable[tuple[Fact, str | None]], owner: Mapping[str, str]
    ) -> list[dict[str, Any]]:
        notes = self._notes()
        return [_item(fact, event, owner, notes.of(fact)) for fact, event in facts]


class Memory(facade.Memory):
    """:class:`provmem.Memory` answering Mem0's calls in Mem0's shapes (blocking)."""

    _async_class = AsyncMemory

    @classmethod
    def from_config(cls, config_dict: Mapping[str, Any]) -> Memory:
        """Mem0's ``from_config`` (see :meth:`AsyncMemory.from_config`)."""
        return cls(**_options(config_dict))

    add = facade._blocking("add", AsyncMemory)
    search = facade._blocking("search", AsyncMemory)
    history = facade._blocking("history", AsyncMemory)
    get = facade._blocking("get", AsyncMemory)
    get_all = facade._blocking("get_all", AsyncMemory)
    update = facade._blocking("update", AsyncMemory)
    delete = facade._blocking("delete", AsyncMemory)
    delete_all = facade._blocking("delete_all", AsyncMemory)
    reset = facade._blocking("reset", AsyncMemory)


class Notes:
    """Mem0 metadata of evidence and memories, in ``mem0-metadata.json`` of the data
    folder (local memory only: a server keeps none yet, and refuses it below)."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / "mem0-metadata.json"
        self.kept: dict[str, dict[str, Any]] = (
            json.loads(self.path.read_text()) if self.path and self.path.exists() else {}
        )

    async def keep(self, ids: Iterable[str], metadata: Mapping[str, Any] | None) -> None:
        if not metadata:
            return
        if self.path is None:
            raise ValueError("metadata: not kept by a provmem server yet (local memory only)")
        self.kept.update({i: dict(metadata) for i in ids})
        self._save()

    async def forget(self, ids: Iterable[str]) -> None:
        for i in ids:
            self.kept.pop(i, None)
        self._save()

    def clear(self) -> None:
        self.kept = {}
        self._save()

    def of(self, fact: Fact) -> dict[str, Any] | None:
        merged: dict[str, Any] = {}
        for key in (*fact.evidence_ids, fact.fact_id):
            merged.update(self.kept.get(key, {}))
        return merged or None

    def _save(self) -> None:
        if self.path is not None:
            self.path.write_text(json.dumps(self.kept))


def _options(config: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(config, Mapping):
        raise ValueError("config_dict: must be a dict")
    ours = {k: config[k] for k in ("path", "url", "api_key", "org", "project") if k in config}
    if "path" not in ours and "url" not in ours and os.environ.get("PROVMEM_DATA_DIR"):
        ours["path"] = os.environ["PROVMEM_DATA_DIR"]
    return ours


def _user_of(owner: Mapping[str, str]) -> str:
    """The provmem user a Mem0 call reaches: its user_id, else its agent's or run's."""
    return next(owner[key] for key in _IDS if key in owner)


def _limit(limit: int | None, top_k: int | None) -> int:
    if limit is not None and top_k is not None and limit != top_k:
        raise ValueError("limit: give limit (Mem0 1.x) or top_k (2.x), not both")
    value, field = (limit, "limit") if top_k is None else (top_k, "top_k")
    return DEFAULT_LIMIT if value is None else positive(value, field)


def _unit(score: float) -> float:
    return round(min(1.0, max(0.0, float(score))), 4)


def _changes(before: Mapping[str, Fact], after: Iterable[Fact]) -> list[tuple[Fact, str]]:
    made: list[tuple[Fact, str]] = []
    for fact in after:
        was = before.get(fact.fact_id)
        if was is None and fact.status is not FactStatus.SUPERSEDED:
            made.append((fact, "UPDATE" if fact.supersedes in before else "ADD"))
        elif was is not None and was.status is not fact.status:
            if fact.status is FactStatus.DELETED:
                made.append((fact, "DELETE"))
    return made


def _item(
    fact: Fact, event: str | None, owner: Mapping[str, str], metadata: dict[str, Any] | None
) -> dict[str, Any]:
    when = fact.last_verified_at.isoformat()
    item: dict[str, Any] = {
        "id": fact.fact_id,
        "memory": fact.statement,
        "hash": hashlib.md5(fact.statement.encode()).hexdigest(),  # noqa: S324 - Mem0's
        "metadata": metadata,
        "score": None,
        "created_at": (fact.valid_from or fact.last_verified_at).isoformat(),
        "updated_at": when,
        "user_id": owner.get("user_id", fact.scope.user),
    }
    for key, value in (("agent_id", fact.scope.agent), ("run_id", fact.scope.session)):
        asked = owner.get(key)
        if value is not None:  # the id as the caller gave it when it is this one
            item[key] = asked if asked and id_segment(asked, key) == value else value
    if event is not None:
        item["event"] = event
    item |= {
        "status": fact.status.value,
        "evidence_ids": list(fact.evidence_ids),
        "supersedes": fact.supersedes,
        "superseded_by": fact.superseded_by,
        "confidence": fact.confidence,
        "conflicts_with": list(fact.conflicts_with),
    }
    return item


def _kept(
    items: list[dict[str, Any]], filters: Mapping[str, Any] | None, owner: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The items matching Mem0's metadata ``filters`` (and the call's agent and run)."""
    wanted = {k: v for k, v in (filters or {}).items() if k not in _IDS}
    matches({}, wanted)  # a bad filter is an error even when nothing is there to filter
    return [item for item in items if _same_owner(item, owner) and matches(item, wanted)]


def _same_owner(item: Mapping[str, Any], owner: Mapping[str, str]) -> bool:
    for key in ("agent_id", "run_id"):
        if key in owner and owner.get("user_id") is not None:
            if id_segment(item.get(key) or "-", key) != id_segment(owner[key], key):
                return False
    return True


def matches(item: Mapping[str, Any], filters: Mapping[str, Any]) -> bool:
    """Mem0's metadata filters: ``{"key": value}``, ``{"key": {"gte": 3}}`` (eq, ne, in,
    nin, gt, gte, lt, lte, contains, icontains; ``"*"``: any value) and ``AND``, ``OR``,
    ``NOT`` over lists of filters.

    >>> matches({"metadata": {"n": 3}}, {"OR": [{"n": {"gt": 5}}, {"n": 3}]})
    True
    """
    for key, condition in filters.items():
        if key in ("AND", "OR", "NOT"):
            parts = [matches(item, part) for part in _clauses(key, condition)]
            if not {"AND": all(parts), "OR": any(parts), "NOT": not any(parts)}[key]:
                return False
        elif key in _IDS:
            continue
        elif not _holds(_value(item, key), condition, key):
            return False
    return True


def _clauses(key: str, condition: Any) -> list[Mapping[str, Any]]:
    parts = [condition] if isinstance(condition, Mapping) else condition
    if not isinstance(parts, list) or not all(isinstance(p, Mapping) for p in parts):
        raise ValueError(f"filters.{key}: must be a list of filters")
    return parts


def _value(item: Mapping[str, Any], key: str) -> Any:
    metadata = item.get("metadata") or {}
    return metadata[key] if key in metadata else item.get(key)


def _holds(value: Any, condition: Any, key: str) -> bool:
    if condition == "*":
        return value is not None
    if not isinstance(condition, Mapping):
        return bool(value == condition)
    return all(_compare(value, op, wanted, key) for op, wanted in condition.items())


def _compare(value: Any, op: str, wanted: Any, key: str) -> bool:
    if op not in _OPERATORS:
        known = ", ".join(_OPERATORS)
        raise ValueError(f"filters.{key}: unknown operator {op!r} (one of {known})")
    if op in ("eq", "ne"):
        return bool((value == wanted) == (op == "eq"))
    if op in ("in", "nin"):
        return bool((value in wanted) == (op == "in"))
    if op in ("contains", "icontains"):
        fold = str.lower if op == "icontains" else str
        return value is not None and fold(str(wanted)) in fold(str(value))
    if value is None:
        return False
    try:
        return bool(
            {"gt": value > wanted, "gte": value >= wanted, "lt": value < wanted}.get(
                op, value <= wanted
            )
        )
    except TypeError:
        return False


def _dumped(receipt: Any) -> dict[str, Any]:
    return receipt.model_dump(mode="json") if hasattr(receipt, "model_dump") else dict(receipt)


def _change(
    memory_id: str, step: int, event: str, old: str | None, fact: Fact | None
) -> dict[str, Any]:
    when: datetime | None = None if fact is None else fact.last_verified_at
    return {
        "id": f"{memory_id}:{step}",
        "memory_id": memory_id if fact is None else fact.fact_id,
        "old_memory": old,
        "new_memory": None if fact is None else fact.statement,
        "event": event,
        "created_at": None if when is None else when.isoformat(),
        "updated_at": None if when is None else when.isoformat(),
        "is_deleted": fact is None,
        "actor_id": None,
        "role": None if fact is None else fact.asserted_by,
    }


__all__ = ["AsyncMemory", "Memory", "matches"]
