"""bench/api: publish and query throughput over HTTP against the same calls in-process.

    python -m bench.api [--turns 200] [--batches 5] [--batch-size 100] [--queries 100]

Embedded runtime. The API runs as ``provmem api`` (uvicorn) in a child process on
127.0.0.1 with an API key; the client is httpx in this process. The baseline, measured in
the same run on a data folder of its own, calls :class:`provmem.services.memory.Memory`
directly. Measured, each over HTTP and in-process:

- single publish: one turn per call (turns/s of accepted turns);
- batch publish: ``--batch-size`` turns per call;
- ingest: batch publish then wait until every turn is derived (HTTP: ``GET /v1/facts``,
  which syncs; in-process: ``Memory.sync``), so both do the same total work — the API
  server also derives in the background while turns arrive (each phase starts with no
  backlog: the previous one is settled, untimed);
- query: sequential queries (queries/s), and over HTTP also 4 concurrent clients.

The ratio printed is in-process rate over HTTP rate (1x: no overhead).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from provmem.config import Settings
from provmem.services.api.auth import ApiKeys, open_key_store
from provmem.services.memory.logs import configure_logging
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build

PLACES = ("harbour", "library", "market", "station", "museum", "bakery", "stadium", "park")
QUERIES = ("where did I meet friend number 7", "who did I meet at the museum", "the bakery")
SCOPE_PREFIX = "bench/api"


def turns(kind: str, count: int) -> list[dict[str, Any]]:
    """``count`` distinct turns of one subject, a statement each."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        {
            "scope": f"{SCOPE_PREFIX}/{kind}",
            "speaker": "Sam",
            "turn_id": f"{kind}-{i}",
            "text": f"I met friend number {i} at the {PLACES[i % len(PLACES)]} in {1000 + i}.",
            "captured_at": (start + timedelta(seconds=i)).isoformat(),
        }
        for i in range(count)
    ]


def chunks(items: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


async def timed(work: Callable[[], Awaitable[int]]) -> tuple[int, float]:
    started = time.perf_counter()
    done = await work()
    return done, time.perf_counter() - started


class InProcess:
    """The baseline: the same operations on Memory, no HTTP."""

    def __init__(self, memory: MemoryService) -> None:
        self.memory = memory

    async def publish(self, batches: list[list[dict[str, Any]]]) -> int:
        accepted = 0
        for batch in batches:
            results = await self.memory.publish(batch)
            accepted += sum(r.status == "accepted" for r in results)
        return accepted

    async def ingest(self, batches: list[list[dict[str, Any]]]) -> int:
        accepted = await self.publish(batches)
        await self.settle(batches[0][0]["scope"])
        return accepted

    async def settle(self, scope: str) -> None:
        await self.memory.sync()

    async def query(self, scope: str, count: int) -> int:
        for i in range(count):
            await self.memory.query(scope, QUERIES[i % len(QUERIES)])
        return count


class OverHttp:
    """The same operations through the API with an API key."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def publish(self, batches: list[list[dict[str, Any]]]) -> int:
        accepted = 0
        for batch in batches:
            response = await self.http.post("/v1/turns", json={"turns": batch})
            response.raise_for_status()
            accepted += sum(r["status"] == "accepted" for r in response.json())
        return accepted

    async def ingest(self, batches: list[list[dict[str, Any]]]) -> int:
        accepted = await self.publish(batches)
        await self.settle(batches[0][0]["scope"])
        return accepted

    async def settle(self, scope: str) -> None:
        """``GET /v1/facts`` runs the server's pipeline until idle before answering."""
        (await self.http.get("/v1/facts", params={"scope": scope})).raise_for_status()

    async def query(self, scope: str, count: int, clients: int = 1) -> int:
        async def one_client(share: int) -> None:
            for i in range(share):
                body = {"scope": scope, "query": QUERIES[i % len(QUERIES)]}
                (await self.http.post("/v1/query", json=body)).raise_for_status()

        await asyncio.gather(*(one_client(count // clients) for _ in range(clients)))
        return count // clients * clients


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def api_key(settings: Settings) -> str:
    store = open_key_store(settings)
    try:
        return (await ApiKeys(store).create(SCOPE_PREFIX, name="bench")).token
    finally:
        await store.close()


def start_server(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROVMEM_")}
    env |= {"PROVMEM_DATA_DIR": str(data_dir), "PROVMEM_PARTITIONS": "4"}
    command = [sys.executable, "-m", "provmem.services.cli", "api", "--port", str(port)]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)  # noqa: S603


async def wait_ready(http: httpx.AsyncClient, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"provmem api exited with {server.returncode}")
        try:
            if (await http.get("/v1/ready")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.2)
    raise TimeoutError("provmem api not ready within 120 s")


async def measure(side: Any, args: argparse.Namespace, http_only: bool) -> dict[str, tuple]:
    """Every operation once on one side; returns name -> (count, seconds)."""
    results: dict[str, tuple] = {}
    single = [[t] for t in turns("single", args.turns)]
    results["publish, 1 turn per call"] = await timed(lambda: side.publish(single))
    await side.settle(f"{SCOPE_PREFIX}/single")  # untimed: each phase starts with no backlog
    batches = chunks(turns("batch", args.batches * args.batch_size), args.batch_size)
    results[f"publish, {args.batch_size} per call"] = await timed(lambda: side.publish(batches))
    await side.settle(f"{SCOPE_PREFIX}/batch")
    ingest = chunks(turns("ingest", args.batches * args.batch_size), args.batch_size)
    results["ingest (publish + derive)"] = await timed(lambda: side.ingest(ingest))
    scope = f"{SCOPE_PREFIX}/ingest"
    await side.query(scope, 3)  # warm the caches on both sides
    results["query, sequential"] = await timed(lambda: side.query(scope, args.queries))
    if http_only:
        results["query, 4 clients"] = await timed(lambda: side.query(scope, args.queries, 4))
    return results


async def baseline(root: Path, args: argparse.Namespace) -> dict[str, tuple]:
    components = await build(Settings(data_dir=root / "in-process", partitions=4))
    try:
        return await measure(InProcess(MemoryService(components)), args, http_only=False)
    finally:
        await components.close()


async def over_http(root: Path, args: argparse.Namespace) -> dict[str, tuple]:
    data_dir, port = root / "http", free_port()
    token = await api_key(Settings(data_dir=data_dir, partitions=4))
    server = start_server(data_dir, port)
    headers = {"Authorization": f"Bearer {token}"}
    try:
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=600
        ) as http:
            await wait_ready(http, server)
            return await measure(OverHttp(http), args, http_only=True)
    finally:
        server.terminate()
        server.wait(30)


def report(http: dict[str, tuple], local: dict[str, tuple]) -> None:
    print(f"{'operation':30} {'in-process':>14} {'HTTP':>14} {'in-process / HTTP':>18}")
    for name, (count, seconds) in http.items():
        rate = count / seconds
        unit = "q/s" if name.startswith("query") else "turns/s"
        base = local.get(name) or local["query, sequential"]
        base_rate = base[0] / base[1]
        print(
            f"{name:30} {base_rate:>10.1f} {unit:<3} {rate:>10.1f} {unit:<3}"
            f" {base_rate / rate:>17.2f}x   ({count} in {seconds:.2f} s)"
        )


async def main(args: argparse.Namespace) -> None:
    configure_logging("WARNING")
    with tempfile.TemporaryDirectory(prefix="bench-api-") as folder:
        root = Path(folder)
        local = await baseline(root, args)
        http = await over_http(root, args)
    report(http, local)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200, help="single-turn publishes")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--queries", type=int, default=100)
    asyncio.run(main(parser.parse_args()))
