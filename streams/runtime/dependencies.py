"""What a process of the distributed runtime depends on (the broker, Redis and, when set,
the Qdrant server), each with a call that fails when it is down: a worker's ``/health``
(streams/faust/health.py) and ``provmem worker`` at start-up check them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from provmem.config import Settings
from provmem.infra.log.kafka import KafkaEventLog
from provmem.infra.stores.redis_client import redis_client
from provmem.streams.topics import TopicNames

__all__ = ["dependency_checks"]


def dependency_checks(
    settings: Settings, create_topics: bool = False
) -> dict[str, tuple[str, Callable[[], Awaitable[Any]]]]:
    """Each dependency: its name in one line, and a call that fails when it is down. With
    ``create_topics`` (a worker starting) the broker check creates the topics too."""
    names = TopicNames(settings.topic_prefix)

    async def kafka() -> None:
        log = KafkaEventLog(settings.broker_url)
        try:
            if create_topics:
                await log.ensure_topics(names.configs(settings.partitions, key_ring=False))
            else:
                await log.partitions(names.turns)
        finally:
            await log.close()

    async def redis() -> None:
        client = redis_client(settings.redis_url)
        try:
            await client.ping()
        finally:
            await client.aclose()

    async def qdrant() -> None:
        from qdrant_client import AsyncQdrantClient

        if str(settings.qdrant_url).startswith("file:"):  # local mode: a folder, no server
            return
        client = AsyncQdrantClient(url=settings.qdrant_url)
        try:
            await client.get_collections()
        finally:
            await client.close()

    checks: dict[str, tuple[str, Callable[[], Awaitable[Any]]]] = {
        "kafka": (f"Kafka broker {settings.broker_url}", kafka),
        "redis": (f"Redis {settings.redis_url}", redis),
    }
    if settings.qdrant_url is not None:
        checks["qdrant"] = (f"Qdrant {settings.qdrant_url}", qdrant)
    return checks
