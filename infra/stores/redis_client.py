"""One way to open a Redis client: reconnecting, with retries on a dropped connection.

Redis is a view store here and may restart (empty) under a running process; a pooled
connection then fails once with "connection closed". Commands are retried on a new
connection with exponential backoff instead of failing the caller.
"""

from __future__ import annotations

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

_RETRIES = 5


def redis_client(url: str) -> aioredis.Redis:
    """A client for ``url`` that retries a command on a dropped or refused connection."""
    return aioredis.Redis.from_url(
        url,
        retry=Retry(ExponentialBackoff(cap=2.0, base=0.05), _RETRIES),
        retry_on_error=[RedisConnectionError, RedisTimeoutError, ConnectionResetError],
        health_check_interval=30,
    )


def text_of(reply: object) -> str:
    """A Redis reply as text: the client answers bytes (``decode_responses`` is off)."""
    return reply.decode() if isinstance(reply, bytes) else str(reply)


def bytes_of(reply: object) -> bytes:
    """A Redis reply as bytes (a str reply, which this client does not give, encoded)."""
    if isinstance(reply, bytes | bytearray | memoryview):
        return bytes(reply)
    return str(reply).encode()
