"""Corrections and review decisions through the real pipeline, on both runtimes."""

from __future__ import annotations

from pathlib import Path

import pytest

from provmem.config import Settings
from provmem.core.events import Fact, FactStatus
from provmem.core.ports import Append
from provmem.services.erasure.subject import eraser_for, erasure_request
from provmem.services.memory.corrections import CorrectionRefusedError, ForeignScopeError
from tests.harness import SCOPE, Runtime, said

OTHER = "globex/support/bob"


async def _fact_where(runtime: Runtime, check: object) -> list[Fact]:
    """Settle until ``check(facts)`` holds, then return the scope's facts."""

    async def ready() -> bool:
        return await runtime.caught_up() and bool(check(await runtime.memory.facts(SCOPE)))  # type: ignore[operator]

    await runtime.settle(ready)
    return await runtime.memory.facts(SCOPE)


async def _paris(runtime: Runtime) -> Fact:
    await runtime.memory.publish([said("t1", "I live in Paris.")])
    (fact,) = await _fact_where(runtime, lambda facts: len(facts) == 1)
    return fact


async def _corrected(runtime: Runtime) -> tuple[Fact, Fact]:
    paris = await _paris(runtime)
    await runtime.memory.correct(
        paris.fact_id, "Alice lives in Lisbon.", by="Alice", reason="moved", scope=SCOPE
    )
    facts = await _fact_where(runtime, lambda facts: len(facts) == 2)
    new = next(f for f in facts if f.fact_id != paris.fact_id)
    old = next(f for f in facts if f.fact_id == paris.fact_id)
    return old, new


async def test_a_correction_supersedes_the_fact_with_its_own_evidence(runtime: Runtime) -> None:
    old, new = await _corrected(runtime)
    assert new.statement == "Alice lives in Lisbon." and new.status is FactStatus.ACTIVE
    assert new.supersedes == old.fact_id
    assert old.status is FactStatus.SUPERSEDED and old.superseded_by == new.fact_id
    answer = await runtime.memory.query(SCOPE, "Where does Alice live?", limit=5)
    top = answer.bundles[0]
    assert top.fact is not None and top.fact.fact_id == new.fact_id
    assert [h.fact_id for h in top.history] == [old.fact_id]
    detail = await runtime.memory.fact(new.fact_id)
    assert detail is not None
    (quote,) = detail.evidence
    assert quote.speaker == "Alice" and quote.quote == "Alice lives in Lisbon."
    assert quote.source_uri == "provmem:correct"


async def test_a_retraction_removes_the_fact_but_keeps_its_history(runtime: Runtime) -> None:
    paris = await _paris(runtime)
    await runtime.memory.retract(paris.fact_id, by="Alice", reason="never lived there")
    (gone,) = await _fact_where(runtime, lambda facts: facts[0].status is FactStatus.DELETED)
    assert gone.review_reason == "retracted by Alice: never lived there"
    answer = await runtime.memory.query(SCOPE, "Where does Alice live?", limit=5)
    assert all(b.fact is None or b.fact.fact_id != paris.fact_id for b in answer.bundles)
    detail = await runtime.memory.fact(paris.fact_id)
    assert detail is not None and [h.status for h in detail.history] == [
        FactStatus.ACTIVE,
        FactStatus.DELETED,
    ]
    assert detail.evidence[0].quote == "I live in Paris."  # the evidence is untouched


async def _in_review(runtime: Runtime) -> tuple[Fact, Fact]:
    """Paris, then a tentative move to Berlin: the move waits for review."""
    paris = await _paris(runtime)
    await runtime.memory.publish([said("t2", "I think I live in Berlin now.", minute=1)])
    facts = await _fact_where(runtime, lambda facts: len(facts) == 2)
    berlin = next(f for f in facts if f.fact_id != paris.fact_id)
    return paris, berlin


async def _where_alice_lives(runtime: Runtime) -> Fact | None:
    answer = await runtime.memory.query(SCOPE, "Where does Alice live?", limit=5)
    return answer.bundles[0].fact if answer.bundles else None


async def test_a_tentative_move_waits_in_the_review_queue(runtime: Runtime) -> None:
    paris, berlin = await _in_review(runtime)
    assert berlin.status is FactStatus.NEEDS_REVIEW
    assert berlin.review_reason == f"tentative ('i think') value would supersede {paris.fact_id}"
    (waiting,) = await runtime.memory.review_queue(SCOPE)
    assert waiting.fact.fact_id == berlin.fact_id
    assert waiting.evidence[0].quote == "I think I live in Berlin now."
    top = await _where_alice_lives(runtime)
    assert top is not None and top.fact_id == paris.fact_id  # the belief has not moved


async def test_approving_from_the_queue_supersedes_through_the_gate(runtime: Runtime) -> None:
    paris, berlin = await _in_review(runtime)
    await runtime.memory.approve(berlin.fact_id, by="ops", reason="confirmed by phone")
    facts = await _fact_where(
        runtime, lambda facts: any(f.status is FactStatus.SUPERSEDED for f in facts)
    )
    now = {f.fact_id: f for f in facts}
    assert now[berlin.fact_id].status is FactStatus.ACTIVE
    assert now[berlin.fact_id].supersedes == paris.fact_id
    assert now[paris.fact_id].superseded_by == berlin.fact_id
    assert await runtime.memory.review_queue(SCOPE) == []
    answer = await runtime.memory.query(SCOPE, "Where does Alice live?", limit=5)
    top = answer.bundles[0]
    assert top.fact is not None and top.fact.fact_id == berlin.fact_id
    assert [h.fact_id for h in top.history] == [paris.fact_id]


async def test_rejecting_from_the_queue_deletes_with_the_reason(runtime: Runtime) -> None:
    paris, berlin = await _in_review(runtime)
    await runtime.memory.reject(berlin.fact_id, by="ops", reason="she was joking")
    facts = await _fact_where(
        runtime, lambda facts: any(f.status is FactStatus.DELETED for f in facts)
    )
    now = {f.fact_id: f for f in facts}
    assert now[berlin.fact_id].review_reason == "rejected by ops: she was joking"
    assert now[paris.fact_id].status is FactStatus.ACTIVE
    assert await runtime.memory.review_queue(SCOPE) == []
    top = await _where_alice_lives(runtime)
    assert top is not None and top.fact_id == paris.fact_id


async def test_review_decisions_are_refused_on_facts_not_in_review(runtime: Runtime) -> None:
    paris = await _paris(runtime)
    with pytest.raises(CorrectionRefusedError, match="needs-review"):
        await runtime.memory.approve(paris.fact_id, by="ops")
    with pytest.raises(CorrectionRefusedError, match="needs-review"):
        await runtime.memory.reject(paris.fact_id, by="ops", reason="no")
    with pytest.raises(CorrectionRefusedError, match="must not be empty"):
        await runtime.memory.correct(paris.fact_id, "  ", by="Alice")
    with pytest.raises(LookupError):
        await runtime.memory.retract("fact_missing", by="Alice", reason="x")
    assert await runtime.memory.review_queue(SCOPE) == []


async def test_a_cross_tenant_correction_is_refused(runtime: Runtime) -> None:
    paris = await _paris(runtime)
    with pytest.raises(ForeignScopeError, match="another tenant"):
        await runtime.memory.correct(paris.fact_id, "Bob lives in Rome.", by="Bob", scope=OTHER)
    with pytest.raises(ForeignScopeError):
        await runtime.memory.retract(paris.fact_id, by="Bob", reason="x", scope=OTHER)
    (fact,) = await runtime.memory.facts(SCOPE)
    assert fact == paris


async def test_corrections_and_reviews_survive_a_replay_of_the_log(
    embedded_settings: Settings, tmp_path: Path
) -> None:
    first = await Runtime(embedded_settings, tmp_path).start()
    try:
        old, new = await _corrected(first)
        await first.memory.publish([said("t2", "I love jazz.", minute=1)])
        jazz = next(
            f for f in await _fact_where(first, lambda f: len(f) == 3) if "jazz" in f.statement
        )
        await first.memory.retract(jazz.fact_id, by="Alice", reason="I don't")
        await _fact_where(first, lambda f: any(x.status is FactStatus.DELETED for x in f))
        await _review_both_ways(first)
        replayed = await _replay(first, tmp_path / "replay")
        original = await first.memory.facts(SCOPE)
        assert [f.model_dump() for f in replayed] == [f.model_dump() for f in original]
    finally:
        await first.stop()


async def _review_both_ways(runtime: Runtime) -> None:
    """A tentative move approved, then a tentative claim rejected."""
    turns = [
        said("t3", "I think I live in Berlin now.", minute=2),
        said("t4", "I heard that Bob lives in Rome.", minute=3),
        said("t5", "Maybe Bob lives in Oslo.", minute=4),
    ]
    await runtime.memory.publish(turns)

    def waiting(facts: list[Fact]) -> list[Fact]:
        return [f for f in facts if f.status is FactStatus.NEEDS_REVIEW]

    berlin, oslo = waiting(await _fact_where(runtime, lambda f: len(waiting(f)) == 2))
    await runtime.memory.approve(berlin.fact_id, by="ops")
    await runtime.memory.reject(oslo.fact_id, by="ops", reason="a guess")
    await _fact_where(runtime, lambda f: not waiting(f))


async def _replay(source: Runtime, folder: Path) -> list[Fact]:
    """A fresh embedded runtime (same master and data keys) fed the same turns log."""
    master = (source.settings.data_dir / "master.key").read_text().strip()
    settings = source.settings.model_copy(update={"data_dir": folder, "master_key": master})
    fresh = await Runtime(Settings(**settings.model_dump()), folder).start()
    try:
        have, want = source.memory.components, fresh.memory.components
        for key_id in await have.keys.key_ids():
            wrapped = await have.keys.get(key_id)
            assert wrapped is not None
            await want.keys.put_if_absent(key_id, wrapped)
        topic = have.names.turns
        for partition in range(await have.log.partitions(topic)):
            records = await have.log.read(topic, partition, 0, 10_000)
            copies = [Append(partition, r.key, r.value) for r in records]
            if copies:
                await want.log.append(want.names.turns, copies)
        await fresh.memory.sync()
        return await fresh.memory.facts(SCOPE)
    finally:
        await fresh.stop()


async def test_a_correction_of_an_erased_fact_goes_with_the_erasure(runtime: Runtime) -> None:
    """A session erasure that takes a fact takes the corrections of it too: they act on
    nothing now, and each names the erased fact's id (the receipt said residue 1 and
    `provmem erase` exited 1 before, the correction left behind)."""
    old, new = await _corrected(runtime)  # Paris said in session s1, corrected to Lisbon
    await runtime.memory.publish([said("t9", "I work at Initech.") | {"session": "s2"}])
    await _fact_where(runtime, lambda facts: len(facts) == 3)

    request = erasure_request(SCOPE, [], "s1", False)
    receipt = await runtime.erase(request)

    assert receipt.residue_found == 0 and receipt.evidence_erased == 2, receipt
    audit = await eraser_for(runtime.memory.components).audit(request.request_id)
    assert audit.total == 0, audit.found
    facts = await runtime.memory.facts(SCOPE)
    assert [f.statement for f in facts] == ["Alice works at Initech."]
    assert await runtime.memory.fact(new.fact_id) is None
