"""Exclusive categories (general knowledge) and the conflicts they let the gate record."""

from __future__ import annotations

import pytest

from provmem.core.extraction.categories import CATEGORIES, exclusive_rival, named_members
from provmem.core.facts.decision_reason import ReasonKind
from provmem.core.facts.gate import Verdict
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.stages import Candidate
from tests.unit.test_gate import near, run, vec
from tests.unit.test_value_changes import said


def test_every_member_has_aliases_and_belongs_to_one_category() -> None:
    seen: set[str] = set()
    for members in CATEGORIES.values():
        for member, aliases in members.items():
            assert aliases and member not in seen
            seen.add(member)


@pytest.mark.parametrize(
    ("statement", "category", "member"),
    [
        ("Ledgerly stores everything in PostgreSQL.", "database", "postgresql"),
        ("The MongoDB collections hold every record.", "database", "mongodb"),
        ("Our frontend is a React app.", "frontend framework", "react"),
        ("Pawprint is released under the GPL.", "license", "gpl"),
        ("The code is under the MIT license.", "license", "mit"),
        ("We deploy it to Heroku.", "host", "heroku"),
    ],
)
def test_members_are_named(statement: str, category: str, member: str) -> None:
    assert named_members(statement)[category] == frozenset({member})


def test_a_name_that_is_an_english_word_counts_only_capitalized() -> None:
    assert named_members("How did she react when I poured the flask?") == {}
    assert named_members("I want to express how I feel.") == {}
    assert named_members("The API is written with Flask.") == {"backend framework": {"flask"}}


def test_two_uses_of_different_members_are_rivals() -> None:
    assert exclusive_rival("Our only database is PostgreSQL.", "All data lives in MongoDB.")
    assert exclusive_rival("Shelfie is hosted on Heroku.", "It runs on a DigitalOcean droplet.")
    assert exclusive_rival("We use PostgreSQL.", "We use PostgreSQL for search.") is None
    assert exclusive_rival("Flask serves the API.", "The frontend is React.") is None


@pytest.mark.parametrize(
    "other",
    [
        "Maya prefers MongoDB over PostgreSQL.",  # a preference, a comparison
        "Maya might try MongoDB for the logs.",  # a maybe
        "Maya used MySQL at her previous job.",  # the past elsewhere
    ],
)
def test_preferences_plans_and_the_past_are_no_rivals(other: str) -> None:
    assert exclusive_rival(other, "Ledgerly stores everything in PostgreSQL.") is None


def test_another_member_without_a_change_cue_conflicts_and_with_one_updates() -> None:
    first = run(
        ScopeMemory(), "t1", Candidate(said("Ledgerly stores everything in PostgreSQL."), vec(1))
    )
    rival = said("The MongoDB collections hold every record of Ledgerly.")
    result = run(first.memory, "t2", Candidate(rival, near(vec(1), 0.2)), minute=5)
    assert result.decisions[0].verdict is Verdict.CONFLICT
    reason = result.decisions[0].reason
    assert reason.kind is ReasonKind.RIVAL_CONFLICT and reason.category == "database"
    moved = said("We switched Ledgerly to MongoDB last month.")
    result = run(first.memory, "t2", Candidate(moved, near(vec(1), 0.2)), minute=5)
    assert result.decisions[0].verdict is Verdict.UPDATE


def test_rivals_about_different_named_subjects_do_not_meet() -> None:
    first = run(
        ScopeMemory(), "t1", Candidate(said("Ledgerly stores everything in PostgreSQL."), vec(1))
    )
    other = said("Greenhouse keeps its data in MongoDB.")
    result = run(first.memory, "t2", Candidate(other, near(vec(1), 0.2)), minute=5)
    assert result.decisions[0].verdict is not Verdict.CONFLICT
