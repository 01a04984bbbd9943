"""Results fit for a prompt (core/retrieval/relevance.py): the first person as the scope's
user, each result's similarity, the floor's argument and the roles of raw turns."""

from __future__ import annotations

import pytest

from provmem.core.retrieval.relevance import (
    DEFAULT_THRESHOLD,
    Similarity,
    checked_threshold,
    first_person,
    raw_roles,
    similarity_of,
    user_name,
)


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("Where do I work?", "Where does Ann work?"),
        ("Where do I live?", "Where does Ann live?"),
        ("What is my cat's name?", "What is Ann's cat's name?"),
        ("Am I vegan?", "Is Ann vegan?"),
        ("Where have I been?", "Where has Ann been?"),
        ("What did I tell you about me?", "What did Ann tell you about Ann?"),
        ("I'm moving where?", "Ann is moving where?"),
    ],
)
def test_the_first_person_is_the_scopes_user(query: str, asked: str) -> None:
    assert first_person(query, "Ann") == asked


@pytest.mark.parametrize("query", ["Where does Lena live?", "x", "What's the weather in Porto?"])
def test_a_query_without_a_first_person_is_kept(query: str) -> None:
    assert first_person(query, "Ann") == query


@pytest.mark.parametrize(
    ("scope", "name"), [("acme/app/ann", "Ann"), ("acme/app/Ann", "Ann"), ("a/b/u_1042", "User")]
)
def test_the_users_name_comes_from_the_scope(scope: str, name: str) -> None:
    assert user_name(scope) == name


def test_a_result_scores_its_best_similarity_and_an_unseen_one_the_bound() -> None:
    found = similarity_of([[("fact_a", 0.8), ("fact_b", 0.4)], [("ev_1", 0.9), ("ev_2", 0.5)]], 2)
    assert found.of(["fact_a", "ev_1"]) == 0.9
    assert found.of(["fact_b"]) == 0.4
    assert found.of(["fact_unseen"]) == 0.5  # not in a full top 2: at most its last
    assert similarity_of([[("fact_a", 0.8)]], 2).of(["fact_unseen"]) == 0.0  # all were seen


def test_a_similarity_is_clipped_to_0_1() -> None:
    assert Similarity({"a": -0.2, "b": 1.0000002}).of(["a"]) == 0.0
    assert Similarity({"a": -0.2, "b": 1.0000002}).of(["b"]) == 1.0


def test_the_threshold_is_a_similarity() -> None:
    assert checked_threshold(None) == DEFAULT_THRESHOLD
    assert checked_threshold(0) == 0.0
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="threshold"):
            checked_threshold(bad)


def test_raw_turns_are_the_users_unless_asked() -> None:
    assert raw_roles(None) == {"user"}
    assert raw_roles("all") == {"user", "assistant", "system", "tool"}
    assert raw_roles(["user", "tool"]) == {"user", "tool"}
    for bad in ("robot", []):
        with pytest.raises(ValueError, match="raw_turns_of"):
            raw_roles(bad)
