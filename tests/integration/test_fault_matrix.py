"""The fault matrix (issue 30, item 1): no accepted write is ever lost, no erased byte stays.

A running ``provmem api`` and a running ``provmem mcp --http`` server, each on its own
embedded data folder, are put through: concurrent writers with a CLI command on the same
folder beside them, a subject erasure, and a SIGKILL at a random point of ingest (turns
being written one by one), of an erasure (the server killed) and of a replay of the
turns (``provmem replay`` on the folder between two lives of the server: a full replay
runs where the folder's index is held, and an API key reaches one tenant only, so
``/v1/replays`` could only check scopes). The points are drawn from a seeded random
(the seed is printed; ``PROVMEM_FAULT_SEED`` sets it). After the last restart: every
turn whose write was acknowledged is on the log exactly once and in the evidence store
(but the erased subjects' turns), no erased quote's bytes are in any file of the
folder, and the next erasure is verified.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from mcp import Client

from provmem import AsyncMemory
from provmem.config import Settings
from tests.integration.test_api_workers import api_server
from tests.integration.test_findings_live_api import cli
from tests.integration.test_many_processes import turns_on_log
from tests.support.mcp_server import call, http_server, keyed

SEED = int(os.environ.get("PROVMEM_FAULT_SEED", random.randrange(2**32)))
AT = "2026-05-08T13:00:00+00:00"
WRITERS, TURNS = 3, 3


def quote(user: str, index: int) -> str:
    """A turn only ``user`` says: a rare word of its own (looked for in the bytes)."""
    return f"My locker code word is Zq{user}x{index}vorp and I live in Brelland."


def rare(user: str) -> bytes:
    return f"zq{user}x".encode()


class Served(Protocol):
    """A running server on a data folder, as the matrix drives it."""

    process: subprocess.Popen[Any]

    async def add(self, user: str, texts: list[str]) -> list[str]: ...

    async def erase(self, user: str) -> dict[str, Any]: ...


class Api:
    """``provmem api``: turns and erasures over HTTP."""

    def __init__(self, url: str, headers: dict[str, str], process: subprocess.Popen[Any]):
        self.url, self.headers, self.process = url, headers, process

    def _client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, headers=self.headers, timeout=60)

    async def add(self, user: str, texts: list[str]) -> list[str]:
        turns = [{"scope": f"default/default/{user}", "speaker": user, "session": "s",
                  "text": t, "captured_at": AT} for t in texts]  # fmt: skip
        async with self._client() as client:
            answer = await client.post("/v1/turns", json={"turns": turns})
        assert answer.status_code == 200, answer.text
        return [r["evidence_id"] for r in answer.json() if r["status"] == "accepted"]

    async def erase(self, user: str) -> dict[str, Any]:
        body = {"scope": f"default/default/{user}", "subject": True, "reason": "asked"}
        async with self._client() as client:
            filed = await client.post("/v1/erasures", json=body)
        assert filed.status_code == 202, filed.text
        receipt: dict[str, Any] = filed.json()
        return receipt


class Mcp:
    """``provmem mcp --http``: the agent's tools."""

    def __init__(self, url: str, token: str, process: subprocess.Popen[Any], folder: Path):
        self.url, self.token, self.process, self.folder = url, token, process, folder

    async def add(self, user: str, texts: list[str]) -> list[str]:
        messages = [{"role": "user", "content": t} for t in texts]
        async with Client(keyed(self.url, self.token)) as client:
            added = await call(client, "add_messages", messages=messages, user_id=user)
        return [r["evidence_id"] for r in added["results"] if r["status"] == "accepted"]

    async def erase(self, user: str) -> dict[str, Any]:
        async with Client(keyed(self.url, self.token)) as client:
            erased = await call(client, "erase", user_id=user, reason="asked")
        assert erased["status"] == "completed", erased
        receipt: dict[str, Any] = erased["receipt"]
        return receipt


@asynccontextmanager
async def served(kind: str, settings: Settings, logs: Path) -> AsyncIterator[Served]:
    """A ``kind`` server on the folder until the block ends (or it was killed)."""
    token = (logs / "token").read_text()
    if kind == "api":
        async with api_server(settings, logs / "api.log", token=token) as live:
            yield Api(live.url, live.headers, live.process)
        return
    with http_server(settings.data_dir, logs / "mcp.log") as server:
        yield Mcp(server.url, token, server.process, settings.data_dir)


def _token(settings: Settings) -> str:
    import json

    issued = cli(settings, "keys", "create", "--scope", "default", "--json")
    assert issued.returncode == 0, issued.stdout + issued.stderr
    return str(json.loads(issued.stdout)["token"])


async def killed_after(process: subprocess.Popen[Any], delay: float) -> None:
    await asyncio.sleep(delay)
    process.send_signal(signal.SIGKILL)
    await asyncio.to_thread(process.wait, 30)


@contextmanager
def timed(what: str, took: dict[str, float]) -> Iterator[None]:
    started = time.monotonic()
    yield
    took[what] = round(time.monotonic() - started, 1)


@pytest.mark.parametrize("kind", ["api", "mcp"])
async def test_no_accepted_write_is_lost_and_no_erased_byte_stays(
    kind: str, tmp_path: Path
) -> None:
    seed = SEED + (kind == "mcp")
    print(f"fault matrix {kind}: seed {seed} (PROVMEM_FAULT_SEED={SEED})")
    draw = random.Random(seed)
    settings = Settings(data_dir=tmp_path / "data", partitions=2)
    acked: dict[str, list[str]] = {}
    erased = {"victim", "w0"}
    took: dict[str, float] = {}
    (tmp_path / "token").write_text(_token(settings))  # outside the data folder

    with timed("writers, cli, killed ingest", took):
        async with served(kind, settings, tmp_path) as server:
            await writers_beside_a_cli(server, settings, acked)
            await ingest_killed(server, draw.uniform(0.05, 1.0), acked)

    with timed("killed erasure", took):
        async with served(kind, settings, tmp_path) as server:
            filing = asyncio.create_task(server.erase("victim"))
            await killed_after(server.process, draw.uniform(0.0, 1.5))
            await asyncio.gather(filing, return_exceptions=True)

    with timed("killed replay", took):
        await replay_killed(settings, tmp_path, draw.uniform(0.0, 1.5))

    with timed("restart, erasures", took):
        async with served(kind, settings, tmp_path) as server:
            for user in ("victim", "w0"):  # filed again (one erasure), then the next one
                receipt = await server.erase(user)
                assert receipt["residue_found"] == 0, (user, receipt)
                took[f"erasure of {user}"] = receipt["seconds_to_receipt"]

    with timed("checks", took):
        await every_acked_turn_is_kept(settings, acked, erased)
        no_erased_bytes(settings.data_dir, erased)
    served_log = (tmp_path / f"{kind}.log").read_text(errors="replace")  # mcp: its last life
    assert "Traceback" not in served_log, served_log[-3000:]  # the kills left nothing failing
    print(f"fault matrix {kind}: {took}")


async def writers_beside_a_cli(
    server: Served, settings: Settings, acked: dict[str, list[str]]
) -> None:
    """Four writers at once, and a CLI read of the same folder beside them."""
    users = ["victim", *(f"w{i}" for i in range(WRITERS))]

    async def write(user: str) -> None:
        for index in range(TURNS):
            acked.setdefault(user, []).extend(await server.add(user, [quote(user, index)]))

    listing = asyncio.to_thread(cli, settings, "facts", "default/default/w1", "--json")
    *_, listed = await asyncio.gather(*(write(u) for u in users), listing)
    assert listed.returncode == 0, listed.stderr


async def ingest_killed(server: Served, delay: float, acked: dict[str, list[str]]) -> None:
    """Turns written one by one until a SIGKILL after ``delay`` s: the acknowledged
    ones are kept in ``acked``."""

    async def write() -> None:
        for index in range(TURNS, 1000):
            acked.setdefault("w1", []).extend(await server.add("w1", [quote("w1", index)]))

    writing = asyncio.create_task(write())
    await killed_after(server.process, delay)
    await asyncio.gather(writing, return_exceptions=True)


async def replay_killed(settings: Settings, logs: Path, delay: float) -> None:
    """``provmem replay --from turns`` on the folder (the server is down: a replay runs
    where the folder's index is held), killed ``delay`` s after its new generation's
    files appeared (a replay that is done by then is not killed)."""
    folder = settings.data_dir
    before = set(folder.glob("views-g*"))
    command = [sys.executable, "-m", "provmem.services.cli", "replay", "--from", "turns",
               "--data-dir", str(folder)]  # fmt: skip
    with (logs / "replay.log").open("ab") as out:
        replay = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    while replay.poll() is None and set(folder.glob("views-g*")) <= before:
        await asyncio.sleep(0.02)
    await killed_after(replay, delay)


async def every_acked_turn_is_kept(
    settings: Settings, acked: dict[str, list[str]], erased: set[str]
) -> None:
    """On the log once each, and in the evidence store (but the erased subjects')."""
    kept = [i for user, ids in acked.items() if user not in erased for i in ids]
    async with AsyncMemory(str(settings.data_dir)) as memory:
        # no sync: the last server derived every turn before its erasures ran
        evidence = (await memory.open()).memory.components.evidence  # type: ignore[attr-defined]
        on_log = await turns_on_log(memory)
        missing = [i for i in kept if await evidence.get(i) is None]
    assert [i for i in kept if on_log.count(i) != 1] == [], "not on the log exactly once"
    assert missing == [], "acknowledged but not in the evidence store"
    gone = {i for user in erased for i in acked.get(user, [])}
    assert not gone & set(on_log), "an erased turn is still on the log"


def no_erased_bytes(folder: Path, erased: set[str]) -> None:
    sought = {rare(user) for user in erased}
    found = [
        (str(path.relative_to(folder)), word)
        for path in folder.rglob("*")
        if path.is_file()
        for word in sought
        if word in path.read_bytes().lower()
    ]
    assert found == [], found
