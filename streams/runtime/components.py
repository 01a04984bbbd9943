"""Pick the composition root ``settings.runtime`` names and build its components.

This is the one place that compares ``settings.runtime``: everything above asks the
chosen :class:`~.base.Runtime` (``components.runtime``) what differs between runtimes.
"""

from __future__ import annotations

from pathlib import Path

from provmem.config import Settings
from provmem.infra.stores.generations import Generation
from provmem.streams.runtime.base import Components, Runtime
from provmem.streams.runtime.embedded import EmbeddedRuntime
from provmem.streams.runtime.kafka import KafkaRuntime


def runtime_for(settings: Settings) -> Runtime:
    """The composition root of the runtime ``settings`` names."""
    if settings.runtime == "kafka":
        return KafkaRuntime(settings)
    return EmbeddedRuntime(settings)


async def build(settings: Settings, generation: Generation | None = None) -> Components:
    """Components of the runtime ``settings.runtime`` names, on the live generation of
    views (see infra/stores/generations.py) or on ``generation`` (a replay builds one)."""
    return await runtime_for(settings).build(generation)


def pointer_path(settings: Settings) -> Path:
    """The embedded runtime's generation pointer."""
    return EmbeddedRuntime(settings).pointer_path()


def view_groups(settings: Settings, generation: Generation) -> tuple[str, str]:
    """Consumer groups projecting fact changes and turns into a generation's views."""
    return runtime_for(settings).view_groups(generation)


__all__ = ["Components", "Runtime", "build", "pointer_path", "runtime_for", "view_groups"]
