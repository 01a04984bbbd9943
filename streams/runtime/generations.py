"""Generations beside the live one: dropping one, and the pending one an erasure discards.

A replay builds its pending generation from the log as it reads it (services/replay/). An
erasure's cascade reaches the live generation only, so the pending one, built before the
erasure, may hold copies of what it erased (its own views, vector folder or gate state);
a killed replay leaves it until it is resumed or discarded. So an erasure discards the
pending generation first (:func:`discard_pending`): its views go at once, its vector
folder too unless a replay still has it open; a replay still running finds its generation
gone at its switch, refuses it (run it again) and drops what is left; an interrupted
one's ``--resume`` starts anew.
"""

from __future__ import annotations

from contextlib import AsyncExitStack

import structlog

from provmem.config import Settings
from provmem.infra.models.embedding import DIM as EMBEDDING_DIM
from provmem.infra.stores.generations import Generation, PendingReplay
from provmem.infra.vectors.edge import shard_in_use
from provmem.streams.runtime.components import runtime_for

log = structlog.get_logger(__name__)


async def drop_generation(settings: Settings, generation: Generation, keep_gate: int) -> None:
    """Delete a generation's views, vectors and (unless live) gate state."""
    runtime = runtime_for(settings)
    await runtime.drop_views(generation)
    if generation.gate != keep_gate:
        await runtime.drop_gate_state(generation)
    log.info("replay.dropped", views=generation.views, gate=generation.gate)


async def discard_pending(settings: Settings, cause: str) -> PendingReplay | None:
    """Take the pending generation out of the pointer (into the retired ones, which the
    next replay drops), then drop its views and, when no process has it open, its local
    vector folder (a replay still running drops it when it stops: see the module
    docstring); the replay it was, if any."""
    runtime = runtime_for(settings)
    async with AsyncExitStack() as stack:
        pointer = await runtime.open_pointer(stack)
        state = await pointer.read()
        pending = state.pending
        if pending is None:
            return None
        retired = (*state.retired, pending.target)
        await pointer.write(state.with_changes(pending=None, retired=retired))
    folder = runtime.vectors_folder(pending.target)
    free = not shard_in_use(folder, EMBEDDING_DIM)
    await runtime.drop_views(pending.target, vectors=free)
    log.warning(
        "replay.discarded",
        job=pending.job_id,
        generation=pending.target.views,
        vectors_dropped=free,
        cause=cause,
    )
    return pending
