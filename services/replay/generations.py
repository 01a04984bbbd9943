"""Where generations live, and how a replay finds, retires and drops them.

The pointer (infra/stores/generations.py) is a file on the embedded runtime and a Redis key on
the distributed one. Dropping a generation deletes its fact views (a ``views-gN.db`` file,
or the fact tables of ``views.db`` for generation 0; the ``<prefix>:gN:*`` Redis keys, or
the fact-view key families of the plain prefix for generation 0), its vector folder and,
unless the live generation shares it, its gate state. Evidence, data keys, publication
claims and the erasure ledger are not views of a generation and are never dropped.

A lease keeps replays of one deployment apart (a run without ``resume`` discards the
pending generation, which another run may be building): infra/stores/leases.py. What differs
between the runtimes is the root's to say (streams/runtime/: ``Runtime``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import structlog

from provmem.config import Settings
from provmem.infra.stores.generations import Generation, GenerationPointer, PointerState
from provmem.infra.stores.leases import LeaseHeldError
from provmem.streams.runtime.components import runtime_for
from provmem.streams.runtime.generations import drop_generation

log = structlog.get_logger(__name__)


class ReplayError(ValueError):
    """A replay that cannot run as asked; the message says why and what to do."""


@asynccontextmanager
async def replay_lease(settings: Settings, job_id: str) -> AsyncIterator[None]:
    """Hold the deployment's replay lease while the block runs, or raise ReplayError."""
    async with AsyncExitStack() as stack:
        try:
            await stack.enter_async_context(runtime_for(settings).replay_lease(job_id))
        except LeaseHeldError as error:
            raise ReplayError(str(error)) from None
        yield


def replay_state_path(settings: Settings, generation: Generation) -> Path:
    return settings.data_dir / f"replay{generation.suffix()}.db"


async def open_pointer(settings: Settings, stack: AsyncExitStack) -> GenerationPointer:
    return await runtime_for(settings).open_pointer(stack)


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
