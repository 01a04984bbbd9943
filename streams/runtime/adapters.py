"""The one door from the rest of ``streams`` to ``infra``: the adapters' helpers and types
the stages and the erasure use, re-exported under their own names.

Stream modules outside ``streams/runtime/`` import nothing of ``provmem.infra`` directly
(an import-linter contract in pyproject.toml); what builds or talks to an adapter lives
in a module of this folder, and what the stages read of one comes through here:

- keys and sealing: the deployment's master key, the evidence sealer and key wrapper,
  the subjects' log keys and their rotation (infra/crypto/);
- the log's records: their sealing, raw reads and keyed record keys (infra/log/);
- sparse vectors: a fact's anchors in its sparse vector (infra/models/sparse.py);
- generations: which gate state and collection a worker starts on (infra/stores/);
- residue: the scanner of stores for an erased subject's marks, and the ledger's box
  (infra/residue.py).

It constructs nothing and imports nothing costly that its users did not import before.
"""

from __future__ import annotations

from provmem.infra.crypto.envelope import EvidenceSealer, KeyWrapper, master_key, subject_key_id
from provmem.infra.crypto.log_keys import Rotation, is_log_key_of
from provmem.infra.log.reads import ScopedReads, partition_records, scope_records
from provmem.infra.log.record_keys import PLAIN_KEYS, RecordKeys, is_keyed
from provmem.infra.log.sealed import (
    LogSealer,
    SealedLog,
    is_sealed,
    raw_log,
    record_keys,
    sealed_key_id,
)
from provmem.infra.models.sparse import anchor_vector, with_anchors
from provmem.infra.residue import (
    Common,
    ErasedMarks,
    Hit,
    ResidueScanner,
    audit_key,
    content_tokens,
    ledger_box,
    mark,
    marks_of,
)
from provmem.infra.stores.generations import Generation

__all__ = [
    "PLAIN_KEYS",
    "Common",
    "ErasedMarks",
    "EvidenceSealer",
    "Generation",
    "Hit",
    "KeyWrapper",
    "LogSealer",
    "RecordKeys",
    "ResidueScanner",
    "Rotation",
    "SealedLog",
    "anchor_vector",
    "audit_key",
    "content_tokens",
    "is_keyed",
    "is_log_key_of",
    "is_sealed",
    "ledger_box",
    "mark",
    "marks_of",
    "master_key",
    "partition_records",
    "scope_records",
    "ScopedReads",
    "raw_log",
    "record_keys",
    "sealed_key_id",
    "subject_key_id",
    "with_anchors",
]
