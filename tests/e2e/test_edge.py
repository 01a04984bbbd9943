"""The API's edge, driven over real HTTP: authentication before the body, a body-size
limit, 422 (never 500) for strings that are not valid Unicode and for bodies nested too
deeply, per-turn results in a batch, bounded Last-Event-ID parsing.

Each of these failed on 96a0921: the body was read (150 MB into memory) before the 401,
a lone surrogate answered 500 and lost the batch's good turns, and a huge Last-Event-ID
offset killed the stream."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from provmem.config import Settings
from provmem.services.api.app import create_api
from tests.e2e.test_subscriptions import issue_key, served
from tests.harness import SCOPE, said

HUNDRED_FIFTY_MB = 150 * 1024 * 1024


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[str, dict[str, str]]]:
    settings = Settings(data_dir=tmp_path / "data", partitions=2, api_max_body_bytes=1 << 20)
    token = await issue_key(settings, "acme")
    async with served(create_api(settings)) as url:
        yield url, {"Authorization": f"Bearer {token}"}


async def _status_of_a_declared_body(url: str, headers: dict[str, str]) -> bytes:
    """Send only the headers of a 150 MB POST and read the answer: a server that waited
    for the body would never answer."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    lines = [
        "POST /v1/turns HTTP/1.1",
        f"Host: {host}",
        "Content-Type: application/json",
        f"Content-Length: {HUNDRED_FIFTY_MB}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), 60)
    writer.close()
    return status


async def test_a_big_body_without_a_key_is_refused_before_it_is_read(
    api: tuple[str, dict[str, str]],
) -> None:
    url, headers = api
    assert b" 401 " in await _status_of_a_declared_body(url, {})
    assert b" 413 " in await _status_of_a_declared_body(url, headers)


async def test_a_body_over_the_limit_is_cut_off_with_413(api: tuple[str, dict[str, str]]) -> None:
    url, headers = api
    turns = [said(f"t{n}", "x" * 60_000, minute=n) for n in range(20)]  # ~1.2 MB
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as client:
        answer = await client.post("/v1/turns", content=_chunks(json.dumps({"turns": turns})))
    assert answer.status_code == 413


async def _chunks(text: str) -> AsyncIterator[bytes]:
    """A body without Content-Length (chunked): the limit holds while it is read."""
    data = text.encode()
    for start in range(0, len(data), 65_536):
        yield data[start : start + 65_536]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/query", {"scope": SCOPE, "query": "where\udc80"}, ["body", "query"]),
        ("/v1/query", {"scope": "acme/support/\ud800", "query": "x"}, ["body", "scope"]),
        ("/v1/erasures", {"scope": SCOPE, "session": "s\udc80"}, ["body", "session"]),
        (
            "/v1/erasures",
            {"scope": SCOPE, "evidence_ids": ["ev_\udc80"]},
            ["body", "evidence_ids", 0],
        ),
        ("/v1/facts/fact_x/correct", {"statement": "\udc80", "by": "me"}, ["body", "statement"]),
        ("/v1/turns", {"turns": [{"\udc80": 1}]}, ["body", "turns", 0, "\udc80"]),
    ],
)
async def test_a_lone_surrogate_anywhere_is_a_422_naming_the_field(
    api: tuple[str, dict[str, str]], path: str, body: dict[str, object], field: list[object]
) -> None:
    url, headers = api
    raw = json.dumps(body)  # ensure_ascii: the surrogate travels as \\udc80, as a client sends it
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as client:
        answer = await client.post(path, content=raw, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"] == field


async def test_a_body_nested_100k_deep_is_a_422(api: tuple[str, dict[str, str]]) -> None:
    url, headers = api
    deep = '{"scope": "acme/support/alice", "query": ' + "[" * 100_000 + "]" * 100_000 + "}"
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as client:
        answer = await client.post("/v1/query", content=deep)
    assert answer.status_code == 422, answer.text


async def test_a_bad_turn_in_a_batch_costs_no_good_one(api: tuple[str, dict[str, str]]) -> None:
    url, headers = api
    good, bad = said("t1", "I live in Lyon."), {**said("t2", "I play chess."), "agent": "\udc80"}
    spaced = {**said("t3", "I like tea."), "session": "s" * 257}  # over the 256-char id rule
    raw = json.dumps({"turns": [good, bad, spaced]})
    headers = {**headers, "Content-Type": "application/json"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as client:
        first = await client.post("/v1/turns", content=raw)
        again = await client.post("/v1/turns", content=raw)
        changed = await client.post("/v1/turns", json={"turns": [{**good, "text": "Oslo."}]})
    assert first.status_code == 200, first.text
    assert [r["status"] for r in first.json()] == ["accepted", "rejected", "rejected"]
    assert first.json()[1]["error"].startswith("agent:")
    assert first.json()[2]["error"].startswith("session:")
    assert [r["status"] for r in again.json()] == ["duplicate", "rejected", "rejected"]
    assert [r["status"] for r in changed.json()] == ["conflict"]


@pytest.mark.parametrize("event_id", ["0:99999999999999999999", "0:1" + "0" * 5000, "1:1"])
async def test_a_bad_last_event_id_is_a_422(api: tuple[str, dict[str, str]], event_id: str) -> None:
    url, headers = api
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as client:
        answer = await client.get(
            f"/v1/scopes/{SCOPE}/changes", headers={"Last-Event-ID": event_id}
        )
    assert answer.status_code == 422, answer.text
