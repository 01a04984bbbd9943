"""Compacted topics carry a bound on their compaction; the key ring names its generations;
the audit tells residue from what awaits the broker's compaction."""

from __future__ import annotations

from provmem.core.events import ErasureCompleted
from provmem.infra.crypto.key_ring import generation_topics
from provmem.infra.log.kafka import topic_configs
from provmem.infra.residue import Hit
from provmem.services.cli.admin import _audit_status
from provmem.streams.erasure.audit import Residue
from provmem.streams.erasure.log_audit import Awaiting, LogAudit, _Found
from provmem.streams.topics import COMPACTION, DATA_KEYS, ERASURE_RECEIPTS, TURNS


def test_a_compacted_topic_is_created_with_its_compaction_bound() -> None:
    configs = topic_configs(TURNS.config("p"))
    assert configs == {
        "cleanup.policy": "compact",
        "max.compaction.lag.ms": "3600000",
        "segment.ms": "3600000",
        "min.cleanable.dirty.ratio": "0.1",
        "delete.retention.ms": "86400000",
    }
    assert COMPACTION.bound_ms == 2 * 3600 * 1000
    assert "max.compaction.lag.ms" not in topic_configs(ERASURE_RECEIPTS.config("p"))


def test_the_key_ring_generations_are_the_topic_and_its_numbered_successors() -> None:
    base = DATA_KEYS.name("p")
    topics = [base, f"{base}-g2", f"{base}-g10", f"{base}-gx", f"{base}-g0", "p.api-keys"]
    assert generation_topics(base, topics) == {0: base, 2: f"{base}-g2", 10: f"{base}-g10"}


def _hit(kind: str = "word", fingerprint: str = "f") -> Hit:
    return Hit("log:p.turns[0]@1", 0, kind, fingerprint)


def test_a_hit_in_a_superseded_record_awaits_compaction_and_is_no_residue() -> None:
    audit = LogAudit(hits=None, scope_key="o/p/u")  # type: ignore[arg-type]
    found = [_Found(True, [], [_hit()]), _Found(True, [], [_hit(), _hit()])]
    found += [_Found(False, [], [_hit()])]
    assert audit._tally(found) == 1  # the latest record's hit is residue
    assert audit.awaiting_compaction() == Awaiting(2, COMPACTION.bound_ms)


def test_allowed_hits_make_a_superseded_record_no_wait() -> None:
    audit = LogAudit(hits=None, scope_key="o/p/u", anywhere={"scope-word"})  # type: ignore[arg-type]
    audit.log_only = {"tombstone-key"}
    found = [_Found(True, [_hit("id", "tombstone-key")], [_hit("word", "scope-word")])]
    assert audit._tally(found) == 0
    assert audit.awaiting_compaction() == Awaiting(0, None)


def test_the_audit_status_names_what_awaits_compaction() -> None:
    assert _audit_status(Residue({"bytes_log": 0})) == "clean"
    waiting = Residue({"bytes_log": 0}, Awaiting(3, COMPACTION.bound_ms))
    assert _audit_status(waiting) == "awaiting broker compaction (3 records, bound 2 h)"
    assert _audit_status(Residue({"bytes_log": 2}, Awaiting(3, 1))) == "residue found (2)"


def test_a_v1_receipt_reads_as_v3_with_nothing_awaiting_nor_listed() -> None:
    v1 = {
        "schema_version": 1,
        "request_id": "er_1",
        "scope_key_hash": "h",
        "evidence_erased": 1,
        "facts_erased": 1,
        "facts_revalidated": 0,
        "removed_per_store": {},
        "seconds_to_receipt": 0.1,
        "residue_found": 0,
        "verified_by": "provmem-audit/2",
        "completed_at": "2026-05-08T13:56:00Z",
    }
    receipt = ErasureCompleted.model_validate(v1)
    assert receipt.schema_version == 3 and receipt.awaiting_compaction == 0
    assert receipt.compaction_bound_ms is None
    assert receipt.erased_evidence == [] and receipt.erased_facts == []
