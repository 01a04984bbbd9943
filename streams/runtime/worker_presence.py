"""Which faust workers of a deployment are running, and the generation a worker starts on.

A worker derives with the gate state of the generation it read at start
(streams/faust/app.py). A replay from turns switches the gate state, so it must not run its
switch beside a running worker (services/replay/run.py refuses, naming the workers), and a
worker must not start on the old generation while such a replay is about to switch.

Each running worker holds a Redis key ``<redis prefix>:workers:<host>:<pid>`` ("pid N on
host H"), set before it reads the generation pointer, renewed while it runs
(:data:`PRESENCE_S` expiry: a killed worker's lapses by itself) and deleted when it stops.
A worker that finds a replay from turns pending under a held replay lease lets its key go
and waits for the replay to end, then starts on the pointer's live generation. So either
the replay sees the worker's key before its switch (and refuses), or the worker reads the
pointer after the switch.
"""

from __future__ import annotations

import asyncio
import os
import socket
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import structlog

from provmem.config import Settings
from provmem.infra.stores.generations import Generation, PointerState, RedisPointer
from provmem.infra.stores.generations import redis_pointer_key as pointer_key

if TYPE_CHECKING:
    import redis.asyncio as aioredis

#: A running worker's key lapses this long after its last renewal.
PRESENCE_S = 90
#: How often a running worker renews its key (streams/faust/app.py: a timer).
RENEW_S = 20.0
#: How often a starting worker looks again while a replay from turns runs.
WAIT_S = 1.0
log = structlog.get_logger(__name__)


def workers_pattern(redis_prefix: str) -> str:
    return f"{redis_prefix}:workers:*"


def replay_lease_key(redis_prefix: str) -> str:
    return f"{redis_prefix}:replay-lease"


@dataclass(frozen=True)
class WorkerPresence:
    """This worker's key: join (and learn the generation to start on), renew, leave."""

    settings: Settings
    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)

    @property
    def key(self) -> str:
        return f"{self.settings.redis_prefix}:workers:{self.host}:{self.pid}"

    @property
    def said(self) -> str:
        return f"pid {self.pid} on {self.host}"

    async def join(self) -> Generation:
        """Hold the key and return the live generation, once no replay from turns is
        about to switch it."""
        from provmem.infra.stores.redis_client import redis_client

        client = redis_client(self.settings.redis_url)
        try:
            while True:
                await self.renew(client)
                state = await RedisPointer(client, pointer_key(self.settings.redis_prefix)).read()
                if not await _rederiving(client, self.settings, state):
                    return state.live
                await client.delete(self.key)
                log.info("worker.waits_for_replay", job=state.pending and state.pending.job_id)
                await asyncio.sleep(WAIT_S)
        finally:
            await client.aclose()

    async def renew(self, client: aioredis.Redis) -> None:
        await client.set(self.key, self.said, ex=PRESENCE_S)

    async def refresh(self) -> None:
        """Renew the key (the running worker's timer, every :data:`RENEW_S`)."""
        from provmem.infra.stores.redis_client import redis_client

        client = redis_client(self.settings.redis_url)
        try:
            await self.renew(client)
        finally:
            await client.aclose()

    def leave(self) -> None:
        """Delete the key (at the worker's exit; a blocking call)."""
        import redis

        client = redis.Redis.from_url(self.settings.redis_url)
        try:
            client.delete(self.key)
        finally:
            client.close()


async def _rederiving(client: aioredis.Redis, settings: Settings, state: PointerState) -> bool:
    """Whether a replay from turns over the whole log is pending and its run holds the lease."""
    pending = state.pending
    if pending is None or pending.mode != "turns" or pending.scopes:
        return False
    return bool(await client.exists(replay_lease_key(settings.redis_prefix)))


async def running_workers(settings: Settings) -> list[str]:
    """The running workers of the deployment ("pid N on host H"), sorted."""
    from provmem.infra.stores.redis_client import redis_client, text_of

    client = redis_client(settings.redis_url)
    try:
        found = []
        async for key in client.scan_iter(match=workers_pattern(settings.redis_prefix)):
            value = await client.get(key)
            if value is not None:
                found.append(text_of(value))
        return sorted(found)
    finally:
        await client.aclose()
