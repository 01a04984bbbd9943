"""Scale-out and faults on the distributed runtime: two faust workers share the partitions,
then one is killed mid-stream; at each stage the views must equal a clean run's on the same
input. One test walks both stages, so the pair of workers starts once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from provmem.config import Settings
from provmem.core.events import Fact
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build
from tests.harness import T0
from tests.support.worker_process import WorkerProcess

SCOPES = [f"acme/app/user{i}" for i in range(8)]
DEADLINE_S = 150.0
ViewsOf = dict[str, list[dict[str, Any]]]


def _conversation(scope: str, index: int, start: int) -> list[dict[str, Any]]:
    """A user's turns: facts, a repeat, a paraphrase and a change of address."""
    city, other = ("Paris", "Berlin") if index % 2 else ("Oslo", "Rome")
    texts = [
        f"I live in {city}.",
        f"I work at Shop{index}.",
        "I love hiking in the mountains.",
        f"I live in {city}.",
        "I really love hiking in the mountains!",
        f"I moved to {other}.",
        "My sister is a nurse in the city hospital.",
        "I am allergic to peanuts.",
        "I have a dog named Rex.",
        "I started learning the violin last month.",
        "My favourite food is ramen.",
        "I have an allergy to peanuts.",
    ]
    return [
        {
            "scope": scope,
            "speaker": f"User{index}",
            "text": text,
            "turn_id": f"{scope}#{start + n}",
            "captured_at": (T0.replace(minute=start + n)).isoformat(),
        }
        for n, text in enumerate(texts)
    ]


def _turns(first_half: bool) -> list[dict[str, Any]]:
    turns = []
    for index, scope in enumerate(SCOPES):
        whole = _conversation(scope, index, 0)
        turns += whole[:3] if first_half else whole[3:]
    return turns


async def _views(memory: MemoryService) -> ViewsOf:
    def dump(facts: list[Fact]) -> list[dict[str, Any]]:
        return sorted((f.model_dump(mode="json") for f in facts), key=lambda f: f["fact_id"])

    return {scope: dump(await memory.facts(scope)) for scope in SCOPES}


async def _clean_run(settings: Settings, turns: list[dict[str, Any]]) -> ViewsOf:
    """The views of a clean embedded run on ``turns``, in a data folder of its own."""
    folder = settings.data_dir / f"clean-{len(turns)}"
    components = await build(settings.model_copy(update={"data_dir": folder}))
    try:
        memory = MemoryService(components)
        await memory.publish(turns)
        await memory.sync()
        return await _views(memory)
    finally:
        await components.close()


async def _caught_up(memory: MemoryService, workers: list[WorkerProcess]) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not await memory.workers_caught_up():
        if not any(w.alive for w in workers):
            raise AssertionError("no worker alive")
        if time.monotonic() > deadline:
            logs = "\n".join(w.log_text()[-3000:] for w in workers)
            raise AssertionError(f"workers not caught up after {DEADLINE_S}s\n{logs}")
        await asyncio.sleep(0.3)


async def _start(settings: Settings, tmp_path: Path, count: int) -> list[WorkerProcess]:
    workers = [WorkerProcess(settings, tmp_path / f"worker-{n}.log").start() for n in range(count)]
    await asyncio.gather(*(w.ready() for w in workers))
    return workers


def _handled_turns(worker: WorkerProcess) -> int:
    return worker.log_text().count("derive.received")


async def test_two_workers_share_the_partitions_and_a_killed_one_loses_nothing(
    kafka_settings: Settings, embedded_settings: Settings, tmp_path: Path
) -> None:
    """One pair of workers serves both checks, as their start-up is most of the cost: after
    the first half both have derived turns and the views equal a clean run's on that half;
    then the second worker is SIGKILLed while the second half is published in bursts, and
    the views equal a clean run's on every turn."""
    settings = kafka_settings.model_copy(update={"log_level": "DEBUG"})
    components = await build(settings)
    memory = MemoryService(components)
    workers = await _start(settings, tmp_path, 2)
    try:
        await memory.publish(_turns(True))
        await _caught_up(memory, workers)
        assert all(_handled_turns(w) > 0 for w in workers), "both workers derive turns"
        shared = await _views(memory)
        await _publish_second_half(memory, workers)
        await _caught_up(memory, workers)
        views = await _views(memory)
    finally:
        for worker in workers:
            await worker.stop()
        await components.close()
    assert shared == await _clean_run(embedded_settings, _turns(True))
    assert views == await _clean_run(embedded_settings, _turns(True) + _turns(False))
    assert all(len(facts) >= 8 for facts in views.values())


async def _publish_second_half(memory: MemoryService, workers: list[WorkerProcess]) -> None:
    """Publish in small bursts; SIGKILL the second worker after the first burst, so turns
    are in flight while its partitions move to the survivor."""
    turns = _turns(False)
    for start in range(0, len(turns), 8):
        await memory.publish(turns[start : start + 8])
        if start == 0:
            await asyncio.sleep(0.5)
            await workers[1].stop(kill=True)  # SIGKILL: no goodbye to the group
        await asyncio.sleep(0.3)
