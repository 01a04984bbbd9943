"""Each retrieval route through the real embedded pipeline, model and index."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from provmem.config import Settings
from provmem.core.events import Fact, FactOp
from provmem.core.scope import Scope
from provmem.core.stages import fact_changed
from provmem.services.memory.memory import MemoryService
from provmem.services.memory.results import Recollection
from provmem.streams.runtime.components import build
from tests.harness import SCOPE, Runtime, said

NOW = datetime(2026, 5, 20, tzinfo=UTC)


@pytest.fixture(scope="module")
def module_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("recall")


#: The route tests only query what ``memory_runtime`` derived, so one runtime serves them all;
#: they run in the event loop of the module, where that runtime lives.
SHARED = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def memory_runtime(module_dir: Path) -> AsyncIterator[Runtime]:
    settings = Settings(data_dir=module_dir / "d", partitions=2)
    runtime = await Runtime(settings, module_dir).start()
    await runtime.memory.publish(
        [
            said("t1", "I live in Paris.", 0),
            said("t2", "I moved to Berlin.", 1),
            said("t3", "My colleague Priya recommended the book Dune to me.", 2),
            said("t4", "I adopted a greyhound called Pixel.", 3),
            said("t5", "Ok.", 4),
            said("t6", "Lol!!", 5),
            said("t7", "I ran the Lisbon half marathon in 1:52:07.", 6),
        ]
    )
    await runtime.memory.sync()
    yield runtime
    await runtime.stop()


def _routes(result: Recollection) -> dict[str, int]:
    return {r.route: r.hits for r in result.routes}


def _top_statement(result: Recollection) -> str:
    return result.bundles[0].fact.statement if result.bundles[0].fact else ""


@SHARED
async def test_dense_route_finds_meaning(memory_runtime: Runtime) -> None:
    result = await memory_runtime.memory.query(SCOPE, "What pet does she have?", now=NOW)
    assert "greyhound" in _top_statement(result)
    assert "dense_facts" in result.bundles[0].routes


@SHARED
async def test_keyword_route_finds_rare_terms(memory_runtime: Runtime) -> None:
    result = await memory_runtime.memory.query(SCOPE, "Dune", now=NOW)
    assert "Dune" in _top_statement(result)
    assert "bm25_facts" in result.bundles[0].routes


@SHARED
async def test_entity_route_uses_names_in_the_query(memory_runtime: Runtime) -> None:
    result = await memory_runtime.memory.query(SCOPE, "What did Priya suggest?", now=NOW)
    assert _routes(result)["entity"] >= 1
    assert "Priya" in _top_statement(result)


@SHARED
async def test_slot_route_and_supersession_aware_ranking(memory_runtime: Runtime) -> None:
    result = await memory_runtime.memory.query(SCOPE, "Where does Alice live?", now=NOW)
    assert "slot" in _routes(result)
    top = result.bundles[0]
    assert top.fact is not None and top.fact.statement == "Alice moved to Berlin."
    assert [f.statement for f in top.history] == ["Alice lives in Paris."]
    statements = [b.fact.statement for b in result.bundles if b.fact]
    assert "Alice lives in Paris." not in statements


@SHARED
async def test_temporal_route_resolves_relative_time(memory_runtime: Runtime) -> None:
    result = await memory_runtime.memory.query(SCOPE, "What happened two weeks ago?", now=NOW)
    assert _routes(result).get("temporal", 0) >= 1
    asked = await memory_runtime.memory.query(SCOPE, "How many pets two weeks ago?", now=NOW)
    assert asked.path == "ESCALATE"
    assert [r.route for r in asked.routes].count("temporal") == 1


@SHARED
async def test_raw_evidence_route_reaches_turns_without_facts(memory_runtime: Runtime) -> None:
    result = await memory_runtime.memory.query(SCOPE, "lol", now=NOW)
    raw = [b for b in result.bundles if b.fact is None]
    assert raw and raw[0].evidence[0].quote == "Lol!!"
    assert raw[0].evidence[0].source_turn_id == "t6"


@SHARED
async def test_budget_bounds_the_context(memory_runtime: Runtime) -> None:
    full = await memory_runtime.memory.query(SCOPE, "Tell me about Alice", now=NOW, limit=10)
    small = await memory_runtime.memory.query(
        SCOPE, "Tell me about Alice", now=NOW, limit=10, budget=30
    )
    assert small.tokens <= 30 < full.tokens
    assert [b.tokens for b in small.bundles] and len(small.bundles) < len(full.bundles)


@SHARED
async def test_router_escalates_for_missing_values_and_reads_neighbours(
    memory_runtime: Runtime,
) -> None:
    result = await memory_runtime.memory.query(SCOPE, "How many dogs does Alice have?", now=NOW)
    assert result.path == "ESCALATE" and result.path_reasons
    roles = {e.role for b in result.bundles for e in b.evidence}
    assert "support" in roles
    answer = await memory_runtime.memory.query(SCOPE, "What is Alice's marathon time?", now=NOW)
    assert answer.path in ("ANSWER", "ESCALATE") and answer.bundles


@SHARED
async def test_query_vectors_match_batch_vectors(memory_runtime: Runtime) -> None:
    """Queries take the int8 variant of the model (infra/models/query_model.py): close to the
    document path's vector of the same text, not equal (tests/integration/test_query_model)."""
    embedder = memory_runtime.memory.components.embedder
    text = "Where did Alice run a half marathon?"
    single = embedder.embed_query(text)
    (batch,) = embedder.embed_transient([text])
    assert sum(a * b for a, b in zip(single, batch, strict=True)) > 0.97
    assert not embedder.cached("I moved to Berlin.")  # evidence documents stay out of the cache


@SHARED
async def test_raw_evidence_is_found_by_who_said_it(memory_runtime: Runtime) -> None:
    """Her turns are searched as hers (the spoken route), not by her name as a word."""
    result = await memory_runtime.memory.query(SCOPE, "What did Alice laugh about?", now=NOW)
    assert _routes(result)["spoken"] >= 1
    assert _routes(result)["bm25_evidence"] == 0  # "laugh" is in none of her turns


async def test_ranking_reads_only_the_facts_its_first_places_need(tmp_path: Path) -> None:
    components = await build(Settings(data_dir=tmp_path / "d", partitions=2))
    names = ("Ben", "Chloe", "Dev", "Eli")
    facts = [
        Fact(
            fact_id=f"fact_{i:03d}",
            scope=Scope.parse(SCOPE),
            statement=f"Alice recommended the book number {i} to {names[i % 4]}.",
            evidence_ids=(f"ev_{i:03d}",),
            entities=("Alice", names[i % 4]),
            extraction_version="test",
            last_verified_at=NOW,
            version=1,
        )
        for i in range(40)
    ]
    changes = [fact_changed(FactOp.ADD, fact, "test", "test") for fact in facts]
    for change in changes:
        await components.views.apply(change)
    await components.index.index_facts(changes)
    read: list[str] = []
    get_many = components.views.get_many

    async def counted(ids: Sequence[str]) -> dict[str, Fact]:
        read.extend(ids)
        return await get_many(ids)

    components.views.get_many = counted  # type: ignore[method-assign]
    memory, query = MemoryService(components), "Which book did Alice recommend to Ben?"
    try:
        top = await memory.query(SCOPE, query, limit=1, now=NOW, escalate=False)
        first = len(read)
        every = await memory.query(SCOPE, query, limit=40, now=NOW, escalate=False)
    finally:
        await components.close()
    assert top.bundles[0] == every.bundles[0]
    assert first < len(read) - first  # the wide query reads every fact the routes found


CODE_TURN = """Here is the loader I ended up with, in `src/settings_loader.py`:

```python
from pathlib import Path

def parse_config(path):
    return load_yaml(Path(path))
```

I also pinned flask==2.3.1 in requirements.txt."""


async def test_anchor_route_finds_the_turn_of_a_code_identifier(runtime: Runtime) -> None:
    """Identifiers, paths and versions of a code block are exact terms of the turn: the
    anchor route finds it by them, beside turns sharing only the words around them (each
    runtime: its own vector engine)."""
    await runtime.memory.publish(
        [
            said("c1", "The config parsing is slow, I want to look at the settings.", 0),
            said("c2", CODE_TURN, 1),
            said("c3", "Flask feels fine for the loader of the settings page.", 2),
            said("c4", "I read the config docs of the settings loader again.", 3),
        ]
    )

    async def indexed() -> bool:
        found = await runtime.memory.query(SCOPE, "Why is config parsing slow?", now=NOW)
        return any(e.source_turn_id == "c4" for b in found.bundles for e in b.evidence) and any(
            r.route == "anchor" and r.hits
            for r in (await runtime.memory.query(SCOPE, "parse_config?", now=NOW)).routes
        )

    await runtime.settle(indexed)
    asked = {
        "Where is parse_config defined?": "parse_config",
        "What did we put in settings_loader.py?": "settings_loader.py",
        "Which flask version, 2.3.1?": "2.3.1",
    }
    for query, anchor in asked.items():
        result = await runtime.memory.query(SCOPE, query, now=NOW, escalate=False)
        assert anchor in {r.route: r.note for r in result.routes}["anchor"]
        found = [b for b in result.bundles if "anchor" in b.routes]
        turns = {e.source_turn_id for b in found for e in b.evidence}
        assert turns == {"c2"}, query
    plain = await runtime.memory.query(SCOPE, "Why is the config slow?", now=NOW)
    assert "anchor" not in {r.route for r in plain.routes}  # no anchor, no route


async def test_neighbour_route_brings_the_reply_to_a_turn_found(tmp_path: Path) -> None:
    """The answer to a question found often shares no word with the query: the neighbour
    route reads the exchange around the raw tier's best hits."""
    turns = [
        said("n1", "My sister keeps asking where I found the brass lamp.", 0),
        said("n2", "A flea market in Lyon, last spring, for twelve euros.", 1),
        said("n3", "The weather has been grey all week.", 2),
        said("n4", "I started a pottery class on Tuesdays.", 3),
    ]
    async with _published(tmp_path, turns, partitions=2) as runtime:
        result = await runtime.memory.query(SCOPE, "Where was the brass lamp found?", now=NOW)
        near = [b for b in result.bundles if "neighbours" in b.routes]
        assert "n2" in {e.source_turn_id for b in near for e in b.evidence}


async def test_a_question_about_someone_reaches_what_they_said_themselves(tmp_path: Path) -> None:
    """The spoken route searches the named speaker's own turns for what is asked; the word
    routes leave the speaker's name out (it heads every turn they said)."""
    turns = [
        {**said("b1", "Alice, have you ever tried the harp? Alice would love it.", 0)},
        {**said("a1", "On Sundays I repair old bicycles in the garage.", 1)},
    ]
    turns[0]["speaker"] = "Bob"
    async with _published(tmp_path, turns, partitions=2) as runtime:
        result = await runtime.memory.query(SCOPE, "What hobby does Alice have?", now=NOW)
        spoken = [b for b in result.bundles if "spoken" in b.routes]
        assert {e.source_turn_id for b in spoken for e in b.evidence} == {"a1"}
        assert "dense_facts" not in {r.route for r in result.routes}  # hers: the entity route
        plain = await runtime.memory.query(SCOPE, "What hobby is mentioned?", now=NOW)
        assert "spoken" not in {r.route for r in plain.routes}


async def test_the_asked_holder_s_fact_of_the_asked_kind_comes_first(tmp_path: Path) -> None:
    """Issue 27 item 6: asked where her brother lives, Alice's brother's city comes before
    her own home and before his other facts; asked where she lives, hers comes first."""
    turns = [
        said("b1", "My brother Tomas is a welder and he loves fishing.", 0),
        said("b2", "I live in Bergen with two cats.", 1),
        said("b3", "My brother Tomas lives in Tromso now.", 2),
        said("b4", "Tomas turned 40 in March.", 3),
    ]
    async with _published(tmp_path, turns, partitions=1) as runtime:
        brother = await runtime.memory.query(SCOPE, "Where does my brother live?", now=NOW)
        assert "Tromso" in _top_statement(brother)
        own = await runtime.memory.query(SCOPE, "Where do I live?", now=NOW)
        assert "Bergen" in _top_statement(own)


@asynccontextmanager
async def _published(
    tmp_path: Path, turns: list[dict[str, Any]], partitions: int
) -> AsyncIterator[Runtime]:
    """An embedded runtime of its own that has derived ``turns``; stopped after."""
    settings = Settings(data_dir=tmp_path / "d", partitions=partitions)
    runtime = await Runtime(settings, tmp_path).start()
    try:
        await runtime.memory.publish(turns)
        await runtime.memory.sync()
        yield runtime
    finally:
        await runtime.stop()
