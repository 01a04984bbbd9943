"""An erasure's dependencies, composed in one place from what a process's composition root
holds (:class:`~provmem.streams.erasure.ports.ErasureParts`: the runtime's ``Components``, or
a faust worker's parts). The adapters' optional capabilities are asked of their types
here, once; the cascade and the audit use the ports they are given."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from provmem.core.ports import (
    EventLog,
    EvidenceStore,
    FactViews,
    PayloadIndex,
    PurgeableStore,
    VectorIndex,
)
from provmem.infra.crypto.envelope import master_key
from provmem.infra.vectors.sealed import SealedVectorIndex
from provmem.streams.erasure.ports import (
    Capabilities,
    CatchUp,
    CompactingLog,
    ErasureDeps,
    ErasureParts,
    Settle,
)
from provmem.streams.erasure.secrets import ErasureSecrets


def capabilities_of(
    log: EventLog, evidence: EvidenceStore, views: FactViews, vectors: VectorIndex | None
) -> Capabilities:
    """What these adapters offer beyond their ports. A sealed vector index is asked
    through to the index it wraps (sealing changes neither purging nor payloads)."""
    index = vectors.inner if isinstance(vectors, SealedVectorIndex) else vectors
    stores = [("vector_index", index), ("fact_views", views), ("evidence_store", evidence)]
    purgeable: list[tuple[str, PurgeableStore]] = []
    for name, store in [*stores, ("log", log)]:
        if isinstance(store, PurgeableStore):
            purgeable.append((name, store))
    return Capabilities(
        compacting=log if isinstance(log, CompactingLog) else None,
        purgeable=tuple(purgeable),
        payloads=index if isinstance(index, PayloadIndex) else None,
    )


def erasure_deps(
    parts: ErasureParts,
    *,
    catch_up: CatchUp | None = None,
    settle: Settle | None = None,
    before_receipt: Callable[[], None] | None = None,
) -> ErasureDeps:
    """An erasure's dependencies over a root's ``parts``, the one place they are composed;
    the root says how to catch up with the log, how to wait for the views and where the
    fault point before the receipt is (each left out: :class:`ErasureDeps`' default)."""
    p = parts
    deps = ErasureDeps(
        settings=p.settings,
        names=p.names,
        log=p.log,
        evidence=p.evidence,
        views=p.views,
        keys=p.keys,
        sealer=p.sealer,
        vectors=p.vectors,
        embedder=p.embedder,
        ledger=p.ledger,
        secrets=ErasureSecrets(master_key(p.settings)),
        state=p.state,
        deriver=p.deriver,
        elsewhere=p.elsewhere,
        capabilities=capabilities_of(p.log, p.evidence, p.views, p.vectors),
    )
    hooks = {"catch_up": catch_up, "settle": settle, "before_receipt": before_receipt}
    given: dict[str, Any] = {name: hook for name, hook in hooks.items() if hook is not None}
    return replace(deps, **given)
