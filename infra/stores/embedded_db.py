"""The embedded views' SQLite file: its schema, and the one connection its ports share.

The ports on it: infra/stores/embedded.py (evidence, processor state, data keys) and
infra/stores/embedded_views.py (fact views).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from provmem.infra.crypto.sealing import Bodies, ViewSealer
from provmem.infra.stores.sqlite import checkpoint, connect, scrubbed

_SCHEMA = """
CREATE TABLE IF NOT EXISTS evidence (
  evidence_id TEXT PRIMARY KEY, scope_key TEXT NOT NULL, source_uri TEXT NOT NULL,
  body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS evidence_by_source ON evidence (source_uri);
CREATE TABLE IF NOT EXISTS facts (
  fact_id TEXT PRIMARY KEY, scope_key TEXT NOT NULL, version INTEGER NOT NULL,
  status TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS facts_by_scope ON facts (scope_key);
CREATE TABLE IF NOT EXISTS fact_evidence (
  evidence_id TEXT NOT NULL, fact_id TEXT NOT NULL, PRIMARY KEY (evidence_id, fact_id));
CREATE INDEX IF NOT EXISTS fact_evidence_by_fact ON fact_evidence (fact_id);
CREATE TABLE IF NOT EXISTS fact_history (
  fact_id TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (fact_id, version));
CREATE TABLE IF NOT EXISTS fact_entities (
  scope_key TEXT NOT NULL, entity TEXT NOT NULL, fact_id TEXT NOT NULL,
  PRIMARY KEY (scope_key, entity, fact_id));
CREATE INDEX IF NOT EXISTS fact_entities_by_fact ON fact_entities (fact_id);
CREATE TABLE IF NOT EXISTS fact_slots (
  scope_key TEXT NOT NULL, slot TEXT NOT NULL, fact_id TEXT NOT NULL,
  PRIMARY KEY (scope_key, slot, fact_id));
CREATE INDEX IF NOT EXISTS fact_slots_by_fact ON fact_slots (fact_id);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS data_keys (key_id TEXT PRIMARY KEY, wrapped BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS publications (evidence_id TEXT PRIMARY KEY);
"""


class EmbeddedStores:
    """One SQLite file holding every embedded view; each port is a thin facade on it.

    With a ``sealer`` (every runtime wires one) bodies are sealed under the subject's
    data key and entity and slot index keys are keyed tags (infra/crypto/sealing.py)."""

    def __init__(self, path: Path, sealer: ViewSealer | None = None) -> None:
        self.path = path
        self.conn = connect(path, durable=False)
        self.conn.executescript(_SCHEMA)
        self.bodies = Bodies(sealer)

    def seal_with(self, sealer: ViewSealer) -> None:
        """Seal from now on (the sealer's key store may live in this very file)."""
        self.bodies.sealer = sealer

    async def purge(self) -> int:
        """Checkpoint and truncate the WAL (deleted rows are zeroed: secure_delete), so
        no page image from before an erasure stays on disk. 1 when done."""
        return int(checkpoint(self.conn))

    async def scrub(self, holds: Callable[[Path], bool]) -> bool:
        """Rewrite the file if a trace of an erasure survived the purge (sqlite_db.py)."""
        return scrubbed(self.conn, self.path, holds)

    async def close(self) -> None:
        self.conn.close()
