"""The HTTP edge of a real ``provmem api`` process (issue 17, findings L1, L3, L4, E1,
E2, E4e), driven only through HTTP so that the same test runs on every version.

On 96a0921: a 150 MB body was read before the 401 and had no limit; a lone surrogate in
a query, erasure or correction body answered 500; a surrogate in ``agent`` failed the
whole batch (500) after the good turns' ids were reserved, so a retry answered them
``duplicate`` and they never reached the log; a session with a space was ``accepted``;
a reused turn id with another text was ``duplicate``; and a Last-Event-ID offset past
64 bits killed the stream with OverflowError."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from provmem.config import Settings
from tests.conftest import unique_prefix
from tests.integration.test_findings_live_api import LiveApi, api_process, facts_of, until

SCOPE = "acme/support/alice"
LIMIT = 1 << 20
JSON = {"Content-Type": "application/json"}


def said(turn_id: str, text: str, **fields: str) -> dict[str, str]:
    turn = {"scope": SCOPE, "speaker": "Alice", "session": "s1", "turn_id": turn_id}
    return {**turn, "text": text, "captured_at": "2026-05-08T13:00:00+00:00", **fields}


@pytest.fixture
async def edge(tmp_path: Path) -> AsyncIterator[LiveApi]:
    settings = Settings(
        data_dir=tmp_path / "data",
        partitions=2,
        topic_prefix=unique_prefix(),
        api_max_body_bytes=LIMIT,  # a setting 96a0921 did not have (ignored there)
    )
    async with api_process(settings, tmp_path) as live:
        yield live


async def first_line_of_a_declared_post(live: LiveApi, headers: dict[str, str]) -> bytes:
    """The status line answered to the headers of a 150 MB POST whose body is never
    sent: a server that reads the body first answers nothing (read as a timeout)."""
    host, port = live.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    head = ["POST /v1/turns HTTP/1.1", f"Host: {host}", "Content-Type: application/json"]
    head += [f"Content-Length: {150 << 20}", *(f"{k}: {v}" for k, v in headers.items())]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.readline(), 30)
    except TimeoutError:
        return b"no answer before the body"
    finally:
        writer.close()


async def test_auth_comes_before_the_body_and_the_body_has_a_limit(edge: LiveApi) -> None:
    """E1."""
    assert b" 401 " in await first_line_of_a_declared_post(edge, {})
    assert b" 413 " in await first_line_of_a_declared_post(edge, edge.headers)


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/query", {"scope": SCOPE, "query": "where\udc80"}, ["body", "query"]),
        ("/v1/erasures", {"scope": SCOPE, "session": "s\udc80"}, ["body", "session"]),
        (
            "/v1/erasures",
            {"scope": SCOPE, "evidence_ids": ["ev_\udc80"]},
            ["body", "evidence_ids", 0],
        ),
        ("/v1/facts/fact_x/correct", {"statement": "\udc80", "by": "me"}, ["body", "statement"]),
    ],
)
async def test_a_lone_surrogate_is_a_422_naming_its_field(
    edge: LiveApi, path: str, body: dict[str, str], field: list[str]
) -> None:
    """E2: the body as a client sends it (JSON escapes the surrogate as \\udc80)."""
    async with edge.client() as client:
        answer = await client.post(path, content=json.dumps(body), headers=JSON)
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"] == field


async def test_a_surrogate_in_agent_costs_no_good_turn(edge: LiveApi) -> None:
    """L1: per-turn results; the good turn reaches the log and becomes a fact."""
    good = said("t1", "I live in Lyon.")
    raw = json.dumps({"turns": [good, said("t2", "I play chess.", agent="\udc80")]})
    async with edge.client() as client:
        first = await client.post("/v1/turns", content=raw, headers=JSON)
        again = await client.post("/v1/turns", json={"turns": [good]})

        async def a_fact_of_the_good_turn() -> bool:
            return any("Lyon" in f["statement"] for f in await facts_of(client, SCOPE))

        assert first.status_code == 200, first.text
        assert [(r["status"], field_of(r)) for r in first.json()] == [
            ("accepted", ""),
            ("rejected", "agent"),
        ]
        assert [r["status"] for r in again.json()] == ["duplicate"]
        await until(a_fact_of_the_good_turn, "a fact of the good turn")


def field_of(result: dict[str, str | None]) -> str:
    return (result.get("error") or "").split(":")[0]


async def test_a_session_id_over_the_limit_is_rejected(edge: LiveApi) -> None:
    """L3: refused at the edge, never accepted to dead-letter later."""
    async with edge.client() as client:
        spaced = said("t3", "I like tea.", session="s" * 257)
        answer = await client.post("/v1/turns", json={"turns": [spaced]})
    assert [(r["status"], field_of(r)) for r in answer.json()] == [("rejected", "session")]


async def test_a_reused_turn_id_with_another_text_is_a_conflict(edge: LiveApi) -> None:
    """L4."""
    good = said("t1", "I live in Lyon.")
    async with edge.client() as client:
        await client.post("/v1/turns", json={"turns": [good]})
        changed = await client.post("/v1/turns", json={"turns": [{**good, "text": "Oslo."}]})
    assert [r["status"] for r in changed.json()] == ["conflict"]


@pytest.mark.parametrize("event_id", ["0:99999999999999999999", "0:1" + "0" * 5000])
async def test_a_last_event_id_past_any_offset_is_a_422(edge: LiveApi, event_id: str) -> None:
    """E4e."""
    async with edge.client() as client:
        answer = await client.get(
            f"/v1/scopes/{SCOPE}/changes", headers={"Last-Event-ID": event_id}
        )
    assert answer.status_code == 422, answer.text
