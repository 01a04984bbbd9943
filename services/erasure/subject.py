"""Compliance erasure for the services: requests, and the Eraser over a process's components.

The Eraser and its steps are streams/erasure/eraser.py (the distributed runtime runs it in the
derive agent that owns the scope's partition); the routes of a request to it are
streams/erasure/requests.py. See core/erasure.py for why re-derivation makes every view
equal a fresh replay without the erased evidence.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial

from provmem.core.events import ErasureRequested, ErasureTarget
from provmem.core.scope import Scope
from provmem.services.memory.faults import fault_point
from provmem.streams.erasure.eraser import Eraser, Residue
from provmem.streams.erasure.ports import ErasureDeps, ErasureUnavailableError
from provmem.streams.erasure.requests import ErasureStage
from provmem.streams.runtime.components import Components
from provmem.streams.runtime.erasure import erasure_deps

__all__ = [
    "ErasureStage",
    "ErasureUnavailableError",
    "Residue",
    "deps_of",
    "eraser_for",
    "erasure_request",
]


def erasure_request(
    scope: str, evidence_ids: list[str], session: str | None, subject: bool, reason: str = ""
) -> ErasureRequested:
    """A request whose id follows from what it erases, so filing it twice is one erasure."""
    parsed = Scope.parse(scope)
    ids: tuple[str, ...]
    if subject:
        target, ids = ErasureTarget.SUBJECT, ()
    elif session is not None:
        target, ids = ErasureTarget.SESSION, (session,)
    else:
        target, ids = ErasureTarget.EVIDENCE, tuple(sorted(set(evidence_ids)))
    seed = "\x1f".join([parsed.key, target.value, *ids])
    request_id = "er_" + hashlib.sha256(seed.encode()).hexdigest()[:24]
    return ErasureRequested(
        request_id=request_id,
        scope=parsed,
        target=target,
        ids=ids,
        requested_at=datetime.now(UTC),
        reason=reason,
    )


def eraser_for(components: Components) -> Eraser:
    """The Eraser over one process's components: it runs requests where the gate state
    is in this process (embedded) and audits and reads receipts on either runtime."""
    return Eraser(deps_of(components))


def deps_of(components: Components) -> ErasureDeps:
    """The erasure's dependencies over this process's components: it derives inline."""
    runs = _runs(components)
    return erasure_deps(
        components,
        catch_up=runs,
        settle=lambda _partition: runs(),
        # PROVMEM_FAULT=erasure.before_receipt kills the process just before the receipt
        # is written (everything erased, nothing recorded)
        before_receipt=partial(fault_point, components.settings, "erasure.before_receipt"),
    )


def _runs(components: Components) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        await components.runner.run_until_idle()

    return run
