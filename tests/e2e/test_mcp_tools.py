"""What ``provmem mcp`` declares to an agent's client, read through the official SDK's
client: each tool's annotations (read-only, destructive, idempotent), typed output
schemas, clean descriptions; a server bound to one user; ``list_facts`` active-only by
default; and the one-line hint when the ``mcp`` extra is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import jsonschema
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from provmem import AsyncMemory, Memory
from provmem.services.mcp.server import build_server
from tests.support.mcp_server import call, server_command

READS = {"search", "list_facts", "fact_history"}
DESTRUCTIVE = {"erase", "retract_fact"}
IDEMPOTENT = READS | DESTRUCTIVE | {"correct_fact"}
WITH_USER = {"add_messages", "search", "list_facts", "erase"}


@asynccontextmanager
async def served(data_dir: Path) -> AsyncIterator[Client]:
    """The official client in one process with a server over a data folder (a fixture
    would close the client's task group from another task)."""
    async with AsyncMemory(data_dir) as memory, Client(build_server(memory)) as client:
        yield client


async def tools_of(client: Client) -> dict[str, Any]:
    return {tool.name: tool for tool in (await client.list_tools()).tools}


async def test_every_tool_says_what_it_does_to_memory(tmp_path: Path) -> None:
    async with served(tmp_path / "d") as client:
        tools = await tools_of(client)
        for name, tool in tools.items():
            hints = tool.annotations
            assert hints is not None and hints.title, name
            assert hints.read_only_hint is (name in READS), name
            assert hints.idempotent_hint is (name in IDEMPOTENT), name
            assert hints.open_world_hint is False, name
            if name not in READS:  # the spec's default for a writing tool is destructive
                assert hints.destructive_hint is (name in DESTRUCTIVE), name


async def test_descriptions_carry_no_docstring_indentation(tmp_path: Path) -> None:
    async with served(tmp_path / "d") as client:
        for name, tool in (await tools_of(client)).items():
            assert tool.description and "\n" not in tool.description.strip(), name
            assert "  " not in tool.description, (name, tool.description)


async def test_output_schemas_name_their_fields(tmp_path: Path) -> None:
    async with served(tmp_path / "d") as client:
        tools = await tools_of(client)
        for name, tool in tools.items():
            schema = tool.output_schema
            assert schema["type"] == "object" and schema["properties"], name
            assert schema.get("additionalProperties") is not True, name
        facts = tools["list_facts"].output_schema
        fact = facts["$defs"][facts["properties"]["facts"]["items"]["$ref"].split("/")[-1]]
        assert {"fact_id", "statement", "status", "evidence_ids"} <= set(fact["properties"])
        status = facts["$defs"]["FactStatus"]["enum"]
        assert set(status) == {"active", "superseded", "deleted", "needs-review"}
        erase = tools["erase"].output_schema
        assert {"status", "request_id", "receipt"} <= set(erase["properties"])
        assert "residue_found" in erase["$defs"]["ErasureCompleted"]["properties"]
        bundle = tools["search"].output_schema["$defs"]["BundleView"]
        assert {"fact", "statement", "score", "evidence"} <= set(bundle["properties"])


async def test_a_server_for_any_user_asks_for_user_id(tmp_path: Path) -> None:
    async with served(tmp_path / "d") as client:
        tools = await tools_of(client)
        for name in WITH_USER:
            assert "user_id" in tools[name].input_schema["required"], name
        refused = await client.call_tool("search", {"query": "x"})
        assert refused.is_error and "user_id" in str(refused.content)


async def test_results_match_their_output_schema(tmp_path: Path) -> None:
    async with served(tmp_path / "d") as client:
        tools = await tools_of(client)
        added = await call(client, "add_messages", messages="I live in Paris.", user_id="ann")
        jsonschema.validate(added, tools["add_messages"].output_schema)
        found = await call(client, "search", query="where does ann live", user_id="ann")
        jsonschema.validate(found, tools["search"].output_schema)
        assert found["bundles"][0]["fact"]["status"] == "active"


async def test_list_facts_holds_the_active_facts_unless_asked(tmp_path: Path) -> None:
    async with served(tmp_path / "d") as client:
        await call(client, "add_messages", messages="I live in Paris.", user_id="ann")
        (paris,) = (await call(client, "list_facts", user_id="ann"))["facts"]
        await call(client, "correct_fact", fact_id=paris["fact_id"], statement="Ann lives in Rome.")
        active = (await call(client, "list_facts", user_id="ann"))["facts"]
        assert [(f["statement"], f["status"]) for f in active] == [("Ann lives in Rome.", "active")]
        every = await call(client, "list_facts", user_id="ann", include_inactive=True)
        assert {f["statement"]: f["status"] for f in every["facts"]} == {
            "Ann lives in Paris.": "superseded",
            "Ann lives in Rome.": "active",
        }
        again = await client.call_tool(
            "correct_fact", {"fact_id": paris["fact_id"], "statement": "Ann lives in Rome."}
        )
        assert again.is_error and "superseded" in str(again.content)  # idempotent: no new fact


def bound(data_dir: Path, *flags: str, env: dict[str, str] | None = None) -> Client:
    """The real ``provmem mcp`` process over stdio, with these flags and environment."""
    command = server_command(data_dir, *flags)
    environment = dict(os.environ) | (env or {})
    return Client(StdioServerParameters(command=sys.executable, args=command, env=environment))


async def test_a_server_bound_to_one_user_serves_only_that_user(tmp_path: Path) -> None:
    data_dir = tmp_path / "d"
    with Memory(data_dir) as memory:
        memory.add("I live in Oslo.", user_id="bob")
        (bobs,) = memory.facts(user_id="bob")
    async with bound(data_dir, "--user-id", "ann") as client:
        tools = await tools_of(client)
        for name in WITH_USER:
            assert "user_id" not in tools[name].input_schema.get("required", []), name
        added = await call(client, "add_messages", messages="I live in Paris.")
        assert added["results"][0]["status"] == "accepted"
        found = await call(client, "search", query="where does ann live")
        assert found["bundles"][0]["evidence"][0]["speaker"] == "ann"
        assert (await call(client, "list_facts", user_id="ann"))["facts"]
        foreign = await client.call_tool("search", {"query": "where", "user_id": "bob"})
        assert foreign.is_error and "serves 'ann' only" in str(foreign.content)
        hidden = await client.call_tool("fact_history", {"fact_id": bobs.fact_id})
        assert hidden.is_error and "not found" in str(hidden.content)
        retract = {"fact_id": bobs.fact_id, "reason": "x"}
        assert (await client.call_tool("retract_fact", retract)).is_error
        into_bob = {"speaker": "Bob", "text": "I live in Rome.", "scope": "default/default/bob"}
        smuggled = await client.call_tool("add_messages", {"messages": [into_bob]})
        assert smuggled.is_error and "serves default/default/ann only" in str(smuggled.content)
    with Memory(data_dir) as memory:
        assert [f.status.value for f in memory.facts(user_id="bob")] == ["active"]


async def test_the_environment_binds_the_user_too(tmp_path: Path) -> None:
    async with bound(tmp_path / "d", env={"PROVMEM_MCP_USER_ID": "ann"}) as client:
        search = (await tools_of(client))["search"]
        assert search.input_schema["required"] == ["query"]
        foreign = await client.call_tool("list_facts", {"user_id": "bob"})
        assert foreign.is_error and "not permitted" in str(foreign.content)


#: ``provmem mcp`` in an interpreter where the MCP SDK cannot be imported (as without the
#: ``mcp`` extra).
WITHOUT_SDK = (
    "import sys; sys.modules['mcp'] = None; sys.argv = ['provmem', 'mcp'];"
    "from provmem.services.cli.app import main; main()"
)


def test_without_the_extra_one_line_says_how_to_install_it(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_SDK], capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 2 and run.stdout == ""
    (line,) = run.stderr.splitlines()
    assert line.startswith("provmem mcp needs the mcp extra: pip install 'provmem[mcp]'")
