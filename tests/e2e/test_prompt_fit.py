"""Search results fit for a prompt, through the ``Memory`` facade on the real embedding
model: the system prompt, the assistant's acknowledgements, tool JSON and a tool result
never rank above the user's answering fact, a tool result is never the user's evidence,
a query memory cannot answer escalates with nothing, a first-person query answers."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from provmem import Memory

AT = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
CHAT = [
    {"role": "system", "content": "You help Ann plan trips. Ask where Ann lives."},
    {"role": "user", "content": "I live in Paris."},
    {"role": "assistant", "content": "Noted: Paris."},
    {"role": "user", "content": "My sister Lena lives in Berlin."},
    {"role": "assistant", "content": "Lovely!"},
    {"role": "tool", "content": '{"city": "Paris", "lives_in": "Paris", "status": "saved"}'},
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "saved: Ann lives in Rome"}
        ],
    },
    {"role": "user", "content": "I work at Acme as a baker."},
]


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with Memory(tmp_path_factory.mktemp("fit") / "d") as local:
        local.add(CHAT, user_id="ann", session_id="s1", at=AT)
        yield local


def _roles(found: object) -> list[str]:
    return [
        "fact" if b.fact is not None else b.evidence[0].speaker_role
        for b in found  # type: ignore[attr-defined]
    ]


def test_chatter_never_ranks_above_the_users_fact(memory: Memory) -> None:
    found = memory.search("Where does Ann live?", user_id="ann", limit=10)
    assert found[0].fact is not None and "Paris" in found[0].statement
    assert set(_roles(found)) <= {"fact", "user"}
    everything = memory.search("Where does Ann live?", user_id="ann", limit=10, raw_turns_of="all")
    roles = _roles(everything)
    others = [i for i, r in enumerate(roles) if r not in ("fact", "user")]
    assert others, "asked for every role, the assistant's and tools' turns come back"
    assert min(others) > max(i for i, r in enumerate(roles) if r in ("fact", "user"))


def test_a_tool_result_is_not_the_users_evidence(memory: Memory) -> None:
    facts = memory.facts(user_id="ann")
    assert not [f for f in facts if "Rome" in f.statement]
    found = memory.search("Rome", user_id="ann", limit=10, raw_turns_of="all", threshold=0)
    rome = [b for b in found if "Rome" in b.statement]
    assert rome and all(b.evidence[0].speaker_role == "tool" for b in rome)


def test_a_query_memory_cannot_answer_escalates_with_nothing(memory: Memory) -> None:
    for query in ("x", "What's the weather in Porto?"):
        found = memory.search(query, user_id="ann")
        assert found.path == "ESCALATE" and len(found) == 0, query


def test_questions_answered_in_other_words_answer(memory: Memory) -> None:
    """What is asked is a kind ("job", "city") or a verb ("do for a living"): results."""
    job = memory.search("What is my job?", user_id="ann")
    assert job and "baker" in " ".join(b.statement for b in job)
    city = memory.search("Which city does Lena live in?", user_id="ann")
    assert city and "Berlin" in city[0].statement
    living = memory.search("What do I do for a living?", user_id="ann")
    assert living.path == "ANSWER" and "baker" in " ".join(b.statement for b in living)


def test_first_person_queries_answer(memory: Memory) -> None:
    live = memory.search("Where do I live?", user_id="ann")
    assert live.path == "ANSWER" and "Paris" in live[0].statement
    work = memory.search("Where do I work?", user_id="ann")
    assert "Acme" in work[0].statement
    assert all(0 <= b.similarity <= 1 for b in [*live, *work])


def test_a_person_asked_about_ranks_first(memory: Memory) -> None:
    found = memory.search("Where does Lena live?", user_id="ann")
    assert "Berlin" in found[0].statement


def test_the_threshold_is_checked(memory: Memory) -> None:
    with pytest.raises(ValueError, match="threshold"):
        memory.search("Where do I live?", user_id="ann", threshold=1.5)
    with pytest.raises(ValueError, match="raw_turns_of"):
        memory.search("Where do I live?", user_id="ann", raw_turns_of="robot")


def test_every_result_clears_the_threshold(memory: Memory) -> None:
    everything = memory.search("Where does Ann live?", user_id="ann", limit=10, threshold=0)
    found = memory.search("Where does Ann live?", user_id="ann", limit=10, threshold=0.6)
    # a reply the neighbour route read around a hit stands with that hit (test_recall.py)
    assert all(b.similarity >= 0.6 or "neighbours" in b.routes for b in found)
    assert any(b.similarity >= 0.6 for b in found)
    assert 0 < len(found) < len(everything)
