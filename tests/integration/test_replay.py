"""Replay on both runtimes: rebuilt views equal the live ones, resume, atomic switch."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from provmem.config import Settings
from provmem.core.capture import TurnInput, turn_evidence_id
from provmem.core.events import Fact, FactStatus
from provmem.infra.stores.generations import (
    Generation,
    PointerState,
    RedisPointer,
    read_file_pointer,
)
from provmem.infra.stores.generations import redis_pointer_key as pointer_key
from provmem.services.erasure.subject import erasure_request
from provmem.services.memory.memory import MemoryService
from provmem.services.replay.generations import replay_lease
from provmem.services.replay.run import (
    ReplayDiscardedError,
    Replayer,
    ReplayError,
    ReplayInterrupted,
    ReplayPlan,
    retire_generations,
)
from provmem.streams.runtime.components import Components, build, pointer_path, runtime_for
from tests.harness import SCOPE, Runtime, said

OTHER = "globex/support/bob"  # another partition than SCOPE's


async def _ingest(runtime: Runtime) -> dict[str, list[Fact]]:
    """Turns with an update and a correction in one scope, plain turns in another."""
    await runtime.memory.publish(
        [
            said("t1", "I live in Paris.", 0),
            said("t2", "I love jazz and I work at Acme as a nurse.", 1),
            said("t3", "I moved to Lisbon last week.", 2),
            said("b1", "I have two cats.", 0, scope=OTHER),
            said("b2", "My favourite colour is green.", 1, scope=OTHER),
        ]
    )
    await _settled(runtime, lambda facts: len(facts[SCOPE]) >= 3 and len(facts[OTHER]) >= 2)
    jazz = next(f for f in await runtime.memory.facts(SCOPE) if "jazz" in f.statement)
    await runtime.memory.correct(jazz.fact_id, "Alice loves blues.", by="Alice", scope=SCOPE)
    return await _settled(
        runtime, lambda facts: any(f.statement == "Alice loves blues." for f in facts[SCOPE])
    )


async def _settled(runtime: Runtime, check: object) -> dict[str, list[Fact]]:
    async def ready() -> bool:
        return await runtime.caught_up() and bool(check(await _facts(runtime.memory.components)))  # type: ignore[operator]

    await runtime.settle(ready)
    return await _facts(runtime.memory.components)


async def _facts(components: Components) -> dict[str, list[Fact]]:
    return {s: await components.views.facts_in_scope(s) for s in (SCOPE, OTHER)}


async def _live_generation(runtime: Runtime) -> Generation:
    return (await _pointer_state(runtime)).live


async def _pointer_state(runtime: Runtime) -> PointerState:
    settings = runtime.settings
    if settings.runtime == "kafka":
        components = runtime.memory.components
        client = components.views.client  # type: ignore[attr-defined]  # FollowingFactViews
        return await RedisPointer(client, pointer_key(settings.redis_prefix)).read()
    return read_file_pointer(pointer_path(settings))


async def _after_switch(runtime: Runtime) -> dict[str, list[Fact]]:
    """The facts a process built now sees (it reads the generation pointer)."""
    fresh = await build(runtime.settings)
    try:
        return await _facts(fresh)
    finally:
        await fresh.close()


async def test_a_replay_from_fact_changes_equals_the_live_views(runtime: Runtime) -> None:
    live = await _ingest(runtime)
    assert any(f.status is FactStatus.SUPERSEDED for f in live[SCOPE])  # an update happened
    result = await Replayer(runtime.memory.components).run(ReplayPlan("fact-changes"))
    assert result.report.equal, result.report
    assert {c.scope for c in result.report.scopes} == {SCOPE, OTHER}
    assert result.report.ignored_fields == []  # versions compared too
    assert result.switched and result.generation == 1 and result.facts > 0
    assert await _live_generation(runtime) == Generation(1, 0)
    assert await _after_switch(runtime) == live


async def test_a_replay_from_turns_rederives_the_same_views(runtime: Runtime) -> None:
    live = await _ingest(runtime)
    switch = runtime.settings.runtime == "embedded"  # kafka: build and check only
    rebuilt: dict[str, list[Fact]] = {}

    async def look(target: Components) -> None:
        rebuilt.update(await _facts(target))

    plan = ReplayPlan("turns", switch=switch)
    result = await Replayer(runtime.memory.components).run(plan, before_switch=look)
    assert result.report.equal, result.report
    assert result.report.ignored_fields == ["version"]
    assert _without_versions(rebuilt) == _without_versions(live)
    assert result.switched is switch
    if switch:
        assert await _live_generation(runtime) == Generation(1, 1)
        assert _without_versions(await _after_switch(runtime)) == _without_versions(live)


def _without_versions(facts: dict[str, list[Fact]]) -> dict[str, list[dict[str, object]]]:
    return {s: [f.model_dump(exclude={"version"}) for f in fs] for s, fs in facts.items()}


async def test_from_turns_switches_on_kafka_with_a_qdrant_server(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    """Kafka with a Qdrant server (qdrant-client's local mode: a folder per collection):
    the replay refuses beside a running worker, naming it; with the workers stopped, one
    stopped midway leaves the live generation as it was; the next re-derives into a
    collection and a gate table of its own, switches, drops the old and the stopped one's,
    and a worker started after the switch derives new turns
    against the re-derived gate (a duplicate is no new fact) into the new collection."""
    qdrant = tmp_path / "qdrant"
    settings = kafka_settings.model_copy(update={"qdrant_url": f"file:{qdrant}"})
    old, new = f"{settings.topic_prefix}-facts", f"{settings.topic_prefix}-facts-g2"
    runtime = await Runtime(settings, tmp_path).start()
    try:
        live = await _ingest(runtime)
        with pytest.raises(ReplayError, match=r"stop them first \(running: pid \d+ on "):
            await Replayer(runtime.memory.components).run(ReplayPlan("turns"))
    finally:
        await runtime.stop()
    assert (qdrant / old).exists() and not (qdrant / new).exists()

    components = await build(settings)  # the workers stopped: only the replay derives t4
    try:
        await MemoryService(components).publish([said("t4", "I have a dog named Rex.", 3)])
        with pytest.raises(ReplayInterrupted):  # a replay stopped midway (killed, failed)
            await Replayer(components).run(ReplayPlan("turns", limit=1))
        assert await _pointer(settings) == Generation() and (qdrant / old).exists()
        result = await Replayer(components).run(ReplayPlan("turns"))  # over: generation 2
    finally:
        await components.close()
    assert result.switched and await _pointer(settings) == Generation(2, 2)
    await retire_generations(settings)
    assert [p.name for p in qdrant.iterdir()] == [new]  # the old and the stopped one's gone
    gate = await _gate_keys(settings)  # the workers' table of generation 2, handed over
    assert gate and all(k.startswith("g2/gate|") for k in gate)
    assert await _changelogs(settings) == [f"{settings.consumer_group}.g2-gate-state-changelog"]

    rebuilt = await _fresh_check(settings)  # the new generation equals a fresh derivation
    rex = [f for f in rebuilt[SCOPE] if "Rex" in f.statement]
    assert len(rex) == 1
    without_rex = {SCOPE: [f for f in rebuilt[SCOPE] if f not in rex], OTHER: rebuilt[OTHER]}
    assert _without_versions(without_rex) == _without_versions(live)

    seen = f"g2/gate|{OTHER}|seen|"
    marks = [k for k in await _gate_keys(settings) if k.startswith(seen)]
    runtime = await Runtime(settings, tmp_path).start()  # on generation 2
    try:
        await runtime.memory.publish(
            [
                said("b3", "I have two cats.", 2, scope=OTHER),  # a duplicate: no new fact
                said("b4", "I play the violin.", 3, scope=OTHER),
            ]
        )
        after = await _settled(
            runtime, lambda facts: any("violin" in f.statement for f in facts[OTHER])
        )
    finally:
        await runtime.stop()
    kept = [f for f in after[OTHER] if "violin" not in f.statement]
    assert [f.fact_id for f in kept] == [f.fact_id for f in live[OTHER]], after[OTHER]  # no ADD
    cats = [f for f in kept if "cats" in f.statement]
    assert len(cats) == 1 and len(cats[0].evidence_ids) == 2, cats  # b3 supports it
    now = [k for k in await _gate_keys(settings) if k.startswith(seen)]
    assert len(now) == len(marks) + 2  # the worker derived b3 and b4 with the g2 gate
    assert (await _fresh_check(settings))[OTHER] == after[OTHER]  # and indexed into g2


async def _pointer(settings: Settings) -> Generation:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(settings.redis_url)
    try:
        return (await RedisPointer(client, pointer_key(settings.redis_prefix)).read()).live
    finally:
        await client.aclose()


async def _changelogs(settings: Settings) -> list[str]:
    from provmem.infra.log.kafka import KafkaEventLog
    from provmem.streams.topics import gate_changelogs

    log = KafkaEventLog(settings.broker_url)
    try:
        return gate_changelogs(settings.consumer_group, await log.topics())
    finally:
        await log.close()


async def _gate_keys(settings: Settings) -> list[str]:
    """The live keys of the gate-state changelog of the workers of generation 2."""
    from provmem.infra.log.kafka import KafkaEventLog
    from provmem.streams.topics import gate_changelog

    topic = gate_changelog(Generation(2, 2).derive_group(settings.consumer_group))
    log, keys = KafkaEventLog(settings.broker_url), {}
    try:
        for partition in range(await log.partitions(topic)):
            offset = 0
            while batch := await log.read(topic, partition, offset, 512):
                offset = batch[-1].offset + 1
                keys.update({r.key: r.value is not None for r in batch if r.key is not None})
    finally:
        await log.close()
    return sorted(k.decode() for k, held in keys.items() if held)


async def _fresh_check(settings: Settings) -> dict[str, list[Fact]]:
    """The live generation's facts, after a replay from turns (not switched) found its facts
    view and vector index equal to a fresh derivation of the log."""
    components = await build(settings)
    try:
        check = await Replayer(components).run(ReplayPlan("turns", switch=False))
        assert check.report.equal, check.report
        assert {c.scope for c in check.report.scopes} == {SCOPE, OTHER}
        return await _facts(components)
    finally:
        await components.close()


@pytest.mark.parametrize("mode", ["fact-changes", "turns"])
async def test_an_interrupted_replay_resumes_to_the_same_result(
    runtime: Runtime, mode: str
) -> None:
    live = await _ingest(runtime)
    switch = mode == "fact-changes" or runtime.settings.runtime == "embedded"
    replayer = Replayer(runtime.memory.components)
    with pytest.raises(ReplayInterrupted) as stopped:
        await replayer.run(ReplayPlan(mode, switch=switch, limit=1))
    assert await _live_generation(runtime) == Generation()  # nothing switched yet
    assert await _facts(runtime.memory.components) == live
    with pytest.raises(ReplayError, match="resume: the interrupted replay"):
        other = "turns" if mode == "fact-changes" else "fact-changes"
        await replayer.run(ReplayPlan(other, resume=True, switch=False))
    result = await replayer.run(ReplayPlan(mode, switch=switch, resume=True))
    assert result.resumed and result.job_id == stopped.value.job_id
    assert result.report.equal, result.report
    assert 0 < result.records  # continued where the first run stopped
    if switch:
        assert _without_versions(await _after_switch(runtime)) == _without_versions(live)


PARIS = turn_evidence_id(TurnInput.model_validate(said("t1", "I live in Paris.", 0)))


async def test_an_erasure_discards_an_interrupted_replay_s_generation(runtime: Runtime) -> None:
    """The pending generation was built before the erasure and may hold what it erased:
    the erasure drops it (views and vectors), and a ``--resume`` starts anew."""
    await _ingest(runtime)
    replayer = Replayer(runtime.memory.components)
    with pytest.raises(ReplayInterrupted):
        await replayer.run(ReplayPlan("fact-changes", limit=1))
    pending = (await _pointer_state(runtime)).pending
    assert pending is not None and await _generation_held(runtime, pending.target)
    receipt = await runtime.erase(erasure_request(SCOPE, [PARIS], None, False))
    assert receipt.residue_found == 0
    assert (await _pointer_state(runtime)).pending is None
    assert not await _generation_held(runtime, pending.target)
    result = await replayer.run(ReplayPlan("fact-changes", resume=True))
    assert not result.resumed and result.switched
    assert result.report.equal, result.report  # on Kafka: the turns the erasure re-sealed


async def test_a_replay_an_erasure_overtook_does_not_switch(runtime: Runtime) -> None:
    await _ingest(runtime)

    async def erased_meanwhile(target: Components) -> None:
        await runtime.erase(erasure_request(SCOPE, [PARIS], None, False))

    replayer = Replayer(runtime.memory.components)
    with pytest.raises(ReplayDiscardedError, match="an erasure discarded"):
        await replayer.run(ReplayPlan("fact-changes"), before_switch=erased_meanwhile)
    state = await _pointer_state(runtime)
    assert state.live == Generation() and state.pending is None
    assert not await _generation_held(runtime, Generation(1, 0))


async def _generation_held(runtime: Runtime, generation: Generation) -> bool:
    """Whether anything of a (non-live) generation is kept: its views or its vectors."""
    settings = runtime.settings
    folder = runtime_for(settings).vectors_folder(generation)
    if settings.runtime == "embedded":
        return folder.exists() or (settings.data_dir / f"views{generation.suffix()}.db").exists()
    client = runtime.memory.components.views.client  # type: ignore[attr-defined]
    pattern = f"{generation.redis_prefix(settings.redis_prefix)}:*"
    keys = [k async for k in client.scan_iter(match=pattern, count=500)]
    return folder.exists() or bool(keys)


async def test_the_switch_is_atomic_and_repairs_a_damaged_view(runtime: Runtime) -> None:
    """Before the switch every query sees the old (damaged) generation, after it the new."""
    live = await _ingest(runtime)
    lost = live[OTHER][0]
    await _lose(runtime, lost)
    damaged = await _facts(runtime.memory.components)
    assert lost not in damaged[OTHER]
    seen_before: list[object] = []

    async def before_switch(target: Components) -> None:
        seen_before.append(await _live_generation(runtime))
        seen_before.append(await _facts(runtime.memory.components))
        seen_before.append(await _after_switch(runtime))
        assert lost in (await _facts(target))[OTHER]

    result = await Replayer(runtime.memory.components).run(
        ReplayPlan("fact-changes"), before_switch=before_switch
    )
    assert seen_before == [Generation(), damaged, damaged]
    assert not result.report.equal and result.report.unequal_scopes == [OTHER]
    assert result.switched
    assert await _after_switch(runtime) == live  # repaired from the log
    if runtime.settings.runtime == "kafka":  # long-lived readers follow the pointer
        assert await _facts(runtime.memory.components) == live
    await runtime.stop()
    await retire_generations(runtime.settings)
    if runtime.settings.runtime == "embedded":
        data = runtime.settings.data_dir
        assert not (data / "vectors").exists() and (data / "vectors-g1").exists()
        with sqlite3.connect(data / "views.db") as conn:
            assert conn.execute("SELECT COUNT(*) FROM facts").fetchone() == (0,)


async def _lose(runtime: Runtime, fact: Fact) -> None:
    """Damage the live facts view behind the pipeline's back (a lost write)."""
    settings = runtime.settings
    if settings.runtime == "embedded":
        with sqlite3.connect(settings.data_dir / "views.db") as conn:
            conn.execute("DELETE FROM facts WHERE fact_id=?", (fact.fact_id,))
        return
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(settings.redis_url)
    try:
        await client.srem(f"{settings.redis_prefix}:scope:{fact.scope.key}:facts", fact.fact_id)
    finally:
        await client.aclose()


async def test_a_scoped_replay_is_a_check_that_is_not_switched_in(runtime: Runtime) -> None:
    await _ingest(runtime)
    result = await Replayer(runtime.memory.components).run(
        ReplayPlan("fact-changes", scopes=(OTHER,))
    )
    assert result.report.equal and [c.scope for c in result.report.scopes] == [OTHER]
    assert not result.switched and "checked and dropped" in result.note
    assert await _live_generation(runtime) == Generation()
    if runtime.settings.runtime == "embedded":
        assert not (runtime.settings.data_dir / "views-g1.db").exists()


@pytest.mark.parametrize("mode", ["fact-changes", "turns"])
async def test_a_replay_after_an_erasure_equals_the_live_views(
    embedded_settings: Settings, tmp_path: Path, mode: str
) -> None:
    """Erasure re-derives a scope and compacts the log; a replay still lands on the same views."""
    runtime = await Runtime(embedded_settings, tmp_path).start()
    try:
        await _ingest(runtime)
        paris = turn_evidence_id(TurnInput.model_validate(said("t1", "I live in Paris.", 0)))
        receipt = await runtime.memory.request_erasure(erasure_request(SCOPE, [paris], None, False))
        assert receipt is not None and receipt.residue_found == 0
        live = await _facts(runtime.memory.components)
        result = await Replayer(runtime.memory.components).run(ReplayPlan(mode))
        assert result.report.equal, result.report
        assert _without_versions(await _after_switch(runtime)) == _without_versions(live)
    finally:
        await runtime.stop()


async def test_one_replay_at_a_time(runtime: Runtime) -> None:
    await _ingest(runtime)
    async with replay_lease(runtime.settings, "rp_elsewhere"):
        with pytest.raises(ReplayError, match="running"):
            await Replayer(runtime.memory.components).run(ReplayPlan("fact-changes"))
    result = await Replayer(runtime.memory.components).run(ReplayPlan("fact-changes"))
    assert result.report.equal and result.switched


async def test_after_a_switch_the_lag_is_read_from_the_live_generation_s_groups(
    embedded_settings: Settings,
) -> None:
    """Caught-up checks and the /metrics lag follow the consumer groups a switch moves to."""
    from provmem.services.api.metrics import ApiMetrics
    from provmem.services.memory.memory import MemoryService

    first = await build(embedded_settings)
    try:
        memory = MemoryService(first)
        await memory.publish([said("t1", "I live in Paris.", 0)])
        await memory.sync()
        assert (await Replayer(first).run(ReplayPlan("turns"))).switched
    finally:
        await first.close()
    after = await build(embedded_settings)
    try:
        memory = MemoryService(after)
        await memory.publish([said("t2", "I work at Acme as a nurse.", 1)])
        await memory.sync()
        groups = after.pipeline_groups()
        assert embedded_settings.consumer_group not in groups.values()
        assert await memory.workers_caught_up()
        text = (await ApiMetrics().render(after.log, groups)).decode()
        assert f'provmem_pipeline_lag_records{{topic="{after.names.turns}"}} 0.0' in text
    finally:
        await after.close()


async def test_a_worker_starting_while_a_replay_from_turns_runs_waits_for_its_switch(
    redis_prefix: str,
) -> None:
    """It holds no presence key while it waits (the replay would refuse), then starts on
    the generation the replay switched in."""
    import asyncio

    import redis.asyncio as aioredis

    from provmem.infra.stores.generations import PendingReplay, PointerState
    from provmem.streams.runtime.worker_presence import WorkerPresence, running_workers
    from tests.conftest import REDIS_URL

    settings = Settings(runtime="kafka", redis_url=REDIS_URL, redis_prefix=redis_prefix)
    client = aioredis.Redis.from_url(REDIS_URL)
    pointer = RedisPointer(client, pointer_key(redis_prefix))
    presence = WorkerPresence(settings)
    try:
        await pointer.write(PointerState(pending=PendingReplay("rp_x", "turns", Generation(1, 1))))
        async with replay_lease(settings, "rp_x"):
            joining = asyncio.create_task(presence.join())
            await asyncio.sleep(2.5)
            assert not joining.done()
            assert await running_workers(settings) == []
            await pointer.write(PointerState(live=Generation(1, 1)))
        assert await asyncio.wait_for(joining, 10) == Generation(1, 1)
        assert await running_workers(settings) == [presence.said]
    finally:
        presence.leave()
        await client.aclose()
    assert await running_workers(settings) == []
