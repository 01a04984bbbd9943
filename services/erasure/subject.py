"""Compliance erasure for the services: requests, the cascade over a process's components,
and the stage that runs requests from the erasure-requests topic (embedded runtime).

The cascade itself is streams/erasure.py (the distributed runtime runs it in the derive
agent that owns the scope's partition). See core/erasure.py for why re-derivation makes
every view equal a fresh replay without the erased evidence.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import structlog

from ...core.events import ErasureRequested, ErasureTarget
from ...core.ports import LogRecord
from ...core.scope import Scope
from ...streams.erasure import Eraser as Cascade
from ...streams.erasure import ErasureDeps, ErasureUnavailableError, Residue
from ...streams.outcome import Outcome
from ...streams.runtime.components import Components
from ...streams.topics import ERASURE_REQUESTS
from ..memory.faults import fault_point

__all__ = [
    "Eraser",
    "ErasureStage",
    "ErasureUnavailableError",
    "Residue",
    "deps_of",
    "erasure_request",
]
log = structlog.get_logger(__name__)


def erasure_request(
    scope: str, evidence_ids: list[str], session: str | None, subject: bool, reason: str = ""
) -> ErasureRequested:
    """A request whose id follows from what it erases, so filing it twice is one erasure."""
    parsed = Scope.parse(scope)
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


class Eraser(Cascade):
    """The erasure cascade over one process's components: it runs requests where the
    gate state is in this process (embedded) and audits on either runtime."""

    def __init__(self, components: Components) -> None:
        super().__init__(deps_of(components))
        self._settings = components.settings

    async def _record(self, *args: Any, **kwargs: Any) -> None:
        """The receipt, written after verification; ``PROVMEM_FAULT=erasure.before_receipt``
        kills the process just before it (everything erased, nothing recorded)."""
        fault_point(self._settings, "erasure.before_receipt")
        await super()._record(*args, **kwargs)


def deps_of(components: Components) -> ErasureDeps:
    c = components
    return ErasureDeps(
        settings=c.settings,
        names=c.names,
        log=c.log,
        evidence=c.evidence,
        views=c.views,
        keys=c.keys,
        sealer=c.sealer,
        vectors=c.vectors,
        embedder=c.embedder,
        ledger=c.ledger,
        state=c.state,
        deriver=c.deriver,
        catch_up=_runs(c),
        settle=lambda _partition: _runs(c)(),
    )


def _runs(components: Components) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        await components.runner.run_until_idle()

    return run


class ErasureStage:
    """Erasure requests from the topic -> the cascade (each request once, by its id)."""

    def __init__(self, eraser: Eraser) -> None:
        self._eraser = eraser

    async def handle_batch(self, records: Sequence[LogRecord]) -> Outcome:
        for record in records:
            if record.value is None:
                continue
            try:
                request = ERASURE_REQUESTS.decode(record.value)
            except ValueError as error:
                log.warning("erasure.undecodable", offset=record.offset, reason=str(error))
                continue
            if isinstance(request, ErasureRequested):
                await self._eraser.erase(request)
        return Outcome()
