"""No accepted turn is lost after an erasure beside a running server (issue 30, item 1).

A real ``provmem api`` process (and, the same way, a real ``provmem mcp`` server over
streamable HTTP) serves an embedded data folder: a turn is added and derived, its
subject erased, then a CLI command runs on the same folder, a later turn is accepted,
and the server is SIGKILLed. After a restart the later turn and its fact are there and
the next erasure succeeds.

Before the fix the erasure's byte audit open()ed and closed the folder's SQLite files
inside the server, which dropped the server's POSIX locks on them (sqlite.org, "How To
Corrupt An SQLite Database File", 2.2): the CLI's last connection then believed it was
alone, checkpointed and deleted ``log.db-wal`` and ``views.db-wal`` (they showed as
deleted in /proc/PID/fd), the later turn went to the deleted WAL and was lost with the
SIGKILL, and the next erasure answered 500 "disk I/O error".
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import httpx
from mcp import Client

from provmem import AsyncMemory
from provmem.config import Settings
from provmem.services.api.auth import ApiKeys, open_key_store
from tests.integration.test_findings_live_api import (
    LiveApi,
    api_process,
    cli,
    embedded,
    facts_of,
    until,
)
from tests.support.mcp_server import call, http_server, keyed

FIRST = "acme/support/zed"
LATER = "acme/support/amy"
WHEN = "2026-05-08T13:{:02d}:00+00:00"


def turn(scope: str, text: str, minute: int) -> dict[str, Any]:
    return {"scope": scope, "speaker": "user", "session": "s1", "text": text,
            "turn_id": f"t{minute}", "captured_at": WHEN.format(minute)}  # fmt: skip


async def accepted(client: httpx.AsyncClient, scope: str, text: str, minute: int) -> None:
    """Publish one turn over HTTP (accepted) and wait until it supports a fact."""
    answer = await client.post("/v1/turns", json={"turns": [turn(scope, text, minute)]})
    assert answer.status_code == 200, answer.text
    assert [r["status"] for r in answer.json()] == ["accepted"], answer.text
    evidence_id = answer.json()[0]["evidence_id"]

    async def derived() -> bool:
        return any(evidence_id in f["evidence_ids"] for f in await facts_of(client, scope))

    await until(derived, f"derived ({scope})")


async def erased(client: httpx.AsyncClient, scope: str) -> dict[str, Any]:
    """Erase a subject over HTTP: its receipt (the embedded runtime erases at once; 202
    while its audit found residue)."""
    answer = await client.post("/v1/erasures", json={"scope": scope, "subject": True})
    assert answer.status_code in (200, 202), answer.text
    receipt: dict[str, Any] = answer.json()
    return receipt


def deleted_database_files(pid: int) -> list[str]:
    """The files a process holds open that were deleted under it (a WAL another process
    removed is one of them: what is written there is lost)."""
    found = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except FileNotFoundError:
            continue  # closed meanwhile
        if target.endswith("(deleted)") and ".db" in target:
            found.append(target)
    return found


async def killed(live: LiveApi) -> None:
    live.process.send_signal(signal.SIGKILL)
    await asyncio.to_thread(live.process.wait, 60)


async def test_a_turn_accepted_after_an_erasure_and_a_cli_command_survives_a_kill(
    tmp_path: Path,
) -> None:
    settings = embedded(tmp_path)
    async with api_process(settings, tmp_path) as live, live.client() as client:
        await accepted(client, FIRST, "My name is Zed and I collect Quillfeather pens.", 1)
        assert (await erased(client, FIRST))["evidence_erased"] == 1
        beside = cli(settings, "query", FIRST, "where")  # refused or answered: either way
        assert "Traceback" not in beside.stderr, beside.stderr
        assert not deleted_database_files(live.process.pid)
        await accepted(client, LATER, "My favourite food is ramen.", 2)
        await killed(live)
    async with api_process(settings, tmp_path) as again, again.client() as client:
        facts = await facts_of(client, LATER)
        assert any("ramen" in f["statement"].lower() for f in facts), facts
        receipt = await erased(client, LATER)
        assert receipt["evidence_erased"] == 1, receipt
        assert not deleted_database_files(again.process.pid)


async def test_an_mcp_server_keeps_a_turn_accepted_after_an_erasure_and_a_cli_command(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path / "d")
    store = open_key_store(settings)
    token = (await ApiKeys(store).create("default")).token
    await store.close()
    with http_server(settings.data_dir, tmp_path / "mcp.log") as server:
        process = server.process
        async with Client(keyed(server.url, token)) as client:
            said = "My name is Zed and I collect Quillfeather pens."
            await call(client, "add_messages", messages=said, user_id="zed")
            receipt = (await call(client, "erase", user_id="zed"))["receipt"]
            assert receipt["evidence_erased"] == 1, receipt
            beside = cli(settings, "query", "default/default/zed", "where")
            assert "Traceback" not in beside.stderr, beside.stderr
            assert not deleted_database_files(process.pid)
            later = await call(client, "add_messages", messages="I love ramen.", user_id="amy")
            assert later["results"][0]["status"] == "accepted"
            evidence = later["results"][0]["evidence_id"]

            async def derived() -> bool:
                listed = await call(client, "list_facts", user_id="amy")
                return any(evidence in f["evidence_ids"] for f in listed["facts"])

            await until(derived, "derived (amy)")
        process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(process.wait, 60)
    async with AsyncMemory(settings=settings) as memory:
        facts = await memory.facts(user_id="amy")
        assert any(evidence in f.evidence_ids for f in facts), facts
        assert (await memory.erase(user_id="amy")).evidence_erased == 1
