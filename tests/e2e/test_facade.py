"""``from provmem import Memory``: the same calls on the embedded runtime and against a
server (through the SDK), chat messages in, bundles with provenance out."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from provmem import AsyncMemory, Memory, RejectedError
from provmem.config import Settings
from provmem.core.events import ErasureCompleted, FactStatus
from provmem.services.api.app import create_api
from tests.e2e.test_api import issue
from tests.e2e.test_client import serving

AT = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
CHAT = [
    {"role": "system", "content": "You help Ann plan trips."},
    {"role": "user", "content": "I live in Paris."},
    {"role": "assistant", "content": [{"type": "text", "text": "Noted, Paris."}]},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c1"}]},
]
ANTHROPIC = {
    "role": "user",
    "content": [
        {"type": "text", "text": "I have a cat named Tom."},
        {"type": "image", "source": {"type": "base64", "data": "..."}},
    ],
}


@pytest.fixture(params=["embedded", "remote"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    if request.param == "embedded":
        with Memory(settings.data_dir) as local:
            yield local
        return
    token = issue(settings, "default")["Authorization"].removeprefix("Bearer ")
    with serving(create_api(settings)) as url, Memory(url=url, api_key=token) as remote:
        yield remote


def test_chat_messages_in_bundles_with_provenance_out(memory: Memory) -> None:
    results = memory.add(CHAT, user_id="ann", session_id="s1", at=AT)
    assert [r.status for r in results] == ["accepted", "accepted", "accepted", "skipped"]
    assert [r.index for r in results] == [0, 1, 2, 3]
    found = memory.search("where does ann live?", user_id="ann")
    paris = next(b for b in found if b.fact is not None and "Paris" in b.statement)
    assert paris.fact is not None and paris.fact.scope.key == "default/default/ann"
    assert paris.evidence[0].speaker == "ann" and paris.evidence[0].quote == "I live in Paris."
    text = str(found)
    assert paris.fact.fact_id in text and paris.evidence[0].evidence_id in text
    assert '"I live in Paris."' in text and found.path in ("ANSWER", "ESCALATE")
    detail = memory.history(paris.fact.fact_id)
    assert detail.evidence[0].evidence_id == results[1].evidence_id
    assert memory.add(ANTHROPIC, user_id="ann", at=AT)[0].status == "accepted"
    statements = {f.statement for f in memory.facts(user_id="ann")}
    assert any("Tom" in s for s in statements), statements


def test_a_user_known_by_an_id_is_found_by_the_name_they_gave(memory: Memory) -> None:
    """A facade passes ids ("u_1042") as speakers: statements say "the user", and a query
    naming the name the user introduced themselves with asks about that speaker."""
    chat = [
        "Hi! I'm Tomas.",
        "I switched to Hoka Clifton shoes last month.",
        "My resting heart rate is 58 bpm.",
        "I want to run a half marathon in the spring.",
    ]
    memory.add([{"role": "user", "content": c} for c in chat], user_id="u_1042", at=AT)
    statements = {f.statement for f in memory.facts(user_id="u_1042", every=True)}
    assert "The user is Tomas." in statements and not any("U_1042" in s for s in statements)
    top = memory.search("What shoes does Tomas wear?", user_id="u_1042")[0]
    assert "Hoka Clifton" in top.statement, top


def test_corrections_rejections_subscriptions_and_erasure(memory: Memory) -> None:
    memory.add("I live in Paris.", user_id="ann", at=AT)
    (paris,) = memory.facts(user_id="ann")
    memory.correct(paris.fact_id, "Ann lives in Rome.", by="ann")
    current = {f.status: f for f in memory.facts(user_id="ann")}
    assert current[FactStatus.ACTIVE].statement == "Ann lives in Rome."
    assert memory.history(current[FactStatus.ACTIVE].fact_id).supersedes[0].fact_id == (
        paris.fact_id
    )
    future = datetime.now(UTC) + timedelta(days=2)
    with pytest.raises(RejectedError) as refused:
        memory.add("I will be in Oslo.", user_id="ann", at=future)
    assert "captured_at" in str(refused.value) and refused.value.results[0].index == 0
    assert memory.add("x", user_id="ann", at=future, strict=False)[0].status == "rejected"
    with pytest.raises(ValueError, match="user_id: must be a non-empty string"):
        memory.add("hi", user_id="")
    changes = memory.subscribe(user_id="ann")
    first = next(changes)
    changes.close()
    assert first.op.value == "ADD" and first.fact_id == paris.fact_id
    receipt = memory.erase(user_id="ann", reason="asked")
    assert isinstance(receipt, ErasureCompleted) and receipt.residue_found == 0
    assert memory.facts(user_id="ann") == []
    with pytest.raises(LookupError):
        memory.history(paris.fact_id)


def test_more_messages_than_one_batch_are_all_remembered(memory: Memory) -> None:
    """A conversation of 1,001 messages: the facade sends it in batches on both backends
    (the embedded one refused it whole: "turns: at most 1000 per call")."""
    said = [f"I counted {n} birds." for n in range(1001)]
    results = memory.add(said, user_id="ann", at=AT)
    assert [r.status for r in results] == ["accepted"] * 1001
    assert [r.index for r in results] == list(range(1001))


async def test_async_memory_reads_its_own_writes(tmp_path: Path) -> None:
    async with AsyncMemory(tmp_path / "d", org="acme", project="app") as memory:
        await memory.add(
            [{"speaker": "Bo", "text": "I play the cello.", "turn_id": "t1"}], user_id="bo"
        )
        found = await memory.search("instrument", user_id="bo")
        assert found[0].evidence[0].source_turn_id == "t1"
        assert found.scope == "acme/app/bo"


def test_importing_provmem_loads_nothing_heavy() -> None:
    probe = (
        "import sys, provmem, provmem.client; from provmem import Memory, AsyncMemory;"
        "heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('faust', 'qdrant_client', 'qdrant_edge', 'fastembed', 'onnxruntime', 'aiokafka')];"
        "assert not heavy, heavy; print(Memory.__module__)"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "provmem.services.sdk.facade"


LIBRARY = """
import logging, sys
from provmem import Memory, configure_logging
if sys.argv[2] == "json":
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
    configure_logging("INFO", json=True)
with Memory(sys.argv[1]) as m:
    m.add("I live in Paris.", user_id="ann")
    found = m.search("Where does ann live?", user_id="ann")
assert "Paris" in str(found), str(found)
"""


@pytest.mark.parametrize("logs", ["default", "json"])
def test_as_a_library_it_prints_nothing_and_logs_json_when_asked(tmp_path: Path, logs: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", LIBRARY, str(tmp_path / "d"), logs],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""  # nothing on stdout, whatever the logging
    if logs == "json":
        events = [json.loads(line) for line in run.stderr.splitlines() if line.startswith("{")]
        assert events and all({"event", "level", "timestamp"} <= set(e) for e in events)
    else:
        assert "[info" not in run.stderr  # warnings and above only, by default
