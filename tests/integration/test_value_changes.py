"""Value changes and contradictions through the real embedded pipeline, model and stores."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from provmem.config import Settings
from provmem.core.events import Fact, FactChanged, FactOp, FactStatus
from tests.harness import SCOPE, Runtime, said


@pytest.fixture
async def embedded(embedded_settings: Settings, tmp_path: Path) -> AsyncIterator[Runtime]:
    started = await Runtime(embedded_settings, tmp_path).start()
    yield started
    await started.stop()


async def _facts(runtime: Runtime, turns: list[dict[str, str]]) -> dict[str, Fact]:
    await runtime.memory.publish(turns)
    await runtime.settle(runtime.caught_up)
    return {f.statement: f for f in await runtime.memory.facts(SCOPE)}


async def test_moving_changing_employer_and_correcting_a_name_leave_old_values_as_history(
    embedded: Runtime,
) -> None:
    facts = await _facts(
        embedded,
        [
            said("t1", "I live in Chicago and I work at Globex."),
            said("t2", "My project is called Falcon.", minute=1),
            said("t3", "The repo has 150 commits so far.", minute=2),
            said("t4", "I moved to Seattle last month.", minute=60),
            said("t5", "I work at Initech now.", minute=61),
            said("t6", "Sorry, I meant the project is called Hawk.", minute=62),
            said("t7", "Busy week: we have now reached 165 commits.", minute=63),
        ],
    )
    replaced = {"Chicago": "Seattle", "Globex": "Initech", "Falcon": "Hawk", "150": "165"}
    for old_value, new_value in replaced.items():
        old, new = _saying(facts, old_value), _saying(facts, new_value)
        assert old.status is FactStatus.SUPERSEDED and old.superseded_by == new.fact_id
        assert new.status is FactStatus.ACTIVE and new.supersedes == old.fact_id
        detail = await embedded.memory.fact(new.fact_id)
        assert detail is not None and [p.fact_id for p in detail.supersedes] == [old.fact_id]
    active = {f.fact_id for f in facts.values() if f.status is FactStatus.ACTIVE}
    assert active == {_saying(facts, value).fact_id for value in replaced.values()}
    answer = await embedded.memory.query(SCOPE, "How many commits does the repo have?", limit=5)
    top = answer.bundles[0]
    assert top.fact is not None and top.fact.fact_id == _saying(facts, "165").fact_id
    assert [h.fact_id for h in top.history] == [_saying(facts, "150").fact_id]


def _saying(facts: dict[str, Fact], value: str) -> Fact:
    """The one fact whose statement gives ``value`` (statements are the extractor's)."""
    (fact,) = [f for statement, f in facts.items() if value in statement]
    return fact


async def test_a_contradiction_keeps_both_facts_linked_and_recall_returns_them_together(
    embedded: Runtime,
) -> None:
    facts = await _facts(
        embedded,
        [
            said("t1", "I have never written any Flask routes in this project."),
            said("t2", "I like green tea in the morning.", minute=1),
            said("t3", "I'm implementing the homepage route with Flask.", minute=30),
        ],
    )
    never, doing = _saying(facts, "never written"), _saying(facts, "homepage route")
    assert never.status is doing.status is FactStatus.ACTIVE
    assert never.conflicts_with == (doing.fact_id,) and doing.conflicts_with == (never.fact_id,)
    changes = await _fact_changes(embedded)
    linked = [c for c in changes if c.fact_id == never.fact_id and c.op is FactOp.UPDATE]
    assert linked and "conflict" in linked[-1].reason and doing.fact_id in linked[-1].reason
    answer = await embedded.memory.query(SCOPE, "Has Alice written Flask routes?", limit=3)
    keys = [b.fact.fact_id for b in answer.bundles if b.fact]
    assert {never.fact_id, doing.fact_id} <= set(keys)
    first, second = keys.index(never.fact_id), keys.index(doing.fact_id)
    assert abs(first - second) == 1  # together
    marked = {b.fact.fact_id: b.conflicts for b in answer.bundles if b.fact}
    assert marked[never.fact_id] == (doing.fact_id,) and marked[doing.fact_id] == (never.fact_id,)


async def _fact_changes(runtime: Runtime) -> list[FactChanged]:
    components = runtime.memory.components
    topic = components.names.fact_changes
    changes: list[FactChanged] = []
    for partition in range(await components.log.partitions(topic)):
        for record in await components.log.read(topic, partition, 0, 10_000):
            if record.value is not None:
                changes.append(FactChanged.model_validate_json(record.value))
    return changes


async def test_a_change_said_in_passing_supersedes_and_an_ended_value_ranks_below_the_current(
    embedded: Runtime,
) -> None:
    facts = await _facts(
        embedded,
        [
            said("t1", "I'm based in Oslo. I work as a nurse at the city hospital."),
            said("t2", "My sister lives in Rome.", minute=1),
            said("t3", "Since moving to Bergen I've been cycling a lot more.", minute=60),
            said("t4", "Since I started as a pharmacist at a clinic I barely cook.", minute=61),
            said("t5", "I used to be a teacher at a primary school.", minute=62),
        ],
    )
    for old_value, new_value in {"Oslo": "Bergen", "nurse": "pharmacist"}.items():
        old, new = _saying(facts, old_value), _saying(facts, new_value)
        assert old.status is FactStatus.SUPERSEDED and old.superseded_by == new.fact_id
        assert new.status is FactStatus.ACTIVE and new.valid_to is None
    sister, teacher = _saying(facts, "Rome"), _saying(facts, "teacher")
    assert sister.status is FactStatus.ACTIVE and sister.supersedes is None
    assert teacher.status is FactStatus.ACTIVE and teacher.valid_to is not None  # history
    answer = await embedded.memory.query(SCOPE, "What does Alice do for work?", limit=5)
    statements = [b.fact.statement for b in answer.bundles if b.fact]
    assert statements.index(_saying(facts, "pharmacist").statement) < statements.index(
        teacher.statement
    )


async def test_a_new_value_of_an_attribute_worded_with_a_synonym_supersedes_it(
    embedded: Runtime,
) -> None:
    facts = await _facts(
        embedded,
        [
            said("t1", "Peak RAM on the build box is 2GB."),
            said("t2", "Peak CPU on the build box is 80%.", minute=1),
            said("t3", "Peak memory is 3GB.", minute=30),  # no change cue: the phrases decide
        ],
    )
    ram, memory, cpu = _saying(facts, "2GB"), _saying(facts, "3GB"), _saying(facts, "80%")
    assert ram.status is FactStatus.SUPERSEDED and ram.superseded_by == memory.fact_id
    assert memory.supersedes == ram.fact_id and memory.status is FactStatus.ACTIVE
    assert cpu.status is FactStatus.ACTIVE  # another attribute, another kind of value
