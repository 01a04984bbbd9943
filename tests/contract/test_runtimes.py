"""The runtime contract: the same scenarios on the embedded runtime and on Kafka + faust."""

from __future__ import annotations

from provmem.core.events import FactStatus
from tests.harness import SCOPE, Runtime, said


async def _facts_count(runtime: Runtime, count: int, scope: str = SCOPE) -> bool:
    return len(await runtime.memory.facts(scope)) >= count


async def test_published_turns_become_queryable_facts_with_evidence(runtime: Runtime) -> None:
    results = await runtime.memory.publish(
        [
            said("t1", "I moved to Lisbon for a job at Tidewater Labs.", 0),
            said("t2", "My dog Biscuit loves the beach.", 1),
            said("t3", "I am allergic to peanuts.", 2),
        ]
    )
    assert [r.status for r in results] == ["accepted"] * 3
    await runtime.settle(lambda: _facts_count(runtime, 3))
    answer = await runtime.memory.query(SCOPE, "What is Alice allergic to?", limit=1)
    top = answer.bundles[0]
    assert "peanuts" in top.fact.statement
    assert top.evidence[0].evidence_id == results[2].evidence_id
    assert top.evidence[0].source_turn_id == "t3"
    assert top.evidence[0].quote == "I am allergic to peanuts."


async def test_identical_facts_give_one_add_and_one_noop(runtime: Runtime) -> None:
    await runtime.memory.publish(
        [said("t1", "I moved to Lisbon.", 0), said("t2", "I moved to Lisbon.", 1)]
    )

    async def corroborated() -> bool:
        facts = await runtime.memory.facts(SCOPE)
        return len(facts) == 1 and len(facts[0].evidence_ids) == 2

    await runtime.settle(corroborated)
    (fact,) = await runtime.memory.facts(SCOPE)
    assert fact.version == 2 and fact.status is FactStatus.ACTIVE


async def test_republishing_a_turn_is_a_duplicate(runtime: Runtime) -> None:
    first = await runtime.memory.publish([said("t1", "I moved to Lisbon.")])
    await runtime.settle(lambda: _facts_count(runtime, 1))
    again = await runtime.memory.publish([said("t1", "I moved to Lisbon.")])
    assert again[0].status == "duplicate"
    assert again[0].evidence_id == first[0].evidence_id


async def test_state_survives_a_restart(runtime: Runtime) -> None:
    await runtime.memory.publish([said("t1", "I moved to Lisbon.", 0)])
    await runtime.settle(lambda: _facts_count(runtime, 1))
    await runtime.restart()
    assert len(await runtime.memory.facts(SCOPE)) == 1
    await runtime.memory.publish(
        [said("t2", "I moved to Lisbon.", 1), said("t3", "I play the cello.", 2)]
    )

    async def gate_remembered() -> bool:
        facts = {f.statement: f for f in await runtime.memory.facts(SCOPE)}
        lisbon = facts.get("Alice moved to Lisbon.")
        return len(facts) == 2 and lisbon is not None and len(lisbon.evidence_ids) == 2

    await runtime.settle(gate_remembered)
    answer = await runtime.memory.query(SCOPE, "Which instrument does she play?", limit=1)
    assert "cello" in answer.bundles[0].fact.statement


async def test_scopes_are_isolated(runtime: Runtime) -> None:
    other = "acme/support/bob"
    await runtime.memory.publish(
        [said("t1", "I moved to Lisbon.", 0), said("t1", "I live in Oslo now.", 0, scope=other)]
    )
    await runtime.settle(lambda: _facts_count(runtime, 1, other))
    await runtime.settle(lambda: _facts_count(runtime, 1))
    answer = await runtime.memory.query(other, "Where does the user live?", limit=5)
    assert [h.fact.statement for h in answer.bundles if h.fact] == ["Alice lives in Oslo now."]
