"""The stores' own words: a baseline scan of a fresh data folder of this version.

A residue finding must mean content of the erased subject and nothing else. Before
(issue 30, item 3) a mark of a common word met the stores' own text: SQLite schema
("offsets", "topics", "publications"), the vector index's config ("size", "distance",
"mode", ``"payload_memory":"cold"``), an earlier receipt's field names. So no mark is
made of what a fresh data folder of this version already says: its stores are built in
a scratch folder (the log with its topics and a receipt, the views, the API keys, a
vector index holding one point, optimized and purged), every run of text in its files
is read, and so are the event schemas' field names and enum values. What they say is
:class:`~provmem.infra.residue.Common`, subtracted from the marks.

Built once per process and topic layout (it depends on the installed version only),
in a scratch folder no connection holds once it is read (so it is read here).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from provmem.config import Settings
from provmem.core.events import ErasureCompleted
from provmem.streams.runtime.adapters import Common
from provmem.streams.runtime.first_run import first_run_stores
from provmem.streams.topics import ERASURE_RECEIPTS, TopicNames

__all__ = ["common_words"]

_BUILT: dict[tuple[str, int], Common] = {}  # a memo of a pure function of the version
#: What a receipt counts per store and an audit per place (their keys are text on the
#: erasure-receipts topic and in the ledger).
_COUNTED = (
    "evidence_store fact_views vector_index log log_records_compacted log_keys data_keys "
    "embedding_cache gate_state bytes_files bytes_redis bytes_qdrant bytes_log "
    "log_data_keys awaiting_compaction verification fingerprint_scheme residue"
)


async def common_words(settings: Settings) -> Common:
    """What the stores of this version say of their own, for ``settings``' topics."""
    shape = (settings.topic_prefix, settings.partitions)
    if shape not in _BUILT:  # two erasures at once may both build it: the same result
        _BUILT[shape] = await _baseline(settings)
    return _BUILT[shape]


async def _baseline(settings: Settings) -> Common:
    with tempfile.TemporaryDirectory(prefix="provmem-baseline-") as scratch:
        folder = Path(scratch)
        await _fresh_stores(folder, settings)
        found = _files_under(folder)
    return found | Common.of_texts([*_schema_words(), _COUNTED])


async def _fresh_stores(folder: Path, settings: Settings) -> None:
    """The stores of a data folder, as a first run of this version leaves them."""
    names = TopicNames(settings.topic_prefix)
    receipt = ERASURE_RECEIPTS.record(0, _receipt())
    await first_run_stores(
        folder, names.configs(settings.partitions), names.erasure_receipts, receipt
    )


def _receipt() -> ErasureCompleted:
    return ErasureCompleted(
        request_id="er_baseline",
        scope_key_hash="0" * 32,
        evidence_erased=1,
        facts_erased=1,
        facts_revalidated=0,
        removed_per_store=dict.fromkeys(_COUNTED.split(), 0),
        seconds_to_receipt=0.0,
        residue_found=0,
        verified_by="provmem-audit",
        completed_at=datetime.now(UTC),
    )


def _files_under(folder: Path) -> Common:
    """The words and spans of every file under the scratch folder, as a scan reads them."""
    found = Common()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        found = found | Common.of_bytes(path.read_bytes())
    return found


def _schema_words() -> Iterator[str]:
    """The field names and enum values of every event schema (not their prose)."""
    root = resources.files("provmem.schemas")
    for event in root.iterdir():
        if not event.is_dir():
            continue
        for schema in event.iterdir():
            if schema.name.endswith(".schema.json"):
                yield from _names_in(json.loads(schema.read_text(encoding="utf-8")))


def _names_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            if key in ("enum", "const"):
                yield from (str(v) for v in (inner if isinstance(inner, list) else [inner]))
            else:
                yield from _names_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _names_in(inner)
