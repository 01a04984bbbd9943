"""A log written before keyed record keys (raw evidence ids as the turns' keys) still
reads, deduplicates and erases, on both runtimes (docs/ARCHITECTURE.md, "What is sealed":
older logs). The turns are appended as the earlier version did: the value sealed at the
log boundary, the key the raw evidence id."""

from __future__ import annotations

from provmem.core.capture import TurnInput, record_turn
from provmem.core.ports import Append
from provmem.core.scope import partition_for
from provmem.infra.log.sealed import raw_log
from provmem.services.erasure.subject import erasure_request
from provmem.streams.topics import TURNS
from tests.harness import SCOPE, Runtime, said

PHONE = "My phone number is 5550142 and I live in Quetzalbrook."
KEPT = "I work at Initech in Springfield."


async def _append_as_before(runtime: Runtime, turns: list[dict[str, str]]) -> list[str]:
    """Append turns under their raw evidence ids (sealed values), as an older log holds."""
    components = runtime.memory.components
    partition = partition_for(SCOPE, components.settings.partitions)
    records, ids = [], []
    for raw in turns:
        turn = TurnInput.model_validate(raw)
        sealed, content_hash = await components.sealer.seal(turn.resolved_scope().key, turn.text)
        recorded = record_turn(turn, sealed, content_hash)
        value = TURNS.encode(recorded)
        envelope = await components.log.sealer.seal(  # type: ignore[attr-defined]
            components.names.turns, Append(partition, None, value)
        )
        records.append(Append(partition, recorded.evidence_id.encode(), envelope.value))
        ids.append(recorded.evidence_id)
    await raw_log(components.log).append(components.names.turns, records)
    return ids


async def _latest_under(runtime: Runtime, key: bytes) -> list[bytes | None]:
    """The values of the records the log keeps under ``key`` as stored (raw)."""
    components = runtime.memory.components
    partition = partition_for(SCOPE, components.settings.partitions)
    records = await raw_log(components.log).read(components.names.turns, partition, 0, 10_000)
    return [r.value for r in records if r.key == key]


async def test_an_older_log_with_raw_keys_reads_deduplicates_and_erases(runtime: Runtime) -> None:
    memory = runtime.memory
    turns = [said("a0", PHONE, 0), said("a1", KEPT, 1)]
    phone, _ = await _append_as_before(runtime, turns)

    async def derived() -> bool:
        return await runtime.caught_up() and len(await memory.facts(SCOPE)) >= 2

    await runtime.settle(derived)  # the stages read the raw-keyed turns
    again = await memory.publish(turns)
    assert [r.status for r in again] == ["duplicate", "duplicate"]  # found under raw keys

    facts = await memory.facts(SCOPE)
    gone = [f.fact_id for f in facts if set(f.evidence_ids) == {phone}]
    assert gone
    receipt = await runtime.erase(erasure_request(SCOPE, [phone], None, False))
    assert receipt.evidence_erased == 1
    remaining = {f.fact_id for f in await memory.facts(SCOPE)}
    assert remaining and not set(gone) & remaining
    kept = await _latest_under(runtime, phone.encode())
    if runtime.settings.runtime == "embedded":
        assert kept == []  # the raw-keyed record is deleted, no raw tombstone written
        assert receipt.residue_found == 0
    else:
        assert kept[-1] is None  # tombstoned under its raw key, for the broker's cleaner
