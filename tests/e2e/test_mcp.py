"""``provmem mcp`` as an agent's MCP client sees it: the official SDK's client against the
real server process, over stdio and over streamable HTTP behind an API key."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from provmem import Memory
from provmem.config import Settings
from provmem.services.api.auth import ApiKeys, open_key_store
from tests.support.mcp_server import call, http_server, keyed, server_command

TOOLS = {
    "add_messages",
    "search",
    "list_facts",
    "fact_history",
    "correct_fact",
    "retract_fact",
    "erase",
}
CHAT = [
    {"role": "user", "content": "I live in Paris."},
    {"role": "assistant", "content": "Got it."},
]


async def test_an_agent_remembers_searches_corrects_and_erases_over_stdio(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=server_command(tmp_path / "d"), env=dict(os.environ)
    )
    async with Client(params) as client:
        assert TOOLS <= {tool.name for tool in (await client.list_tools()).tools}
        added = await call(client, "add_messages", messages=CHAT, user_id="ann")
        assert [r["status"] for r in added["results"]] == ["accepted", "accepted"]
        found = await call(client, "search", query="where does ann live", user_id="ann")
        top = found["bundles"][0]
        assert "Paris" in top["statement"]
        assert top["evidence"][0]["quote"] == "I live in Paris."
        assert top["evidence"][0]["evidence_id"] == added["results"][0]["evidence_id"]
        fact_id = top["fact"]["fact_id"]
        listed = await call(client, "list_facts", user_id="ann")
        assert fact_id in {f["fact_id"] for f in listed["facts"]}
        history = await call(client, "fact_history", fact_id=fact_id)
        assert history["evidence"][0]["speaker"] == "ann"
        await call(client, "correct_fact", fact_id=fact_id, statement="Ann lives in Rome.")
        resource = await client.read_resource("provmem://users/ann/facts")
        facts = json.loads(resource.contents[0].text)["facts"]
        assert {f["statement"]: f["status"] for f in facts} == {
            "Ann lives in Paris.": "superseded",
            "Ann lives in Rome.": "active",
        }
        missing = await client.call_tool("fact_history", {"fact_id": "fact_nope"})
        assert missing.is_error and "not found" in str(missing.content)
        receipt = await call(client, "erase", user_id="ann", reason="asked")
        assert receipt["status"] == "completed" and receipt["request_id"].startswith("er_")
        assert receipt["receipt"]["residue_found"] == 0
        listed = await call(client, "list_facts", user_id="ann", include_inactive=True)
        assert listed["facts"] == []


async def test_streamable_http_needs_an_api_key_and_keeps_to_its_scope(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d")
    store = open_key_store(settings)
    token = (await ApiKeys(store).create("default/default/ann")).token
    await store.close()
    with http_server(settings.data_dir, tmp_path / "mcp.log") as server:
        url = server.url
        assert httpx.post(url, json={}).status_code == 401
        with pytest.raises(Exception):  # noqa: B017 - the SDK's error type varies by layer
            async with Client(keyed(url, "pmk_0000000000000000_wrong")) as refused:
                await refused.list_tools()
        async with Client(keyed(url, token)) as client:
            added = await call(client, "add_messages", messages="I play the cello.", user_id="ann")
            assert added["results"][0]["status"] == "accepted"
            found = await call(client, "search", query="instrument", user_id="ann")
            assert found["bundles"][0]["evidence"][0]["quote"] == "I play the cello."
            foreign = await client.call_tool("list_facts", {"user_id": "bob"})
            assert foreign.is_error and "not permitted" in str(foreign.content)


async def test_a_message_naming_another_scope_is_refused_over_http(tmp_path: Path) -> None:
    """add_messages takes provmem turns too; a turn's own ``scope`` must be within the API
    key's scope like ``user_id``, or a key of Ann's writes into Bob's memory."""
    settings = Settings(data_dir=tmp_path / "d")
    store = open_key_store(settings)
    token = (await ApiKeys(store).create("default/default/ann")).token
    await store.close()
    into_bob = {"speaker": "Bob", "text": "I live in Quetzalbrook.", "scope": "default/default/bob"}
    with http_server(settings.data_dir, tmp_path / "mcp.log") as server:
        url = server.url
        async with Client(keyed(url, token)) as client:
            refused = await client.call_tool(
                "add_messages", {"messages": [into_bob], "user_id": "ann"}
            )
            assert refused.is_error and "not permitted" in str(refused.content), refused
    with Memory(settings.data_dir) as memory:
        assert memory.facts(user_id="bob") == []
