"""Where generations live, and how a replay finds, retires and drops them.

The pointer (infra/generations.py) is a file on the embedded runtime and a Redis key on
the distributed one. Dropping a generation deletes its fact views (a ``views-gN.db`` file,
or the fact tables of ``views.db`` for generation 0; the ``<prefix>:gN:*`` Redis keys, or
the fact-view key families of the plain prefix for generation 0), its vector folder and,
unless the live generation shares it, its gate state. Evidence, data keys, publication
claims and the erasure ledger are not views of a generation and are never dropped.

A lease keeps replays of one deployment apart (a run without ``resume`` discards the
pending generation, which another run may be building): an exclusive ``flock`` on
``replay.lock`` in the data folder, or a Redis key with a 60 s expiry that the holder
renews every 20 s (a crashed holder's lease lapses by itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import shutil
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import structlog

from ...infra.generations import (
    FilePointer,
    Generation,
    GenerationPointer,
    PointerState,
    RedisPointer,
    redis_pointer_key,
)
from ...infra.settings import Settings
from ...streams.runtime.components import pointer_path

log = structlog.get_logger(__name__)
LEASE_S = 60


class ReplayError(ValueError):
    """A replay that cannot run as asked; the message says why and what to do."""


@asynccontextmanager
async def replay_lease(settings: Settings, job_id: str) -> AsyncIterator[None]:
    """Hold the deployment's replay lease while the block runs, or raise ReplayError."""
    if settings.runtime == "kafka":
        async with _redis_lease(settings, job_id):
            yield
        return
    path = settings.data_dir / "replay.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ReplayError("another replay of this data folder is running") from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@asynccontextmanager
async def _redis_lease(settings: Settings, job_id: str) -> AsyncIterator[None]:
    from ...infra.redis_client import redis_client

    client, key = redis_client(settings.redis_url), f"{settings.redis_prefix}:replay-lease"
    try:
        if not await client.set(key, job_id, nx=True, ex=LEASE_S):
            holder = await client.get(key)
            raise ReplayError(
                f"replay {holder.decode() if holder else '?'} is running on this deployment; "
                f"wait for it (a crashed run's lease lapses within {LEASE_S} s), then --resume"
            )
        renewer = asyncio.create_task(_renew(client, key, job_id))
        try:
            yield
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
            if await client.get(key) == job_id.encode():
                await client.delete(key)
    finally:
        await client.aclose()


async def _renew(client: object, key: str, job_id: str) -> None:
    while True:
        await asyncio.sleep(LEASE_S / 3)
        if await client.get(key) == job_id.encode():  # type: ignore[attr-defined]
            await client.expire(key, LEASE_S)  # type: ignore[attr-defined]


def replay_state_path(settings: Settings, generation: Generation) -> Path:
    return settings.data_dir / f"replay{generation.suffix()}.db"


async def open_pointer(settings: Settings, stack: AsyncExitStack) -> GenerationPointer:
    if settings.runtime != "kafka":
        return FilePointer(pointer_path(settings))
    from ...infra.redis_client import redis_client

    client = redis_client(settings.redis_url)
    stack.push_async_callback(client.aclose)
    return RedisPointer(client, redis_pointer_key(settings.redis_prefix))


async def without_retired(
    settings: Settings, pointer: GenerationPointer, state: PointerState
) -> PointerState:
    """Drop generations an earlier switch retired (their processes have let go)."""
    if not state.retired:
        return state
    for generation in state.retired:
        if generation != state.live:
            await drop_generation(settings, generation, keep_gate=state.live.gate)
    state = state.with_changes(retired=())
    await pointer.write(state)
    return state


async def retire_generations(settings: Settings) -> None:
    """Drop the generations a switch retired; call once no component holds them open."""
    async with AsyncExitStack() as stack:
        pointer = await open_pointer(settings, stack)
        await without_retired(settings, pointer, await pointer.read())


async def drop_generation(settings: Settings, generation: Generation, keep_gate: int) -> None:
    """Delete a generation's views, vectors and (unless live) gate state."""
    if settings.runtime == "kafka":
        await _drop_redis_views(settings, generation)
        shutil.rmtree(settings.data_dir / f"vectors-local{generation.suffix()}", True)
    else:
        _drop_embedded_views(settings, generation)
        shutil.rmtree(settings.data_dir / f"vectors{generation.suffix()}", True)
    if generation.gate != keep_gate:
        await _drop_gate_state(settings, generation)
    log.info("replay.dropped", views=generation.views, gate=generation.gate)


_FACT_TABLES = ("facts", "fact_evidence", "fact_history", "fact_entities", "fact_slots")


def _drop_embedded_views(settings: Settings, generation: Generation) -> None:
    from ...infra.sqlite_db import connect

    if generation.views:
        for suffix in ("", "-wal", "-shm"):
            (settings.data_dir / f"views{generation.suffix()}.db{suffix}").unlink(True)
        return
    conn = connect(settings.data_dir / "views.db", durable=False)
    try:
        with conn:
            for table in _FACT_TABLES:
                conn.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed table names
    finally:
        conn.close()


async def _drop_gate_state(settings: Settings, generation: Generation) -> None:
    from ...infra.embedded_stores import EmbeddedStateStore, EmbeddedStores

    if settings.runtime == "kafka":
        for suffix in ("", "-wal", "-shm"):
            (settings.data_dir / f"replay{generation.suffix()}.db{suffix}").unlink(True)
        return
    stores = EmbeddedStores(settings.data_dir / "views.db")
    try:
        state = EmbeddedStateStore(stores)
        for key in await state.keys_with_prefix(generation.gate_namespace() + "gate|"):
            await state.delete(key)
    finally:
        await stores.close()


async def _drop_redis_views(settings: Settings, generation: Generation) -> None:
    from ...infra.redis_client import redis_client

    prefix = generation.redis_prefix(settings.redis_prefix)
    families = ["*"] if generation.views else _REDIS_FACT_FAMILIES
    client = redis_client(settings.redis_url)
    try:
        for family in families:
            async for key in client.scan_iter(match=f"{prefix}:{family}", count=500):
                await client.delete(key)
    finally:
        await client.aclose()


#: The fact-view key families of infra/redis_stores.py (generation 0 shares its prefix
#: with evidence and data keys, which a replay never drops).
_REDIS_FACT_FAMILIES = ["fact:*", "scope:*:facts", "evfacts:*", "history:*", "entity:*", "slot:*"]
