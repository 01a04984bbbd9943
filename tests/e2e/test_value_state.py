"""Issue 27's new user, end to end through ``provmem.Memory`` (embedded runtime, real
parser and embedding model): a job change, a corrected name propagated to every fact that
states the old one, values said inside questions, and a sister's city kept as hers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from provmem import Memory
from provmem.core.events import Fact, FactStatus

FIRST = [
    "Hi! I'm Maya, I'm a nurse at Mercy Hospital in Seattle.",
    "My sister Jenna lives in Portland.",
    "My cat Pixel keeps me company on night shifts.",
    "I've sold 2 of the prints so far, is that normal for a new shop?",
]
LATER = [
    "I now work at Swedish Medical Center.",
    "Correction: my cat's name is Pixie, not Pixel.",
    "I've only sold 4 of the prints so far, is that normal?",
]


@pytest.fixture(scope="module")
def facts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Fact]]:
    folder: Path = tmp_path_factory.mktemp("value-state")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PROVMEM_READ_VALUES", "true")  # the default (provmem/config.py), said
        yield from _said(folder)


def _said(folder: Path) -> Iterator[list[Fact]]:
    with Memory(folder) as memory:
        for session, (at, said) in enumerate(
            (("2026-03-01T10:00:00Z", FIRST), ("2026-04-02T10:00:00Z", LATER))
        ):
            messages = []
            for text in said:
                messages += [
                    {"role": "user", "content": text},
                    {"role": "assistant", "content": "Happy to help with that."},
                ]
            memory.add(messages, user_id="maya", user_name="Maya", session_id=f"s{session}", at=at)
        yield list(memory.facts(user_id="maya", every=True))


def stating(facts: list[Fact], *words: str) -> list[Fact]:
    return [f for f in facts if all(w in f.statement for w in words)]


def test_a_job_change_supersedes_the_old_employer_with_history(facts: list[Fact]) -> None:
    (now,) = [f for f in stating(facts, "Swedish Medical Center") if f.status is FactStatus.ACTIVE]
    old = {f.fact_id: f for f in facts}[now.supersedes or ""]
    assert "Mercy Hospital" in old.statement and old.status is FactStatus.SUPERSEDED
    assert not [f for f in stating(facts, "Mercy") if f.status is FactStatus.ACTIVE]


def test_a_corrected_name_retires_every_active_fact_that_states_the_old_one(
    facts: list[Fact],
) -> None:
    assert stating(facts, "Pixie") and all(
        f.status is FactStatus.ACTIVE for f in stating(facts, "Pixie")
    )
    old = [f for f in stating(facts, "Pixel") if "Pixie" not in f.statement]
    assert len(old) >= 2 and all(f.status is FactStatus.SUPERSEDED for f in old)


def test_a_count_said_inside_questions_is_updated_with_its_history(facts: list[Fact]) -> None:
    (now,) = [f for f in stating(facts, "4") if f.status is FactStatus.ACTIVE]
    before = {f.fact_id: f for f in facts}[now.supersedes or ""]
    assert "2" in before.statement and before.status is FactStatus.SUPERSEDED


def test_the_sisters_city_is_not_the_users_home(facts: list[Fact]) -> None:
    portland = stating(facts, "Portland")
    assert portland and all(f.status is FactStatus.ACTIVE for f in portland)
    assert all("Jenna" in f.statement or "sister" in f.statement for f in portland)
