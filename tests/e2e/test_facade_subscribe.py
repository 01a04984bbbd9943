"""``memory.subscribe`` on the embedded backend streams the erasure of facts it never saw
change: on 814c57e a stream started at the end (``start="latest"``) knew only the facts
it delivered, so erasing the user sent no ERASE for a fact made before it started (the
HTTP stream had been fixed, the SDK's own stream had not).

Both runtimes, the SDK opening its own process's runtime on the deployment (its own data
folder; on Kafka the workers derive and erase)."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from pathlib import Path

from pydantic import SecretStr

from provmem import AsyncMemory
from provmem.core.events import FactChanged, FactOp
from provmem.infra.crypto.envelope import master_key
from tests.harness import Runtime

USER = "ann"


async def _started(memory: AsyncMemory, changes: AsyncIterator[FactChanged]) -> set[str]:
    """Until the stream has started: a turn said after its start comes to it as a change
    (a turn said before it started does not). The fact of the first change."""
    first = asyncio.ensure_future(anext(changes))
    said = 0
    while not first.done():
        await memory.add(f"My locker number is {said} at the gym.", user_id=USER)
        said += 1
        await asyncio.wait([first], timeout=1.0)  # not an assertion: the next turn, or done
    delivered = first.result()
    assert delivered.op is not FactOp.ERASE
    return {delivered.fact_id}


async def _until_added(changes: AsyncIterator[FactChanged]) -> set[str]:
    """The facts the stream sends an ERASE for, until the next ADD (a turn said after the
    erasure: its change is on the user's partition after every change of the erasure)."""
    erased: set[str] = set()
    while (change := await anext(changes)).op is not FactOp.ADD:
        if change.op is FactOp.ERASE:
            erased.add(change.fact_id)
    return erased


async def test_a_stream_from_now_on_gets_the_erase_of_facts_made_before_it(
    runtime: Runtime, tmp_path: Path
) -> None:
    key = base64.b64encode(master_key(runtime.settings)).decode()  # one deployment
    settings = runtime.settings.model_copy(
        update={"data_dir": tmp_path / "sdk", "master_key": SecretStr(key)}
    )
    async with AsyncMemory(settings=settings) as memory:
        await memory.add("I live in Paris and I have a cat named Tom.", user_id=USER)
        before = {f.fact_id for f in await memory.facts(user_id=USER)}
        assert before
        changes = memory.subscribe(user_id=USER, start="latest")
        delivered = await _started(memory, changes)
        await memory.erase(user_id=USER, reason="asked")
        while await memory.facts(user_id=USER):  # Kafka: until a worker has erased them
            await asyncio.sleep(0.2)
        await memory.add("I play the cello.", user_id=USER)
        erased = await _until_added(changes)
        await changes.aclose()  # type: ignore[attr-defined]  # an async generator
    assert before | delivered <= erased
