"""The CLI on the data folder of a running embedded ``provmem api`` process (issue 17,
findings E3a and E3b), driven as an operator does: a real API process serves the folder,
and ``provmem query``, ``erase``, ``audit erasure`` and ``replay`` run on the same folder.

Each command either says in one line that a running API holds the folder (exit 2, no
traceback, nothing done) or works; in every case the API keeps its answers and nothing
is erased behind its back.

On 96a0921 ``query``, ``erase`` and ``audit erasure`` died with a VectorIndexLocked
traceback (the erasure still ran: the user got no receipt), and ``replay`` on the folder of
an API that had not answered yet switched a generation in under it: the API then answered
no bundle until a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.integration.test_findings_live_api import (
    LiveApi,
    api_process,
    cli,
    embedded,
    facts_of,
    until,
)
from tests.integration.test_findings_live_api import embedded_api as embedded_api  # fixture

SCOPE = "acme/support/alice"
TURNS = [
    {"text": "I live in Lyon.", "turn_id": "t1", "captured_at": "2026-05-08T13:00:00+00:00"},
    {"text": "I play chess.", "turn_id": "t2", "captured_at": "2026-05-08T13:01:00+00:00"},
]


async def answers(live: LiveApi) -> tuple[list[str], list[str]]:
    """What the API answers now: the facts of ``SCOPE`` and a query's bundles."""
    async with live.client() as client:
        facts = sorted(f["fact_id"] for f in await facts_of(client, SCOPE))
        query = await client.post("/v1/query", json={"scope": SCOPE, "query": "Where do I live?"})
    assert query.status_code == 200, query.text
    bundles: list[dict[str, Any]] = query.json()["bundles"]
    return facts, sorted(str(b) for b in bundles)


async def served_facts(live: LiveApi) -> tuple[tuple[list[str], list[str]], str]:
    """Publish ``TURNS`` and file an erasure of a session with no turn, over HTTP: the
    answers, and the erasure's request id."""
    async with live.client() as client:
        turns = [{"scope": SCOPE, "speaker": "Alice", "session": "s1", **t} for t in TURNS]
        assert (await client.post("/v1/turns", json={"turns": turns})).status_code == 200
        filed = await client.post("/v1/erasures", json={"scope": SCOPE, "session": "none"})
        assert filed.status_code in (200, 202), filed.text
    before = await answers(live)
    assert before[0] and before[1], before  # facts, and a query that finds one
    return before, str(filed.json()["request_id"])


def one_line_or_worked(run: Any) -> bool:
    """Exit 0, or exit 2 with one line naming the running API; never a traceback."""
    out = (run.stdout + run.stderr).strip()
    assert "Traceback" not in out, out
    refused = run.returncode == 2 and len(out.splitlines()) == 1 and "running provmem API" in out
    assert run.returncode == 0 or refused, out
    return bool(run.returncode == 0)


async def test_a_cli_query_erase_and_audit_beside_a_running_api(embedded_api: LiveApi) -> None:
    """E3a: each says so in one line (or works), and ``erase`` erases nothing it did not
    report."""
    before, request_id = await served_facts(embedded_api)
    settings = embedded_api.settings
    one_line_or_worked(cli(settings, "query", SCOPE, "Where do I live?"))
    one_line_or_worked(cli(settings, "audit", "erasure", request_id))
    erased = one_line_or_worked(cli(settings, "erase", SCOPE, "--subject"))
    assert embedded_api.process.poll() is None
    if erased:  # filed beside the API (issue 30, item 2): the API runs it at its next sync

        async def gone() -> bool:
            return (await answers(embedded_api))[0] == []

        await until(gone, "erased by the API")
    else:
        assert await answers(embedded_api) == before


async def test_a_cli_replay_beside_a_running_api_keeps_its_answers(tmp_path: Path) -> None:
    """E3b: turns ingested, an API started on the folder, and a replay run before the API
    answered anything: the replay refuses in one line or rebuilds, and the API then
    answers with the facts (on 96a0921 the replay switched a generation in under the API,
    which then answered no bundle until a restart)."""
    settings = embedded(tmp_path)
    turns = tmp_path / "turns.jsonl"
    lines = [json.dumps({"scope": SCOPE, "speaker": "Alice", "session": "s1", **t}) for t in TURNS]
    turns.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli(settings, "ingest", str(turns)).returncode == 0
    async with api_process(settings, tmp_path) as live:
        replayed = cli(settings, "replay")
        assert live.process.poll() is None
        facts, bundles = await answers(live)
        assert facts and bundles, replayed.stdout + replayed.stderr
        one_line_or_worked(replayed)
