"""Any identifier a builder has (an email, an identity provider's id, a name with spaces
or accents) is a user, agent or run id: on the embedded runtime, against a server, on
the CLI; it never becomes a path, and erasing the user leaves no trace of it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from provmem import Memory
from provmem.config import Settings
from provmem.core.events import ErasureCompleted
from provmem.services.api.app import create_api
from tests.e2e.test_api import issue
from tests.e2e.test_cli import provmem
from tests.e2e.test_client import serving
from tests.e2e.test_facade import memory  # noqa: F401 - the fixture: embedded and remote
from tests.e2e.test_mcp import call
from tests.e2e.test_mcp_tools import served

AT = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
IDS = ["alice@example.com", "auth0|5f7c8e", "user:42", "Zoë Martín", "../../etc/passwd"]


@pytest.mark.parametrize("user_id", IDS)
def test_any_id_remembers_recalls_and_erases(memory: Memory, user_id: str) -> None:  # noqa: F811
    memory.add(
        [{"role": "user", "content": "I live in Porto."}],
        user_id=user_id,
        session_id="run #1 / today",
        at=AT,
    )
    scope = memory.scope(user_id)
    assert scope.startswith("default/default/sid0.") and scope.count("/") == 2
    (fact,) = memory.facts(user_id=user_id)
    assert "Porto" in fact.statement and fact.scope.key == scope
    assert memory.facts(user_id="alice") == []  # another id, another scope
    found = memory.search("Where do I live?", user_id=user_id)
    assert any("Porto" in bundle.statement for bundle in found)
    receipt = memory.erase(user_id=user_id, reason="asked")
    assert isinstance(receipt, ErasureCompleted) and receipt.residue_found == 0
    assert memory.facts(user_id=user_id) == []


@pytest.mark.parametrize(("user_id", "rule"), [("", "non-empty"), ("x" * 257, "256")])
def test_a_bad_id_is_one_clear_error(memory: Memory, user_id: str, rule: str) -> None:  # noqa: F811
    with pytest.raises(ValueError, match=f"^user_id: must be a {rule}|^user_id: .*{rule}"):
        memory.add("hi", user_id=user_id)


def test_the_cli_takes_any_id_in_a_scope_and_no_folder_is_named_after_it(tmp_path: Path) -> None:
    data = tmp_path / "d"
    with Memory(data) as local:
        local.add("I live in Porto.", user_id="alice@example.com", at=AT)
    run = provmem("facts", "default/default/alice@example.com", "--data-dir", str(data), "--json")
    assert run.returncode == 0, run.stderr
    assert any("Porto" in fact["statement"] for fact in json.loads(run.stdout))
    names = [path.name for path in data.rglob("*")]
    assert not any("alice" in name or "example.com" in name for name in names)
    bad = provmem("facts", "default/default/", "--data-dir", str(data))
    assert bad.returncode == 2 and "scope.user" in bad.stderr


def test_the_http_api_takes_any_id_in_a_scope(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    headers = issue(settings, "acme/app")
    scope = "acme/app/auth0|5f7c8e"
    turn = {"scope": scope, "text": "I live in Porto.", "speaker": "Ann"}
    turn |= {"captured_at": AT.isoformat(), "session": "run 7"}
    with serving(create_api(settings)) as url, httpx.Client(base_url=url, headers=headers) as c:
        published = c.post("/v1/turns", json={"turns": [turn]})
        assert published.status_code == 200 and published.json()[0]["status"] == "accepted"
        facts = c.get("/v1/facts", params={"scope": scope}).json()
        assert any("Porto" in f["statement"] for f in facts), facts
        assert facts[0]["scope"]["user"].startswith("sid0.")
        bad = c.get("/v1/facts", params={"scope": "acme/app/"})
        assert bad.status_code == 422 and "scope.user" in bad.text
        foreign = c.get("/v1/facts", params={"scope": "acme/other/auth0|5f7c8e"})
        assert foreign.status_code == 403


async def test_mcp_tools_take_any_id(tmp_path: Path) -> None:
    async with served(tmp_path / "d") as client:
        await call(client, "add_messages", messages="I live in Porto.", user_id="user:42")
        (fact,) = (await call(client, "list_facts", user_id="user:42"))["facts"]
        assert "Porto" in fact["statement"]
        assert (await call(client, "list_facts", user_id="user 42"))["facts"] == []
        refused = await client.call_tool("search", {"query": "x", "user_id": "x" * 257})
        assert refused.is_error and "user_id" in str(refused.content)
