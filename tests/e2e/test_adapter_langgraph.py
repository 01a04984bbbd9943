"""ProvmemStore through LangGraph's own interface, on a real embedded memory.

Most tests here are LangGraph's store tests, ported from langchain-ai/langgraph at commit
f09cfe8ffc1eeffd68f4b628ed69c30f7cad229f (the wheel ships none):

- ``libs/checkpoint/tests/test_store.py`` (InMemoryStore): list_namespaces (basic,
  wildcards, pagination, max_depth, no conditions, empty store), empty and invalid
  namespaces, vector search with filters and pagination (sync and async), insert with
  embedding, update with embedding (its async form), non-ASCII text (14 tests);
- ``libs/checkpoint-sqlite/tests/test_store.py`` (SqliteStore): batch order, batch
  get/put/search/list_namespaces ops, basic store ops, search, list namespaces, vector
  search edge cases, basic store operations, list namespaces operations, search items,
  filter values (the injection cases), numeric, boolean and hyphenated/dotted filter keys,
  namespace segment boundaries, literal metacharacters, case sensitivity, empty prefix,
  labels with a trailing newline, metacharacter labels (23 tests);
- ``libs/checkpoint-sqlite/tests/test_async_store.py``: abatch order, large batches
  (scaled down from 6000 to 120 concurrent calls) (2 tests).

Each keeps its name and its assertions; ``InMemoryStore()``/``SqliteStore`` become the
``store`` fixture (one memory for the module, one project per test, so each test sees an
empty store). Adapted where LangGraph's fake character-frequency embeddings decide the
answer: provmem's search is semantic, so the query "bbbbluuu" (closest to "blue car" by
its letters) is "blue" here. Not ported: tests of embedding configuration and of
``index=[fields]`` paths (provmem indexes an item's whole value), of TTL, of SQL text and
of the stores' internals.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypedDict, cast

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)

from provmem import AsyncMemory, Memory
from provmem.config import Settings
from provmem.services.adapters.langgraph import ProvmemStore, matches, namespace, user_id
from provmem.services.api.app import create_api
from tests.e2e.test_api import issue
from tests.e2e.test_client import serving

Ops = Iterable[GetOp | PutOp | SearchOp | ListNamespacesOp]


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with Memory(tmp_path_factory.mktemp("langgraph") / "d") as memory:
        yield memory


@pytest.fixture
def store(memory: Memory) -> Iterator[ProvmemStore]:
    """An empty store: its own project in the module's memory."""
    store = ProvmemStore(memory, project=f"p{uuid.uuid4().hex[:12]}")
    yield store
    store.close()


# provmem's own: the mapping, the value as evidence, provenance, erasure


def test_a_namespace_is_a_user_and_back() -> None:
    assert user_id(("users", "ann", "memories")) == "users.ann.memories"
    assert namespace("users.ann.memories") == ("users", "ann", "memories")
    with pytest.raises(InvalidNamespaceError):
        user_id(("a.b",))
    with pytest.raises(InvalidNamespaceError):
        user_id(())


def test_an_item_is_its_evidence(store: ProvmemStore, memory: Memory) -> None:
    value = {"text": "Ann plays the cello.", "n": 1.5, "tags": ["music"], "nested": {"a": None}}
    store.put(("users", "ann"), "m1", value)
    item = store.get(("users", "ann"), "m1")
    assert item is not None and item.value == value
    assert item.created_at == item.updated_at
    store.put(("users", "ann"), "m1", {"text": "Ann plays the viola."})
    again = store.get(("users", "ann"), "m1")
    assert again is not None and again.created_at == item.created_at
    assert again.updated_at > item.updated_at
    found = memory.search("which instrument?", user_id="users.ann", project=store.project)
    sources = {e.source_uri for bundle in found for e in bundle.evidence}
    assert "langgraph-store:users.ann/m1" in sources
    (top,) = store.search(("users",), query="which instrument does Ann play?")
    assert top.key == "m1" and top.value == {"text": "Ann plays the viola."}
    assert top.score is not None and 0 < top.score <= 1


def test_erase_forgets_every_value_of_a_key(store: ProvmemStore, memory: Memory) -> None:
    store.put(("users", "bo"), "m1", {"text": "Bo lives in Quetzalbrook."})
    store.put(("users", "bo"), "m1", {"text": "Bo lives in Zarnowice."})
    store.put(("users", "bo"), "m2", {"text": "Bo has a dog."})
    receipt = store.erase(("users", "bo"), "m1", reason="asked")
    assert receipt is not None and receipt.evidence_erased == 2
    assert receipt.residue_found == 0  # the audit finds no trace, the index's rows included
    assert store.get(("users", "bo"), "m1") is None
    assert [i.key for i in store.search(("users", "bo"))] == ["m2"]
    assert store.erase(("users", "bo"), "m1") is None  # nothing left to erase
    receipt = memory.erase(user_id="users.bo", project=store.project)  # provmem's own
    assert receipt.residue_found == 0  # the index keeps turn ids, never evidence ids
    assert store.get(("users", "bo"), "m2") is None
    assert store.list_namespaces() == []  # the read dropped the erased key


def test_evidence_by_id_is_the_users_own(memory: Memory) -> None:
    """The facade call the store reads values with (added for it)."""
    (said,) = memory.add("I like tea.", user_id="eve", project="evidence")
    missing = "ev_" + "0" * 32
    found = memory.evidence([said.evidence_id, missing], user_id="eve", project="evidence")
    assert [q and q.quote for q in found] == ["I like tea.", None]
    assert memory.evidence([said.evidence_id], user_id="mal", project="evidence") == [None]
    assert memory.data_dir() is not None


def test_filters_follow_langgraphs_semantics() -> None:
    value = {"n": 3, "tag": "a", "tags": ["x", "y"], "meta": {"k": 1}}
    assert matches(value, {"n": {"$gte": 3, "$lt": 4}, "tag": {"$ne": "b"}})
    assert matches(value, {"tags": ["x", "y"], "meta": {"k": 1}, "meta.k": 1})
    assert not matches(value, {"tags": ["x"]}) and not matches(value, {"n": {"$gt": "z"}})
    with pytest.raises(ValueError, match="unsupported operator"):
        matches(value, {"n": {"$in": [3]}})


def test_a_graph_reads_and_writes_the_store(store: ProvmemStore) -> None:
    class State(TypedDict):
        said: str
        recalled: list[str]

    def remember(state: State, runtime: Runtime[None]) -> dict[str, Any]:
        assert runtime.store is not None
        runtime.store.put(("users", "cy"), "m1", {"text": state["said"]})
        return {}

    def recall(state: State, runtime: Runtime[None]) -> dict[str, Any]:
        assert runtime.store is not None
        found = runtime.store.search(("users", "cy"), query="which city?")
        return {"recalled": [item.value["text"] for item in found]}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    graph = builder.compile(store=store)
    out = graph.invoke({"said": "Cy moved to Oslo.", "recalled": []})
    assert out["recalled"] == ["Cy moved to Oslo."]


async def test_an_async_memory_serves_abatch(tmp_path: Path) -> None:
    async with AsyncMemory(tmp_path / "d") as memory:
        store = ProvmemStore(memory)
        await store.aput(("users", "di"), "m1", {"text": "Di speaks Welsh."})
        item = await store.aget(("users", "di"), "m1")
        assert item is not None and item.value == {"text": "Di speaks Welsh."}
        (top,) = await store.asearch(("users",), query="languages?")
        assert top.key == "m1" and top.score is not None
        assert await store.alist_namespaces() == [("users", "di")]
        await store.adelete(("users", "di"), "m1")
        assert await store.aget(("users", "di"), "m1") is None
        with pytest.raises(TypeError, match="abatch"):
            store.get(("users", "di"), "m1")
        store.close()


def test_against_a_server_the_index_is_given(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    token = issue(settings, "default")["Authorization"].removeprefix("Bearer ")
    with serving(create_api(settings)) as url, Memory(url=url, api_key=token) as remote:
        with pytest.raises(ValueError, match="path"):
            ProvmemStore(remote).get(("users", "fay"), "m1")
        store = ProvmemStore(remote, path=tmp_path / "index.sqlite3")
        store.put(("users", "fay"), "m1", {"text": "Fay grows tomatoes."})
        # the server's evidence route does not wait for its pipeline; a query does
        remote.search("tomatoes", user_id="users.fay")
        (top,) = store.search(("users",), query="what does Fay grow?")
        assert top.key == "m1" and top.score is not None
        assert store.get(("users", "fay"), "m1").value == {"text": "Fay grows tomatoes."}  # type: ignore[union-attr]
        assert remote.evidence(["ev_" + "0" * 32], user_id="users.fay") == [None]
        store.close()


# libs/checkpoint/tests/test_store.py


def test_list_namespaces_basic(store: ProvmemStore) -> None:
    namespaces = [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
        ("users", "123"),
        ("users", "456", "settings"),
        ("admin", "users", "789"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})

    result = store.list_namespaces(prefix=("a", "b"))
    expected = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert sorted(result) == sorted(expected)
    result = store.list_namespaces(suffix=("f",))
    assert sorted(result) == sorted([("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")])
    result = store.list_namespaces(prefix=("a",), suffix=("f",))
    assert sorted(result) == sorted([("a", "b", "f"), ("a", "c", "f")])
    result = store.list_namespaces(prefix=("a", "b"), max_depth=3)
    assert sorted(result) == sorted([("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")])
    result = store.list_namespaces(prefix=("a", "b"), limit=2)
    assert result == [("a", "b", "c"), ("a", "b", "d", "e")]
    result = store.list_namespaces(prefix=("a", "b"), offset=2)
    assert result == [("a", "b", "d", "i"), ("a", "b", "f")]
    result = store.list_namespaces(prefix=("a", "*", "f"))
    assert sorted(result) == sorted([("a", "b", "f"), ("a", "c", "f")])
    result = store.list_namespaces(suffix=("*", "f"))
    assert sorted(result) == sorted([("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")])
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_with_wildcards(store: ProvmemStore) -> None:
    namespaces = [
        ("users", "123"),
        ("users", "456"),
        ("users", "789", "settings"),
        ("admin", "users", "789"),
        ("guests", "123"),
        ("guests", "456", "preferences"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})

    result = store.list_namespaces(prefix=("users", "*"))
    assert sorted(result) == sorted(
        [("users", "123"), ("users", "456"), ("users", "789", "settings")]
    )
    result = store.list_namespaces(suffix=("*", "preferences"))
    assert result == [("guests", "456", "preferences")]
    result = store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings"))
    assert result == []


def test_list_namespaces_pagination(store: ProvmemStore) -> None:
    store.batch(
        [
            PutOp(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"data": f"value_{i:02d}"})
            for i in range(20)
        ]
    )
    result = store.list_namespaces(prefix=("namespace",), limit=5, offset=0)
    assert result == [("namespace", f"sub_{i:02d}") for i in range(5)]
    result = store.list_namespaces(prefix=("namespace",), limit=5, offset=5)
    assert result == [("namespace", f"sub_{i:02d}") for i in range(5, 10)]
    result = store.list_namespaces(prefix=("namespace",), limit=5, offset=15)
    assert result == [("namespace", f"sub_{i:02d}") for i in range(15, 20)]


def test_list_namespaces_max_depth(store: ProvmemStore) -> None:
    namespaces = [
        ("a", "b", "c", "d"),
        ("a", "b", "c", "e"),
        ("a", "b", "f"),
        ("a", "g"),
        ("h", "i", "j", "k"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    result = store.list_namespaces(max_depth=2)
    assert sorted(result) == sorted([("a", "b"), ("a", "g"), ("h", "i")])


def test_list_namespaces_no_conditions(store: ProvmemStore) -> None:
    namespaces = [("a", "b"), ("c", "d"), ("e", "f", "g")]
    for i, ns in enumerate(namespaces):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert sorted(store.list_namespaces()) == sorted(namespaces)


def test_list_namespaces_empty_store(store: ProvmemStore) -> None:
    assert store.list_namespaces() == []


async def test_cannot_put_empty_namespace(store: ProvmemStore) -> None:
    doc = {"foo": "bar"}
    for bad in [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "foo", doc)
        with pytest.raises(InvalidNamespaceError):
            await store.aput(bad, "foo", doc)

    ns = ("foo", "langgraph", "foo")
    await store.aput(ns, "bar", doc)
    assert (await store.aget(ns, "bar")).value == doc  # type: ignore[union-attr]
    assert (await store.asearch(ns, query="bar"))[0].value == doc
    await store.adelete(ns, "bar")
    assert (await store.aget(ns, "bar")) is None
    store.put(ns, "bar", doc)
    assert store.get(ns, "bar").value == doc  # type: ignore[union-attr]
    assert store.search(ns, query="bar")[0].value == doc
    store.delete(ns, "bar")
    assert store.get(ns, "bar") is None

    # Do the same but go past the public put api
    await store.abatch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert (await store.aget(("langgraph", "foo"), "bar")).value == doc  # type: ignore[union-attr]
    assert (await store.asearch(("langgraph", "foo")))[0].value == doc
    await store.adelete(("langgraph", "foo"), "bar")
    assert (await store.aget(("langgraph", "foo"), "bar")) is None
    store.batch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert store.get(("langgraph", "foo"), "bar").value == doc  # type: ignore[union-attr]
    assert store.search(("langgraph", "foo"))[0].value == doc
    store.delete(("langgraph", "foo"), "bar")
    assert store.get(("langgraph", "foo"), "bar") is None
    with pytest.raises(InvalidNamespaceError):  # a label with a '.' even past the api
        store.batch([PutOp(("the", "thing.about"), "foo", doc)])


def test_vector_insert_with_auto_embedding(store: ProvmemStore) -> None:
    docs = [
        ("doc1", {"text": "short text"}),
        ("doc2", {"text": "longer text document"}),
        ("doc3", {"text": "longest text document here"}),
        ("doc4", {"description": "text in description field"}),
        ("doc5", {"content": "text in content field"}),
        ("doc6", {"body": "text in body field"}),
    ]
    store.batch([PutOp(("test",), key, value) for key, value in docs])
    results = store.search(("test",), query="long text")
    assert len(results) > 0
    doc_order = [r.key for r in results]
    assert "doc2" in doc_order
    assert "doc3" in doc_order


async def test_async_vector_update_with_embedding(store: ProvmemStore) -> None:
    await store.aput(("test",), "doc1", {"text": "zany zebra Xerxes"})
    await store.aput(("test",), "doc2", {"text": "something about dogs"})
    await store.aput(("test",), "doc3", {"text": "text about birds"})

    results_initial = await store.asearch(("test",), query="Zany Xerxes")
    assert len(results_initial) > 0
    assert results_initial[0].key == "doc1"
    initial_score = results_initial[0].score
    assert initial_score is not None

    await store.aput(("test",), "doc1", {"text": "new text about dogs"})
    results_after = await store.asearch(("test",), query="Zany Xerxes")
    after_score = next((r.score for r in results_after if r.key == "doc1"), 0.0)
    assert after_score is not None
    assert after_score < initial_score

    results_new = await store.asearch(("test",), query="new text about dogs")
    for r in results_new:
        if r.key == "doc1":
            assert r.score is not None
            assert r.score > after_score

    # Don't index this one
    await store.aput(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    results_new = await store.asearch(("test",), query="new text about dogs", limit=3)
    assert not any(r.key == "doc4" for r in results_new)


VECTOR_DOCS = [
    ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
    ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
    ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
    ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
]


def test_vector_search_with_filters(store: ProvmemStore) -> None:
    for key, value in VECTOR_DOCS:
        store.put(("test",), key, value)

    results = store.search(("test",), query="apple", filter={"color": "red"})
    assert len(results) == 2
    assert results[0].key == "doc1"
    results = store.search(("test",), query="car", filter={"color": "red"})
    assert len(results) == 2
    assert results[0].key == "doc2"
    results = store.search(("test",), query="blue", filter={"score": {"$gt": 3.2}})
    assert len(results) == 3
    assert results[0].key == "doc4"
    results = store.search(
        ("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"}
    )
    assert len(results) == 1
    assert results[0].key == "doc3"


async def test_async_vector_search_with_filters(store: ProvmemStore) -> None:
    for key, value in VECTOR_DOCS:
        await store.aput(("test",), key, value)

    results = await store.asearch(("test",), query="apple", filter={"color": "red"})
    assert len(results) == 2
    assert results[0].key == "doc1"
    results = await store.asearch(("test",), query="car", filter={"color": "red"})
    assert len(results) == 2
    assert results[0].key == "doc2"
    results = await store.asearch(("test",), query="blue", filter={"score": {"$gt": 3.2}})
    assert len(results) == 3
    assert results[0].key == "doc4"
    results = await store.asearch(
        ("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"}
    )
    assert len(results) == 1
    assert results[0].key == "doc3"


def test_vector_search_pagination(store: ProvmemStore) -> None:
    for i in range(5):
        store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})

    results_page1 = store.search(("test",), query="test", limit=2)
    results_page2 = store.search(("test",), query="test", limit=2, offset=2)
    assert len(results_page1) == 2
    assert len(results_page2) == 2
    assert results_page1[0].key != results_page2[0].key
    assert {r.key for r in results_page1}.isdisjoint({r.key for r in results_page2})
    assert results_page1[0].score >= results_page1[1].score  # type: ignore[operator]
    assert results_page2[0].score >= results_page2[1].score  # type: ignore[operator]

    all_results = store.search(("test",), query="test", limit=10)
    assert len(all_results) == 5
    assert all_results[0].score >= all_results[2].score  # type: ignore[operator]


async def test_async_vector_search_pagination(store: ProvmemStore) -> None:
    for i in range(5):
        await store.aput(("test",), f"doc{i}", {"text": f"test document number {i}"})

    results_page1 = await store.asearch(("test",), query="test", limit=2)
    results_page2 = await store.asearch(("test",), query="test", limit=2, offset=2)
    assert len(results_page1) == 2
    assert len(results_page2) == 2
    assert results_page1[0].key != results_page2[0].key
    all_results = await store.asearch(("test",), query="test", limit=10)
    assert len(all_results) == 5


def test_non_ascii(store: ProvmemStore) -> None:
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, start=1):
        store.put(("user_123", "memories"), str(i), {"text": text})
    for i, text in enumerate(texts, start=1):
        assert store.get(("user_123", "memories"), str(i)).value == {"text": text}  # type: ignore[union-attr]
        assert store.search(("user_123", "memories"), query=text)[0].key == str(i)


# libs/checkpoint-sqlite/tests/test_store.py and test_async_store.py


def test_batch_order(store: ProvmemStore) -> None:
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})

    ops = [
        GetOp(namespace=("test", "foo"), key="key1"),
        PutOp(namespace=("test", "bar"), key="key2", value={"data": "value2"}),
        SearchOp(namespace_prefix=("test",), filter={"data": "value1"}, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        GetOp(namespace=("test",), key="key3"),
    ]
    results = store.batch(cast(Ops, ops))
    assert len(results) == 5
    assert isinstance(results[0], Item)
    assert isinstance(results[0].value, dict)
    assert results[0].value == {"data": "value1"}
    assert results[0].key == "key1"
    assert results[0].namespace == ("test", "foo")
    assert results[1] is None
    assert isinstance(results[2], list)
    assert len(results[2]) == 1
    assert results[2][0].key == "key1"
    assert results[2][0].value == {"data": "value1"}
    assert isinstance(results[3], list)
    assert ("test", "foo") in results[3]
    assert ("test", "bar") in results[3]
    assert results[4] is None

    ops_reordered = [
        SearchOp(namespace_prefix=("test",), filter=None, limit=5, offset=0),
        GetOp(namespace=("test", "bar"), key="key2"),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
        PutOp(namespace=("test",), key="key3", value={"data": "value3"}),
        GetOp(namespace=("test", "foo"), key="key1"),
    ]
    results_reordered = store.batch(cast(Ops, ops_reordered))
    assert len(results_reordered) == 5
    assert isinstance(results_reordered[0], list)
    assert len(results_reordered[0]) >= 2
    assert isinstance(results_reordered[1], Item)
    assert results_reordered[1].value == {"data": "value2"}
    assert results_reordered[1].namespace == ("test", "bar")
    assert isinstance(results_reordered[2], list)
    assert len(results_reordered[2]) > 0
    assert results_reordered[3] is None
    assert isinstance(results_reordered[4], Item)
    assert results_reordered[4].value == {"data": "value1"}
    item3 = store.get(("test",), "key3")
    assert item3 is not None
    assert item3.value == {"data": "value3"}


async def test_abatch_order(store: ProvmemStore) -> None:
    await store.aput(("test", "foo"), "key1", {"data": "value1"})
    await store.aput(("test", "bar"), "key2", {"data": "value2"})
    ops = [
        GetOp(namespace=("test", "foo"), key="key1"),
        PutOp(namespace=("test", "bar"), key="key2", value={"data": "value2"}),
        SearchOp(namespace_prefix=("test",), filter={"data": "value1"}, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        GetOp(namespace=("test",), key="key3"),
    ]
    results = await store.abatch(cast(Ops, ops))
    assert len(results) == 5
    assert isinstance(results[0], Item)
    assert results[0].value == {"data": "value1"}
    assert results[1] is None
    assert isinstance(results[2], list) and [i.key for i in results[2]] == ["key1"]
    assert isinstance(results[3], list) and len(results[3]) > 0
    assert results[4] is None


async def test_large_batches_async(store: ProvmemStore) -> None:
    n, m = 10, 2  # LangGraph's: 100 and 10
    coros: list[Any] = []
    for j in range(m):
        ns = ("test", "foo", "bar", "baz", str(j % 2))
        for i in range(n):
            coros.append(store.aput(ns, f"key{i}", value={"foo": "bar" + str(i)}))
            coros.append(asyncio.create_task(store.aget(ns, f"key{i}")))
            coros.append(asyncio.create_task(store.alist_namespaces(prefix=None, max_depth=j + 1)))
            coros.append(asyncio.create_task(store.asearch(("test",))))
            coros.append(store.aput(ns, f"key{i}", value={"foo": "bar" + str(i)}))
            coros.append(store.adelete(ns, f"key{i}"))
    results = await asyncio.gather(*coros)
    assert len(results) == m * n * 6


def test_batch_get_ops(store: ProvmemStore) -> None:
    store.put(("test",), "key1", {"data": "value1"})
    store.put(("test",), "key2", {"data": "value2"})
    ops = [
        GetOp(namespace=("test",), key="key1"),
        GetOp(namespace=("test",), key="key2"),
        GetOp(namespace=("test",), key="key3"),
    ]
    results = store.batch(ops)
    assert len(results) == 3
    assert results[0] is not None
    assert results[1] is not None
    assert results[2] is None
    assert results[0].key == "key1"  # type: ignore[union-attr]
    assert results[1].key == "key2"  # type: ignore[union-attr]


def test_batch_put_ops(store: ProvmemStore) -> None:
    ops = [
        PutOp(namespace=("test",), key="key1", value={"data": "value1"}),
        PutOp(namespace=("test",), key="key2", value={"data": "value2"}),
        PutOp(namespace=("test",), key="key3", value=None),
    ]
    results = store.batch(ops)
    assert len(results) == 3
    assert all(result is None for result in results)
    item1 = store.get(("test",), "key1")
    item2 = store.get(("test",), "key2")
    item3 = store.get(("test",), "key3")
    assert item1 and item1.value == {"data": "value1"}
    assert item2 and item2.value == {"data": "value2"}
    assert item3 is None


def test_batch_search_ops(store: ProvmemStore) -> None:
    test_data = [
        (("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
        (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
        (("test", "baz"), "key3", {"data": "value3", "tag": "b"}),
    ]
    for ns, key, value in test_data:
        store.put(ns, key, value)
    ops = [
        SearchOp(namespace_prefix=("test",), filter={"tag": "a"}, limit=10, offset=0),
        SearchOp(namespace_prefix=("test",), filter=None, limit=2, offset=0),
        SearchOp(namespace_prefix=("test", "foo"), filter=None, limit=10, offset=0),
    ]
    results = cast(list[list[Item]], store.batch(ops))
    assert len(results) == 3
    assert len(results[0]) == 2
    assert all(item.value["tag"] == "a" for item in results[0])
    assert len(results[1]) == 2
    assert len(results[2]) == 1
    assert results[2][0].namespace == ("test", "foo")


def test_batch_list_namespaces_ops(store: ProvmemStore) -> None:
    test_data = [
        (("test", "documents", "public"), "doc1", {"content": "public doc"}),
        (("test", "documents", "private"), "doc2", {"content": "private doc"}),
        (("test", "images", "public"), "img1", {"content": "public image"}),
        (("prod", "documents", "public"), "doc3", {"content": "prod doc"}),
    ]
    for ns, key, value in test_data:
        store.put(ns, key, value)
    ops = [
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=2, limit=10, offset=0),
        ListNamespacesOp(
            match_conditions=(MatchCondition("suffix", ("public",)),),
            max_depth=None,
            limit=10,
            offset=0,
        ),
    ]
    results = cast(list[list[tuple[str, ...]]], store.batch(cast(Ops, ops)))
    assert len(results) == 3
    assert len(results[0]) == len(test_data)
    assert all(len(ns) <= 2 for ns in results[1])
    assert all(ns[-1] == "public" for ns in results[2])


def test_basic_store_ops(store: ProvmemStore) -> None:
    ns, item_id = ("test", "documents"), "doc1"
    item_value = {"title": "Test Document", "content": "Hello, World!"}
    store.put(ns, item_id, item_value)
    item = store.get(ns, item_id)
    assert item
    assert item.namespace == ns
    assert item.key == item_id
    assert item.value == item_value

    updated_value = {"title": "Updated Document", "content": "Hello, Updated!"}
    store.put(ns, item_id, updated_value)
    updated_item = store.get(ns, item_id)
    assert updated_item is not None and updated_item.value == updated_value
    assert store.get(("test", "other_documents"), item_id) is None
    store.delete(ns, item_id)
    assert store.get(ns, item_id) is None


def test_list_namespaces(store: ProvmemStore) -> None:
    test_namespaces = [
        ("test", "documents", "public"),
        ("test", "documents", "private"),
        ("test", "images", "public"),
        ("test", "images", "private"),
        ("prod", "documents", "public"),
        ("prod", "documents", "private"),
    ]
    store.batch([PutOp(ns, "dummy", {"content": "dummy"}) for ns in test_namespaces])
    assert len(store.list_namespaces()) == len(test_namespaces)
    test_prefix_namespaces = store.list_namespaces(prefix=["test"])  # type: ignore[arg-type]
    assert len(test_prefix_namespaces) == 4
    assert all(ns[0] == "test" for ns in test_prefix_namespaces)
    public_namespaces = store.list_namespaces(suffix=["public"])  # type: ignore[arg-type]
    assert len(public_namespaces) == 3
    assert all(ns[-1] == "public" for ns in public_namespaces)
    assert all(len(ns) <= 2 for ns in store.list_namespaces(max_depth=2))
    assert len(store.list_namespaces(limit=3)) == 3
    for ns in test_namespaces:
        store.delete(ns, "dummy")
    assert store.list_namespaces() == []


def test_search(store: ProvmemStore) -> None:
    test_data = [
        (
            ("test", "docs"),
            "doc1",
            {"title": "First Doc", "author": "Alice", "tags": ["important"]},
        ),
        (("test", "docs"), "doc2", {"title": "Second Doc", "author": "Bob", "tags": ["draft"]}),
        (("test", "images"), "img1", {"title": "Image 1", "author": "Alice", "tags": ["final"]}),
    ]
    for ns, key, value in test_data:
        store.put(ns, key, value)
    assert len(store.search(("test",))) == 3
    docs_items = store.search(("test", "docs"))
    assert len(docs_items) == 2
    assert all(item.namespace == ("test", "docs") for item in docs_items)
    alice_items = store.search(("test",), filter={"author": "Alice"})
    assert len(alice_items) == 2
    assert all(item.value["author"] == "Alice" for item in alice_items)
    assert len(store.search(("test",), limit=2)) == 2
    assert len(store.search(("test",), offset=2)) == 1


def test_vector_search_edge_cases(store: ProvmemStore) -> None:
    store.put(("test",), "doc1", {"text": "test document"})
    assert len(store.search(("test",), query="")) == 1
    assert len(store.search(("test",), query=None)) == 1
    assert len(store.search(("test",), query="test " * 100)) == 1
    assert len(store.search(("test",), query="test!@#$%^&*()")) == 1


def test_basic_store_operations(store: ProvmemStore) -> None:
    uid = uuid.uuid4().hex
    ns, item_id = (uid, "test", "documents"), "doc1"
    item_value = {"title": "Test Document", "content": "Hello, World!"}
    assert len(store.search((uid,))) == 0
    store.put(ns, item_id, item_value)
    item = store.get(ns, item_id)
    assert item is not None
    assert item.namespace == ns
    assert item.key == item_id
    assert item.value == item_value
    assert item.created_at is not None
    assert item.updated_at is not None

    updated_value = {"title": "Updated Test Document", "content": "Hello, LangGraph!"}
    store.put(ns, item_id, updated_value)
    updated_item = store.get(ns, item_id)
    assert updated_item is not None
    assert updated_item.value == updated_value
    assert updated_item.updated_at >= item.updated_at
    assert store.get((uid, "test", "other_documents"), item_id) is None

    store.put(ns, "doc2", {"title": "Another Document", "content": "Greetings!"})
    items = store.search((uid, "test"), limit=10)
    assert len(items) == 2
    assert {i.key for i in items} == {item_id, "doc2"}
    assert (uid, "test", "documents") in store.list_namespaces(prefix=(uid, "test"))
    store.delete(ns, item_id)
    store.delete(ns, "doc2")
    assert store.get(ns, item_id) is None
    assert store.get(ns, "doc2") is None
    assert len(store.search((uid, "test"), limit=10)) == 0


def test_list_namespaces_operations(store: ProvmemStore) -> None:
    p = str(uuid.uuid4())
    test_namespaces = [
        (p, "test", "documents", "public", p),
        (p, "test", "documents", "private", p),
        (p, "test", "images", "public", p),
        (p, "test", "images", "private", p),
        (p, "prod", "documents", "public", p),
        (p, "prod", "documents", "some", "nesting", "public", p),
        (p, "prod", "documents", "private", p),
    ]
    store.batch([PutOp(ns, "dummy", {"content": "dummy"}) for ns in test_namespaces])

    prefix_result = store.list_namespaces(prefix=(p, "test"))
    assert len(prefix_result) == 4
    assert all(ns[1] == "test" for ns in prefix_result)
    specific = store.list_namespaces(prefix=(p, "test", "documents"))
    assert len(specific) == 2
    assert all(ns[1:3] == ("test", "documents") for ns in specific)
    suffix_result = store.list_namespaces(suffix=("public", p))
    assert len(suffix_result) == 4
    assert all(ns[-2] == "public" for ns in suffix_result)
    both = store.list_namespaces(prefix=(p, "test"), suffix=("public", p))
    assert len(both) == 2
    assert all(ns[1] == "test" and ns[-2] == "public" for ns in both)
    wildcard_prefix = store.list_namespaces(prefix=(p, "*", "documents"))
    assert len(wildcard_prefix) == 5
    assert all(ns[2] == "documents" for ns in wildcard_prefix)
    wildcard_suffix = store.list_namespaces(suffix=("*", "public", p))
    assert len(wildcard_suffix) == 4
    assert all(ns[-2] == "public" for ns in wildcard_suffix)
    wildcard_single = store.list_namespaces(suffix=("some", "*", "public", p))
    assert wildcard_single == [(p, "prod", "documents", "some", "nesting", "public", p)]
    assert all(len(ns) <= 3 for ns in store.list_namespaces(max_depth=3))
    deep = store.list_namespaces(max_depth=4, prefix=(p, "*", "documents"))
    assert len(set(deep)) == len(deep) == 5
    assert len(store.list_namespaces(prefix=(p,), limit=3)) == 3
    assert len(store.list_namespaces(prefix=(p,), offset=3)) == len(test_namespaces) - 3
    assert set(store.list_namespaces(prefix=(p,))) == set(test_namespaces)


def test_search_items(store: ProvmemStore) -> None:
    base = "test_search_items"
    test_namespaces = [
        (base, "documents", "user1"),
        (base, "documents", "user2"),
        (base, "reports", "department1"),
        (base, "reports", "department2"),
    ]
    test_items = [
        {"title": "Doc 1", "author": "John Doe", "tags": ["important"]},
        {"title": "Doc 2", "author": "Jane Smith", "tags": ["draft"]},
        {"title": "Report A", "author": "John Doe", "tags": ["final"]},
        {"title": "Report B", "author": "Alice Johnson", "tags": ["draft"]},
    ]
    for ns, value in zip(test_namespaces, test_items, strict=True):
        store.put(ns, f"item_{ns[-1]}", value)

    docs = store.search((base, "documents"))
    assert len(docs) == 2
    assert all(item.namespace[1] == "documents" for item in docs)
    reports = store.search((base, "reports"))
    assert len(reports) == 2
    assert all(item.namespace[1] == "reports" for item in reports)
    first_page = store.search((base,), limit=2, offset=0)
    second_page = store.search((base,), limit=2, offset=2)
    assert len(first_page) == 2
    assert len(second_page) == 2
    assert {i.key for i in first_page}.isdisjoint({i.key for i in second_page})
    assert len(store.search((base,))) == 4
    john_items = store.search((base,), filter={"author": "John Doe"})
    assert len(john_items) == 2
    assert all(item.value["author"] == "John Doe" for item in john_items)
    draft_items = store.search((base,), filter={"tags": ["draft"]})
    assert len(draft_items) == 2
    assert all("draft" in item.value["tags"] for item in draft_items)


def test_sql_injection_filter_values(store: ProvmemStore) -> None:
    """Filter values are compared as values, never read as code."""
    store.put(("docs",), "doc1", {"access": "public", "title": "Public Document"})
    store.put(("docs",), "doc2", {"access": "private", "title": "Private Document"})
    store.put(("docs",), "doc3", {"access": "secret", "title": "Secret Document"})
    for malicious in [
        "public' OR '1'='1",
        "public'; --",
        "public' UNION SELECT * FROM store --",
        "public\x00' OR '1'='1",
        "''''",
        "public' OR 'א'='א",
    ]:
        assert store.search(("docs",), filter={"access": malicious}) == []
    store.put(("docs",), "doc4", {"title": "O'Brien's Document", "access": "public"})
    results = store.search(("docs",), filter={"title": "O'Brien's Document"})
    assert len(results) == 1
    assert results[0].value["title"] == "O'Brien's Document"


def test_numeric_filter_safety(store: ProvmemStore) -> None:
    store.put(("items",), "item1", {"price": 10, "quantity": 5})
    store.put(("items",), "item2", {"price": 20, "quantity": 3})
    store.put(("items",), "item3", {"price": 30, "quantity": 1})
    results = store.search(("items",), filter={"price": {"$gt": 15}})
    assert len(results) == 2
    assert all(r.value["price"] > 15 for r in results)
    assert len(store.search(("items",), filter={"price": {"$lt": float("inf")}})) == 3
    assert len(store.search(("items",), filter={"price": {"$gt": float("-inf")}})) == 3
    assert len(store.search(("items",), filter={"price": {"$eq": float("nan")}})) == 0
    assert len(store.search(("items",), filter={"price": {"$lt": 10**100}})) == 3
    store.put(("items",), "item4", {"price": -10, "quantity": 0})
    results = store.search(("items",), filter={"price": {"$lt": 0}})
    assert len(results) == 1
    assert results[0].key == "item4"


def test_boolean_filter_safety(store: ProvmemStore) -> None:
    store.put(("flags",), "flag1", {"active": True, "name": "Feature A"})
    store.put(("flags",), "flag2", {"active": False, "name": "Feature B"})
    store.put(("flags",), "flag3", {"active": True, "name": "Feature C"})
    results = store.search(("flags",), filter={"active": True})
    assert len(results) == 2
    assert all(r.value["active"] is True for r in results)
    results = store.search(("flags",), filter={"active": False})
    assert len(results) == 1
    assert results[0].value["active"] is False


def test_filter_keys_with_hyphens_and_digits(store: ProvmemStore) -> None:
    store.put(("docs",), "hyphen", {"access-level": "public", "user": {"access-level": "nested"}})
    store.put(("docs",), "digit", {"123abc": "ok", "user": {"123abc": "ok2"}})
    assert [r.key for r in store.search(("docs",), filter={"access-level": "public"})] == ["hyphen"]
    assert [r.key for r in store.search(("docs",), filter={"user.access-level": "nested"})] == [
        "hyphen"
    ]
    assert [r.key for r in store.search(("docs",), filter={"123abc": "ok"})] == ["digit"]
    assert [r.key for r in store.search(("docs",), filter={"user.123abc": "ok2"})] == ["digit"]


def _namespaces_found(store: BaseStore, prefix: tuple[str, ...]) -> set[tuple[str, ...]]:
    return {item.namespace for item in store.search(prefix, limit=100)}


def test_search_namespace_segment_boundary(store: ProvmemStore) -> None:
    for ns in [
        ("foo",),
        ("foo", "child"),
        ("foo", "child", "deep"),
        ("foobar",),
        ("foobar", "baz"),
        ("foo2",),
    ]:
        store.put(ns, "k", {"v": 1})
    assert _namespaces_found(store, ("foo",)) == {
        ("foo",),
        ("foo", "child"),
        ("foo", "child", "deep"),
    }
    assert _namespaces_found(store, ("foobar",)) == {("foobar",), ("foobar", "baz")}
    assert _namespaces_found(store, ("foo2",)) == {("foo2",)}
    assert _namespaces_found(store, ("fo",)) == set()


def test_search_namespace_wildcard_chars_are_literal(store: ProvmemStore) -> None:
    for ns in [
        ("user_1",),
        ("user_1", "child"),
        ("userX1",),
        ("a%b",),
        ("axxb",),
        ("star*",),
        ("starX",),
    ]:
        store.put(ns, "k", {"v": 1})
    assert _namespaces_found(store, ("user_1",)) == {("user_1",), ("user_1", "child")}
    assert _namespaces_found(store, ("a%b",)) == {("a%b",)}
    assert _namespaces_found(store, ("star*",)) == {("star*",)}


def test_search_namespace_is_case_sensitive(store: ProvmemStore) -> None:
    store.put(("Foo",), "k", {"v": "upper"})
    store.put(("foo",), "k", {"v": "lower"})
    assert _namespaces_found(store, ("foo",)) == {("foo",)}
    assert _namespaces_found(store, ("Foo",)) == {("Foo",)}


def test_list_namespaces_segment_boundary(store: ProvmemStore) -> None:
    for ns in [
        ("foo",),
        ("foo", "child"),
        ("foobar",),
        ("foobar", "baz"),
        ("uid", "users", "alice"),
        ("uid", "users", "malice"),
        ("uid", "a", "b", "alice"),
    ]:
        store.put(ns, "k", {"v": 1})
    assert set(store.list_namespaces(prefix=("foo",), limit=100)) == {("foo",), ("foo", "child")}
    assert set(store.list_namespaces(suffix=("alice",), limit=100)) == {
        ("uid", "users", "alice"),
        ("uid", "a", "b", "alice"),
    }
    assert set(store.list_namespaces(prefix=("uid", "*", "alice"), limit=100)) == {
        ("uid", "users", "alice")
    }
    assert set(store.list_namespaces(prefix=("uid",), limit=100)) == {
        ("uid", "users", "alice"),
        ("uid", "users", "malice"),
        ("uid", "a", "b", "alice"),
    }


def test_search_empty_prefix_is_unconstrained(store: ProvmemStore) -> None:
    for ns in [("a",), ("b", "c"), ("d", "e", "f")]:
        store.put(ns, "k", {"v": 1})
    assert _namespaces_found(store, ()) == {("a",), ("b", "c"), ("d", "e", "f")}


def test_namespace_labels_with_trailing_newline(store: ProvmemStore) -> None:
    store.put(("users", "alice"), "k", {"v": 1})
    store.put(("users", "alice\n"), "k", {"v": 2})
    assert set(store.list_namespaces(suffix=("alice",), limit=100)) == {("users", "alice")}
    assert set(store.list_namespaces(prefix=("users", "alice"), limit=100)) == {("users", "alice")}


def test_list_namespaces_metacharacter_labels(store: ProvmemStore) -> None:
    pairs = [
        ("star*", "starX"),
        ("q?m", "qXm"),
        ("br[ack]et", "brXacXket"),
        ("user_1", "userX1"),
        ("a%b", "axxb"),
        ("plus+", "plusX"),
    ]
    ops = [
        PutOp(ns, "k", {"v": 1})
        for label, decoy in pairs
        for ns in [(label,), (decoy,), (label, "child")]
    ]
    store.batch(ops)
    for label, decoy in pairs:
        found = set(store.list_namespaces(prefix=(label,), limit=100))
        assert found == {(label,), (label, "child")}
        assert (decoy,) not in found
        assert set(store.list_namespaces(prefix=(label, "child"), limit=100)) == {(label, "child")}
