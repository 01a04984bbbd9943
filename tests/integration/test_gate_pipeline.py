"""The write gate through the real pipeline, model and stores, on both runtimes."""

from __future__ import annotations

from provmem.core.events import FactStatus
from provmem.core.ports import Append
from tests.harness import SCOPE, Runtime, said


async def _settled(runtime: Runtime, count: int) -> None:
    async def ready() -> bool:
        return await runtime.caught_up() and len(await runtime.memory.facts(SCOPE)) >= count

    await runtime.settle(ready)


async def test_a_paraphrase_is_a_noop_with_corroboration(runtime: Runtime) -> None:
    await runtime.memory.publish(
        [said("t1", "I am allergic to peanuts."), said("t2", "I have a peanut allergy.", minute=1)]
    )
    await _settled(runtime, 1)
    (fact,) = await runtime.memory.facts(SCOPE)
    assert fact.statement == "Alice is allergic to peanuts."
    assert len(fact.evidence_ids) == 2 and fact.version == 2


async def test_moving_supersedes_where_one_lived(runtime: Runtime) -> None:
    await runtime.memory.publish(
        [said("t1", "I live in Paris."), said("t2", "I moved to Berlin.", minute=1)]
    )
    await _settled(runtime, 2)
    facts = {f.statement: f for f in await runtime.memory.facts(SCOPE)}
    paris, berlin = facts["Alice lives in Paris."], facts["Alice moved to Berlin."]
    assert paris.status is FactStatus.SUPERSEDED and paris.superseded_by == berlin.fact_id
    assert berlin.status is FactStatus.ACTIVE and berlin.supersedes == paris.fact_id
    answer = await runtime.memory.query(SCOPE, "Where does Alice live?", limit=5)
    assert answer.bundles[0].fact.fact_id == berlin.fact_id
    assert [f.fact_id for f in answer.bundles[0].history] == [paris.fact_id]
    assert paris.fact_id not in {h.fact.fact_id for h in answer.bundles if h.fact}


async def test_redelivering_every_event_leaves_the_views_unchanged(runtime: Runtime) -> None:
    await runtime.memory.publish(
        [
            said("t1", "I live in Paris."),
            said("t2", "I moved to Berlin.", minute=1),
            said("t3", "I love jazz and I play the cello.", minute=2),
            said("t4", "I really love jazz.", minute=3),
        ]
    )
    await _settled(runtime, 3)
    before = [f.model_dump() for f in await runtime.memory.facts(SCOPE)]
    await _redeliver_everything(runtime)
    await runtime.settle(runtime.caught_up)
    after = [f.model_dump() for f in await runtime.memory.facts(SCOPE)]
    assert after == before


async def _redeliver_everything(runtime: Runtime) -> None:
    """Append a second copy of every record of the turns and fact-changes topics."""
    components = runtime.memory.components
    log = components.log
    for topic in (components.names.turns, components.names.fact_changes):
        for partition in range(await log.partitions(topic)):
            records = await log.read(topic, partition, 0, 10_000)
            copies = [Append(partition, r.key, r.value) for r in records]
            if copies:
                await log.append(topic, copies)
