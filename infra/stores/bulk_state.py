"""A plain :class:`~provmem.core.ports.StateStore` seen as a
:class:`~provmem.core.ports.BulkStateStore`: the bulk reads and the swap run key by key
(no transaction), for stores without a bulk query of their own (a faust table)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from provmem.core.ports import StateStore


@dataclass(frozen=True)
class PerKeyBulkState:
    """The bulk methods of ``inner``, one key at a time."""

    inner: StateStore

    async def load(self, key: str) -> bytes | None:
        return await self.inner.load(key)

    async def save(self, key: str, value: bytes) -> None:
        await self.inner.save(key, value)

    async def delete(self, key: str) -> None:
        await self.inner.delete(key)

    async def load_many(self, keys: Sequence[str]) -> dict[str, bytes]:
        found = {key: await self.inner.load(key) for key in keys}
        return {key: raw for key, raw in found.items() if raw is not None}

    async def load_fields_many(
        self, keys: Sequence[str], paths: Sequence[str]
    ) -> dict[str, tuple[object, ...]]:
        values = await self.load_many(keys)
        return {key: tuple(json_path(raw, path) for path in paths) for key, raw in values.items()}

    async def replace_many(self, deletes: Sequence[str], saves: Mapping[str, bytes]) -> None:
        for key in deletes:
            await self.inner.delete(key)
        for key, value in saves.items():
            await self.inner.save(key, value)


def json_path(raw: bytes, path: str) -> object:
    """``$.a.b`` of a JSON value; objects come back as compact JSON text (as SQLite's
    ``json_extract`` gives them)."""
    value: Any = json.loads(raw)
    for part in path.removeprefix("$.").split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return json.dumps(value, separators=(",", ":")) if isinstance(value, dict | list) else value
