"""An erasure's residue scans of the servers' stores (Redis, a Qdrant server), each over a
client of its own, opened for the scan and closed after it (streams/erasure/residue.py)."""

from __future__ import annotations

from provmem.config import Settings
from provmem.infra.residue import Hit, ResidueScanner

__all__ = ["qdrant_hits", "redis_hits"]


async def redis_hits(scanner: ResidueScanner, settings: Settings) -> list[Hit]:
    """What ``scanner`` finds in the deployment's Redis keys."""
    from provmem.infra.stores.redis_client import redis_client

    client = redis_client(settings.redis_url)
    try:
        return await scanner.scan_redis(client, settings.redis_prefix)
    finally:
        await client.aclose()


async def qdrant_hits(scanner: ResidueScanner, settings: Settings) -> list[Hit]:
    """What ``scanner`` finds in the Qdrant server's fact collection."""
    from qdrant_client import AsyncQdrantClient

    client = AsyncQdrantClient(url=settings.qdrant_url)
    try:
        collection = f"{settings.topic_prefix}-facts"
        return await scanner.scan_qdrant(client, collection)
    finally:
        await client.close()
