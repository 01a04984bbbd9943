"""View generations: which namespace of views, vectors and gate state is live.

A replay builds its views into a *new generation* beside the live one, then switches
the generation pointer in one atomic write (a file rename on the embedded runtime, one
Redis ``SET`` on the distributed one). Bootstrap reads the pointer, so every process
built after the switch sees the new generation and none sees a mix.

Generation 0 is the layout before generations existed (``views.db`` tables, the
``vectors`` folder, ``gate|`` state keys, the plain Redis prefix); generation ``N`` puts
its fact views in ``views-gN.db`` (embedded) or under ``<redis prefix>:gN`` (Redis), its
vectors in ``vectors-gN`` / ``vectors-local-gN`` (or the Qdrant server collection
``<topic prefix>-facts-gN`` of its gate), and its gate state under ``gN/gate|``.
The gate has a generation of its own: a replay from fact changes rebuilds the views
only and keeps the live gate state; a replay from turns re-derives the gate state too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from provmem.core.events import Fact, FactChanged

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from provmem.infra.crypto.sealing import ViewSealer
    from provmem.infra.stores.redis_stores import RedisFactViews, RedisKeys


@dataclass(frozen=True)
class Generation:
    """The namespaces of one generation: ``views`` (facts view, vectors) and ``gate``."""

    views: int = 0
    gate: int = 0

    def suffix(self) -> str:
        """Folder and file suffix of the views: ``""`` for generation 0, else ``-gN``."""
        return "" if self.views == 0 else f"-g{self.views}"

    def redis_prefix(self, base: str) -> str:
        return base if self.views == 0 else f"{base}:g{self.views}"

    def gate_namespace(self) -> str:
        return "" if self.gate == 0 else f"g{self.gate}/"

    def views_group(self, base: str) -> str:
        """The consumer group that projects fact changes into this generation's views."""
        return base if self.views == 0 else f"{base}.g{self.views}"

    def derive_group(self, base: str) -> str:
        """The consumer group that derives turns with this generation's gate state."""
        return base if self.gate == 0 else f"{base}.g{self.gate}"

    def collection(self, base: str) -> str:
        """The Qdrant server collection of this generation's vectors. It follows the gate:
        a replay from fact changes re-writes the live collection's points (same ids and
        payloads), a replay from turns, whose facts may differ, writes one of its own."""
        return base if self.gate == 0 else f"{base}-g{self.gate}"


@dataclass(frozen=True)
class PendingReplay:
    """A replay under way: the generation it builds, so that a re-run can resume it."""

    job_id: str
    mode: str
    target: Generation
    scopes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PointerState:
    """What the pointer records: the live generation, a pending replay, and generations
    switched out whose data is still to be dropped."""

    live: Generation = Generation()
    pending: PendingReplay | None = None
    retired: tuple[Generation, ...] = ()
    last_number: int = 0

    def next_number(self) -> int:
        used = [self.last_number, self.live.views, self.live.gate]
        if self.pending is not None:
            used += [self.pending.target.views, self.pending.target.gate]
        used += [g.views for g in self.retired]
        return max(used) + 1

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, raw: str | bytes) -> PointerState:
        data = json.loads(raw)
        pending = data.get("pending")
        return cls(
            live=Generation(**data["live"]),
            pending=None
            if pending is None
            else PendingReplay(
                pending["job_id"],
                pending["mode"],
                Generation(**pending["target"]),
                tuple(pending.get("scopes", ())),
            ),
            retired=tuple(Generation(**g) for g in data.get("retired", ())),
            last_number=int(data.get("last_number", 0)),
        )

    def with_changes(self, **changes: Any) -> PointerState:
        return replace(self, **changes)


class GenerationPointer(Protocol):
    async def read(self) -> PointerState: ...

    async def write(self, state: PointerState) -> None:
        """Replace the pointer in one atomic step."""
        ...


@dataclass(frozen=True)
class FilePointer:
    """The embedded runtime's pointer: ``generation.json`` in the data folder."""

    path: Path

    async def read(self) -> PointerState:
        return read_file_pointer(self.path)

    async def write(self, state: PointerState) -> None:
        temporary = self.path.with_suffix(".json.tmp")
        temporary.parent.mkdir(parents=True, exist_ok=True)
        with temporary.open("w", encoding="utf-8") as out:
            out.write(state.to_json())
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, self.path)  # atomic on POSIX


def read_file_pointer(path: Path) -> PointerState:
    return PointerState.from_json(path.read_bytes()) if path.exists() else PointerState()


@dataclass(frozen=True)
class RedisPointer:
    """The distributed runtime's pointer: one Redis key under the deployment's prefix."""

    client: aioredis.Redis
    key: str

    async def read(self) -> PointerState:
        raw = await self.client.get(self.key)
        return PointerState() if raw is None else PointerState.from_json(raw)

    async def write(self, state: PointerState) -> None:
        await self.client.set(self.key, state.to_json())


def redis_pointer_key(redis_prefix: str) -> str:
    return f"{redis_prefix}:generation"


@dataclass
class FollowingFactViews:
    """Redis fact views of whichever generation the pointer names at each call.

    Workers and long-lived readers of the distributed runtime use it, so a replay's
    switch reaches them without a restart: a call starting after the switch reads and
    writes the new generation."""

    client: aioredis.Redis
    base_prefix: str
    sealer: ViewSealer | None = None
    _views: dict[int, RedisFactViews] = field(default_factory=dict)

    async def _current(self) -> RedisFactViews:
        from provmem.infra.stores.redis_stores import RedisFactViews, RedisKeys

        state = await RedisPointer(self.client, redis_pointer_key(self.base_prefix)).read()
        number = state.live.views
        if number not in self._views:
            keys: RedisKeys = RedisKeys(state.live.redis_prefix(self.base_prefix))
            self._views[number] = RedisFactViews(self.client, keys, self.sealer)
        return self._views[number]

    async def apply(self, change: FactChanged) -> bool:
        return await (await self._current()).apply(change)

    async def get(self, fact_id: str) -> Fact | None:
        return await (await self._current()).get(fact_id)

    async def get_many(self, fact_ids: Sequence[str]) -> dict[str, Fact]:
        return await (await self._current()).get_many(fact_ids)

    async def facts_in_scope(self, scope_key: str) -> list[Fact]:
        return await (await self._current()).facts_in_scope(scope_key)

    async def versions_under(self, prefix: str) -> dict[str, tuple[str, int]]:
        return await (await self._current()).versions_under(prefix)

    async def facts_for_evidence(self, evidence_id: str) -> list[str]:
        return await (await self._current()).facts_for_evidence(evidence_id)

    async def history(self, fact_id: str) -> list[Fact]:
        return await (await self._current()).history(fact_id)

    async def facts_for_entity(
        self, scope_key: str, entity: str, limit: int | None = None
    ) -> list[str]:
        return await (await self._current()).facts_for_entity(scope_key, entity, limit)

    async def facts_for_slot(self, scope_key: str, slot: str) -> list[str]:
        return await (await self._current()).facts_for_slot(scope_key, slot)

    async def apply_batch(self, changes: Sequence[FactChanged]) -> int:
        return await (await self._current()).apply_batch(changes)

    async def delete_scope(self, scope_key: str) -> int:
        return await (await self._current()).delete_scope(scope_key)

    async def close(self) -> None:
        """The client is closed by its owner."""
