"""Many processes, one data folder (issue 30, item 2).

Four real processes write 250 short turns each to one embedded folder at once, through
``AsyncMemory``; each then sees all 1,000 turns on the shared log, none twice. A CLI
``facts`` and ``query`` run beside a live ``provmem api`` and see its writes. An erasure
in one process leaves no search result in another process that is running beside it.
The first process to open the folder owns its vector index and derives; the others each
keep a reader slot of their own, filled from the log (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from provmem import AsyncMemory
from provmem.config import Settings
from provmem.streams.indexing import decode_turn
from tests.integration.test_findings_live_api import api_process, cli, embedded, facts_of, until

WRITERS, TURNS = 4, 250
AT = "2026-05-08T13:00:00+00:00"


async def turns_on_log(memory: AsyncMemory) -> list[str]:
    """The evidence ids of every turn on the folder's log, in log order."""
    components = (await memory.open()).memory.components  # type: ignore[attr-defined]
    log, topic = components.log, components.names.turns
    ids = []
    for partition in range(await log.partitions(topic)):
        for record in await log.read(topic, partition, 0, 1_000_000):
            turn = decode_turn(record.value) if record.value is not None else None
            if turn is not None:
                ids.append(turn.evidence_id)
    return ids


async def write_then_count(folder: str, who: int, total: int) -> dict[str, int]:
    """Write TURNS turns as writer ``who``, then wait until ``total`` are on the log."""
    async with AsyncMemory(folder) as memory:
        for i in range(TURNS):
            await memory.add(f"note {who}-{i}", user_id=f"user{who}", session_id="s", at=AT)
        deadline = time.monotonic() + 120
        while len(ids := await turns_on_log(memory)) < total and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        return {"turns": len(ids), "distinct": len(set(ids))}


async def serve_searches(folder: str) -> None:
    """Answer ``user text`` lines on stdin with the statements found, one JSON line each."""
    async with AsyncMemory(folder) as memory:
        print(json.dumps("ready"), flush=True)
        for line in sys.stdin:
            user, _, text = line.strip().partition(" ")
            found = await memory.search(text, user_id=user, limit=5)
            print(json.dumps([bundle.statement for bundle in found]), flush=True)


def script(*args: str) -> list[str]:
    return [sys.executable, "-m", "tests.integration.test_many_processes", *args]


def test_four_processes_write_one_folder_and_each_sees_every_turn(tmp_path: Path) -> None:
    folder = str(tmp_path / "data")
    started = time.monotonic()
    writers = [
        subprocess.Popen(script("write", folder, str(who)), stdout=subprocess.PIPE, text=True)
        for who in range(WRITERS)
    ]
    outputs = [writer.communicate(timeout=300)[0] for writer in writers]
    assert [w.returncode for w in writers] == [0] * WRITERS, outputs
    seen = [json.loads(out.strip().splitlines()[-1]) for out in outputs]
    total = WRITERS * TURNS
    assert seen == [{"turns": total, "distinct": total}] * WRITERS
    print(f"{WRITERS} processes x {TURNS} turns in {time.monotonic() - started:.1f} s")


def test_cli_reads_beside_a_running_api(tmp_path: Path) -> None:
    asyncio.run(_cli_beside_api(embedded(tmp_path), tmp_path))


async def _cli_beside_api(settings: Settings, logs: Path) -> None:
    scope = "acme/support/ana"
    async with api_process(settings, logs) as live, live.client() as client:
        said = {"scope": scope, "speaker": "ana", "session": "s1", "turn_id": "t1",
                "text": "I moved to Lisbon in May.", "captured_at": AT}  # fmt: skip
        answer = await client.post("/v1/turns", json={"turns": [said]})
        assert answer.status_code == 200, answer.text

        async def derived() -> bool:
            return bool(await facts_of(client, scope))

        await until(derived, "derived by the API")
        listed = await asyncio.to_thread(cli, settings, "facts", scope, "--json")
        assert listed.returncode == 0, listed.stderr
        assert "Lisbon" in listed.stdout
        found = await asyncio.to_thread(cli, settings, "query", scope, "where does ana live")
        assert found.returncode == 0, found.stderr
        assert "Lisbon" in found.stdout
        assert (await client.get("/v1/health")).status_code == 200  # still serving


def test_an_erasure_in_one_process_leaves_no_result_in_another(tmp_path: Path) -> None:
    asyncio.run(_erasure_across(str(tmp_path / "data")))


async def _erasure_across(folder: str) -> None:
    async with AsyncMemory(folder) as owner:
        await owner.add("I moved to Lisbon in May.", user_id="ana", session_id="s", at=AT)
        assert "Lisbon" in str(await owner.search("where does ana live", user_id="ana"))
        reader = subprocess.Popen(
            script("search", folder), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        try:
            assert _answer(reader) == "ready"
            assert any("Lisbon" in s for s in _ask(reader, "ana where does ana live"))
            await owner.erase(user_id="ana", reason="asked to forget")
            assert not any("Lisbon" in s for s in _ask(reader, "ana where does ana live"))
            assert not any("Lisbon" in s for s in _ask(reader, "ana Lisbon"))
        finally:
            reader.stdin.close()  # type: ignore[union-attr]
            reader.wait(60)
        assert reader.returncode == 0


def _ask(process: subprocess.Popen[str], line: str) -> list[str]:
    process.stdin.write(line + "\n")  # type: ignore[union-attr]
    process.stdin.flush()  # type: ignore[union-attr]
    answer: list[str] = _answer(process)
    return answer


def _answer(process: subprocess.Popen[str]) -> Any:
    line = process.stdout.readline()  # type: ignore[union-attr]
    assert line, f"the reader exited ({process.wait(60)})"
    return json.loads(line)


if __name__ == "__main__":
    if sys.argv[1] == "write":
        counts = asyncio.run(write_then_count(sys.argv[2], int(sys.argv[3]), WRITERS * TURNS))
        print(json.dumps(counts), flush=True)
    else:
        asyncio.run(serve_searches(sys.argv[2]))
