"""The HTTP SDK, importable as ``provmem.client``: :class:`MemoryClient` (blocking) and
:class:`AsyncMemoryClient`, the service's result models, ``MemoryApiError``."""

from __future__ import annotations

from provmem.services.sdk.client import (
    AsyncMemoryClient,
    AsyncSubscription,
    MemoryApiError,
    MemoryClient,
    Subscription,
)

__all__ = [
    "AsyncMemoryClient",
    "AsyncSubscription",
    "MemoryApiError",
    "MemoryClient",
    "Subscription",
]
