"""A Mem0 quickstart, written against Mem0's documented API (1.x and 2.x forms), runs on
provmem with only the import changed: on the embedded runtime and against a real
``provmem api`` (``url=``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from provmem.config import Settings
from provmem.mem0 import AsyncMemory, Memory
from provmem.services.api.app import create_api
from provmem.services.sdk.facade_mem0 import matches
from tests.e2e.test_api import issue
from tests.e2e.test_client import serving

USER = "alice@example.com"  # Mem0 users pass emails
CHAT = [
    {"role": "user", "content": "I'm planning to watch a movie tonight."},
    {"role": "assistant", "content": "How about thriller movies?"},
    {"role": "user", "content": "I'm not a big fan of thriller movies but I love sci-fi movies."},
]


def quickstart_v1(m: Any, metadata: dict[str, Any] | None) -> dict[str, Any]:
    """Mem0 1.x: ids and limit as keywords, update(memory_id, data)."""
    added = m.add(CHAT, user_id=USER, metadata=metadata)["results"]
    found = m.search("What movies does alice like?", user_id=USER, limit=3)["results"]
    every = m.get_all(user_id=USER)["results"]
    first = m.get(every[0]["id"])
    m.update(every[0]["id"], data="Alice loves science fiction films.")
    changes = m.history(every[0]["id"])
    return {"added": added, "found": found, "every": every, "first": first, "changes": changes}


def quickstart_v2(m: Any, metadata: dict[str, Any] | None) -> dict[str, Any]:
    """Mem0 2.x: filters={"user_id": ...}, top_k, threshold, update(id, text=, metadata=)."""
    added = m.add(CHAT, user_id=USER, metadata=metadata)["results"]
    who = {"user_id": USER}
    found = m.search("What movies does alice like?", filters=who, top_k=3, threshold=0.0)
    every = m.get_all(filters=who, top_k=20)["results"]
    first = m.get(every[0]["id"])
    m.update(every[0]["id"], text="Alice loves science fiction films.")
    changes = m.history(every[0]["id"])
    return {
        "added": added,
        "found": found["results"],
        "every": every,
        "first": first,
        "changes": changes,
    }


@pytest.fixture(params=["embedded", "remote"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    if request.param == "embedded":
        with Memory.from_config({"path": str(settings.data_dir)}) as local:
            yield local
        return
    token = issue(settings, "default")["Authorization"].removeprefix("Bearer ")
    with serving(create_api(settings)) as url, Memory(url=url, api_key=token) as remote:
        yield remote


@pytest.mark.parametrize("quickstart", [quickstart_v1, quickstart_v2])
def test_a_mem0_quickstart_runs_with_only_the_import_changed(
    memory: Memory, quickstart: Any, request: pytest.FixtureRequest
) -> None:
    local = "embedded" in request.node.callspec.id
    run = quickstart(memory, {"category": "movies"} if local else None)
    assert {item["event"] for item in run["added"]} == {"ADD"}
    assert any("sci-fi" in item["memory"] for item in run["added"]), run["added"]
    for item in [*run["added"], *run["found"], *run["every"], run["first"]]:
        assert {"id", "memory", "hash", "metadata", "created_at", "updated_at"} <= set(item)
        assert item["status"] == "active" and item["evidence_ids"]
    assert all(item["user_id"] == USER for item in run["found"] + run["every"])
    assert all(0.0 <= item["score"] <= 1.0 for item in run["found"])
    assert run["found"][0]["evidence"][0]["quote"]  # provmem's evidence beside Mem0's keys
    if local:
        assert run["every"][0]["metadata"] == {"category": "movies"}
    assert [c["event"] for c in run["changes"]] == ["ADD", "UPDATE"]
    assert run["changes"][1]["new_memory"] == "Alice loves science fiction films."
    assert run["changes"][1]["old_memory"] == run["every"][0]["memory"]
    statements = [item["memory"] for item in memory.get_all(user_id=USER)["results"]]
    assert "Alice loves science fiction films." in statements  # active only: no old version
    assert run["every"][0]["memory"] not in statements


def test_delete_retracts_and_delete_all_erases_with_a_receipt(memory: Memory) -> None:
    memory.add("I live in Porto. I have a dog named Rex.", user_id=USER, run_id="chat-1")
    memory.add("I work as a nurse.", user_id=USER, run_id="chat-2")
    every = memory.get_all(user_id=USER)["results"]
    assert {item["run_id"] for item in every} == {"chat-1", "chat-2"}
    assert memory.get_all(user_id=USER, run_id="chat-2")["results"][0]["memory"].endswith("nurse.")
    gone = every[0]
    assert memory.delete(gone["id"]) == {"message": "Memory deleted successfully!"}
    assert memory.get(gone["id"])["status"] == "deleted"  # retracted, the trail kept
    assert [c["event"] for c in memory.history(gone["id"])][-1] == "DELETE"
    erased = memory.delete_all(user_id=USER)
    assert erased["receipt"]["residue_found"] == 0 and erased["receipt"]["evidence_erased"] == 3
    assert memory.get_all(user_id=USER) == {"results": []}
    assert memory.get(gone["id"]) is None


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda m: m.search("x", user_id=USER, limit=0), "limit"),
        (lambda m: m.search("x", filters={"user_id": USER}, top_k=-1), "top_k"),
        (lambda m: m.get_all(user_id=USER, limit=0), "limit"),
        (lambda m: m.search("x"), "user_id"),
        (lambda m: m.add("hi", user_id=""), "user_id"),
        (lambda m: m.get_all(filters={"user_id": USER, "n": {"like": 1}}), "unknown operator"),
    ],
)
def test_bad_calls_name_the_field(memory: Memory, call: Any, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        call(memory)


def test_metadata_filters_and_reset(tmp_path: Path) -> None:
    with Memory(tmp_path / "d") as m:
        m.add("I love hiking in the Alps.", user_id="bob", metadata={"topic": "sport", "n": 3})
        m.add("I am allergic to peanuts.", user_id="bob", metadata={"topic": "health", "n": 7})
        topics = {
            "eq": {"topic": "sport"},
            "in": {"topic": {"in": ["health", "food"]}},
            "gte": {"n": {"gte": 5}},
            "not": {"NOT": [{"topic": "sport"}]},
            "or": {"OR": [{"n": {"lt": 4}}, {"topic": {"contains": "heal"}}]},
        }
        found = {
            name: {i["memory"] for i in m.get_all(filters={"user_id": "bob", **f})["results"]}
            for name, f in topics.items()
        }
        hiking = {s for s in found["eq"]}
        assert hiking and all("hik" in s.lower() for s in hiking), found
        assert found["in"] == found["gte"] == found["not"] and "peanut" in str(found["in"])
        assert found["or"] == found["eq"] | found["in"]
        reset = m.reset()
        assert [r["residue_found"] for r in reset["receipts"]] == [0]
        assert m.get_all(user_id="bob") == {"results": []}


def test_async_memory_takes_the_same_calls(tmp_path: Path) -> None:
    async def run() -> dict[str, Any]:
        async with AsyncMemory(tmp_path / "d") as m:
            await m.add("I live in Oslo.", user_id=USER)
            return await m.search("Where do I live?", filters={"user_id": USER}, top_k=1)

    (item,) = asyncio.run(run())["results"]
    assert "Oslo" in item["memory"] and item["user_id"] == USER


def test_filters_follow_mem0s_operators() -> None:
    item = {"metadata": {"n": 3, "tags": "a,b"}}
    assert matches(item, {"n": {"ne": 4}}) and not matches(item, {"n": {"nin": [3]}})
    assert matches(item, {"AND": [{"n": {"gt": 2}}, {"n": {"lte": 3}}]})
    assert matches(item, {"tags": "*"}) and not matches(item, {"other": "*"})
