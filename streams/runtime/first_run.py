"""The embedded runtime's stores as a first run leaves them, built in a scratch folder: the
erasure's baseline (streams/erasure/baseline.py) reads what they say of their own."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from provmem.core.ports import Append, SparseVector, TopicConfig, VectorPoint

__all__ = ["first_run_stores"]


async def first_run_stores(
    folder: Path, topics: Sequence[TopicConfig], receipts: str, receipt: Append
) -> None:
    """Under ``folder``: the log with ``topics`` and one ``receipt`` on ``receipts``, the
    views, the API keys and a vector index holding one point, optimized (the adapters are
    imported here: an erasure needs them once per process)."""
    from provmem.infra.log.embedded import EmbeddedEventLog
    from provmem.infra.models.embedding import DIM
    from provmem.infra.stores.embedded import EmbeddedApiKeyStore, EmbeddedStores
    from provmem.infra.vectors.edge import EdgeVectorIndex

    log = EmbeddedEventLog(folder / "log.db")
    await log.ensure_topics(topics)
    await log.append(receipts, [receipt])
    await log.close()
    await EmbeddedStores(folder / "views.db").close()
    await EmbeddedApiKeyStore(folder / "api-keys.db").close()
    index = EdgeVectorIndex(folder / "vectors", DIM)
    sparse = SparseVector((1,), (1.0,))
    point = VectorPoint("fact_baseline", [1.0] * DIM, "o/p/u", "active", "", sparse, ("e",))
    await index.upsert([point])
    await index.optimize()
    await index.close()
