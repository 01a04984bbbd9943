"""``provmem api --workers N``: several uvicorn worker processes on one data folder
(issue 30, item 2).

Three workers serve one port. Turns are written through them concurrently, each batch
twice at once (as a client that retries on another connection): every turn is accepted
exactly once, its twin answered ``duplicate``. Reads on fresh connections, spread over
the workers by the kernel, each see every turn's fact, none twice; the first worker to
open the folder derives, the others read it from their own index slots. A subject
erasure filed through any worker completes verified.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from provmem.config import Settings
from tests.integration.test_findings_live_api import (
    LiveApi,
    _answering,
    _token,
    embedded,
    facts_of,
    until,
)
from tests.support.tansu import free_port
from tests.support.worker_process import settings_env

WORKERS, WRITERS, TURNS = 3, 4, 5
STOP_WITHIN_S = 120
AT = "2026-05-08T13:{:02d}:00+00:00"


@asynccontextmanager
async def api_server(
    settings: Settings, log: Path, *args: str, token: str | None = None
) -> AsyncIterator[LiveApi]:
    """``provmem api ARGS`` on ``settings`` until it answers; terminated afterwards
    (``token``: the API key it is driven with, else a new one for ``acme``)."""
    port = free_port()
    command = [sys.executable, "-m", "provmem.services.cli", "api", "--port", str(port), *args]
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, env=settings_env(settings), stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        await _answering(url, process, log)
        token = token or _token(settings)
        yield LiveApi(settings, url, {"Authorization": f"Bearer {token}"}, process)
    finally:
        if process.poll() is None:
            process.terminate()
        await _stopped(process, log)


async def _stopped(process: subprocess.Popen[bytes], log: Path) -> None:
    """Wait for a terminated API to exit (its stop applies what the log holds and closes
    its stores: slow on busy cores); one that does not is killed and its log's tail told."""
    try:
        await asyncio.to_thread(process.wait, STOP_WITHIN_S)
    except subprocess.TimeoutExpired:
        process.kill()
        await asyncio.to_thread(process.wait, 30)
        tail = log.read_text(errors="replace")[-4000:]
        raise AssertionError(f"the API did not stop within {STOP_WITHIN_S} s: {tail}") from None


def fresh(live: LiveApi) -> httpx.AsyncClient:
    """A client that opens a new connection for every request (any worker may take it)."""
    limits = httpx.Limits(max_keepalive_connections=0)
    return httpx.AsyncClient(base_url=live.url, headers=live.headers, timeout=120, limits=limits)


def scope_of(writer: int, turn: int) -> str:
    return f"acme/workers/u{writer}x{turn}"


def turn(writer: int, index: int) -> dict[str, Any]:
    town = "".join(chr(ord("a") + int(d)) for d in f"{writer}{index}")
    return {"scope": scope_of(writer, index), "speaker": "ana", "session": "s",
            "turn_id": f"t{writer}-{index}", "captured_at": AT.format(index),
            "text": f"I moved to Zorbel{town}ville in May."}  # fmt: skip


async def written_twice(live: LiveApi, writer: int) -> list[dict[str, Any]]:
    """Writer ``writer``'s turns, each posted twice at once: the two answers of each."""
    answers: list[dict[str, Any]] = []
    async with fresh(live) as client:
        for index in range(TURNS):
            body = {"turns": [turn(writer, index)]}
            pair = await asyncio.gather(*(client.post("/v1/turns", json=body) for _ in "ab"))
            assert [a.status_code for a in pair] == [200, 200], [a.text for a in pair]
            answers += [a.json()[0] for a in pair]
    return answers


async def every_read_sees(live: LiveApi, accepted: Sequence[str], rounds: int) -> None:
    """Every scope's facts, read ``rounds`` times on fresh connections: each accepted
    turn supports exactly one fact."""
    scopes = [scope_of(w, i) for w in range(WRITERS) for i in range(TURNS)]
    async with fresh(live) as client:
        for _ in range(rounds):
            facts = [f for s in scopes for f in await facts_of(client, s)]
            cited = sorted(e for f in facts for e in f["evidence_ids"])
            assert cited == sorted(accepted), (len(cited), len(accepted))


async def test_several_workers_accept_each_write_once_and_each_reads_all(tmp_path: Path) -> None:
    settings = embedded(tmp_path)
    started = time.monotonic()
    async with api_server(settings, tmp_path / "api.log", "--workers", str(WORKERS)) as live:
        children = Path(f"/proc/{live.process.pid}/task/{live.process.pid}/children")
        assert len(children.read_text().split()) >= WORKERS
        answers = await asyncio.gather(*(written_twice(live, w) for w in range(WRITERS)))
        results = [a for writer in answers for a in writer]
        statuses = sorted(r["status"] for r in results)
        assert statuses == ["accepted"] * (WRITERS * TURNS) + ["duplicate"] * (WRITERS * TURNS)
        accepted = [r["evidence_id"] for r in results if r["status"] == "accepted"]
        assert len(set(accepted)) == WRITERS * TURNS

        async def derived() -> bool:
            async with fresh(live) as client:
                facts = [f for s in [scope_of(0, TURNS - 1)] for f in await facts_of(client, s)]
            return bool(facts)

        await until(derived, "derived by the owning worker")
        await every_read_sees(live, accepted, rounds=3)
        readers = sorted(p.name for p in settings.data_dir.glob("vectors-r*") if p.is_dir())
        assert len(readers) >= 1, readers  # the workers beside the owner read their slots
        await erased_verified(live, scope_of(0, 0))
    print(f"{WORKERS} workers, {WRITERS * TURNS} turns: {time.monotonic() - started:.1f} s")


async def erased_verified(live: LiveApi, scope: str) -> None:
    """A subject erasure filed through whichever worker takes it: completed, verified."""
    async with fresh(live) as client:
        filed = await client.post("/v1/erasures", json={"scope": scope, "subject": True})
        assert filed.status_code == 202, filed.text
        request_id = filed.json()["request_id"]
        receipt: dict[str, Any] = {}

        async def completed() -> bool:
            nonlocal receipt
            answer = await client.get(f"/v1/erasures/{request_id}")
            receipt = answer.json()
            return answer.status_code == 200

        await until(completed, "erased")
        assert receipt["residue_found"] == 0, receipt
        assert await facts_of(client, scope) == []
