"""Replay leases: one replay of a deployment at a time; and a folder's capture lock.

An exclusive ``flock`` on a lock file in the data folder (embedded), or a Redis key with
a 60 s expiry that the holder renews every 20 s (distributed: a crashed holder's lease
lapses by itself). Both raise :class:`LeaseHeldError` when another holder has it.
:func:`folder_lock` waits instead (the kernel drops a killed holder's ``flock``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

LEASE_S = 60


class LeaseHeldError(ValueError):
    """Another replay holds the lease; the message says who and what to do."""


@asynccontextmanager
async def file_lease(path: Path) -> AsyncIterator[None]:
    """Hold an exclusive lock on ``path`` while the block runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LeaseHeldError("another replay of this data folder is running") from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@asynccontextmanager
async def folder_lock(path: Path | None) -> AsyncIterator[None]:
    """Hold an exclusive lock on ``path`` while the block runs, waiting for it in a thread
    (``None``: no lock). Several processes on one data folder take turns so."""
    if path is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as lock:
        await asyncio.to_thread(fcntl.flock, lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@asynccontextmanager
async def redis_lease(redis_url: str, key: str, holder_id: str) -> AsyncIterator[None]:
    """Hold the Redis lease ``key`` as ``holder_id`` while the block runs."""
    from provmem.infra.stores.redis_client import redis_client, text_of

    client = redis_client(redis_url)
    try:
        if not await client.set(key, holder_id, nx=True, ex=LEASE_S):
            holder = await client.get(key)
            raise LeaseHeldError(
                f"replay {text_of(holder) if holder else '?'} is running on this deployment; "
                f"wait for it (a crashed run's lease lapses within {LEASE_S} s), then --resume"
            )
        async with _renewed(client, key, holder_id):
            yield
    finally:
        await client.aclose()


@asynccontextmanager
async def _renewed(client: Any, key: str, holder_id: str) -> AsyncIterator[None]:
    """While the block runs, renew the lease ``key`` held as ``holder_id``; then release
    it, if it is still ours."""
    renewer = asyncio.create_task(_renew(client, key, holder_id))
    try:
        yield
    finally:
        renewer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await renewer
        if await client.get(key) == holder_id.encode():
            await client.delete(key)


async def _renew(client: Any, key: str, holder_id: str) -> None:
    while True:
        await asyncio.sleep(LEASE_S / 3)
        if await client.get(key) == holder_id.encode():
            await client.expire(key, LEASE_S)


def redis_mutex(client: Any, key: str, wait_s: float = 120.0) -> Any:
    """A lock shared by every process of a deployment (the key ring's rewrites,
    infra/crypto/key_ring.py): a Redis key with a :data:`LEASE_S` expiry that its holder renews
    (a crashed holder's lapses by itself); a caller waits up to ``wait_s`` for it."""

    @asynccontextmanager
    async def held() -> AsyncIterator[None]:
        holder = os.urandom(8).hex()
        deadline = asyncio.get_running_loop().time() + wait_s
        while not await client.set(key, holder, nx=True, ex=LEASE_S):
            if asyncio.get_running_loop().time() > deadline:
                raise LeaseHeldError(f"{key}: still held after {wait_s:g} s")
            await asyncio.sleep(0.05)
        async with _renewed(client, key, holder):
            yield

    return held
