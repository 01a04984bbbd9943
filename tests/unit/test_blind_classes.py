"""bench/blind/score's finer miss classes: the pure readings, on invented sentences."""

from __future__ import annotations

from types import SimpleNamespace

from bench.blind.score import (
    ANSWER_FIRST_KINDS,
    first_result_kind,
    position,
    rank_bucket,
    side_features,
    value_kind,
)


def test_value_kinds() -> None:
    assert value_kind("$2,300") == "money"
    assert value_kind("65%") == "percent"
    assert value_kind("March 4") == "date"
    assert value_kind("7:30 pm") == "time"
    assert value_kind("3.2.1") == "version"
    assert value_kind("14") == "count"
    assert value_kind("40 kg") == "number with unit"
    assert value_kind("Lisbon", "home city") == "place"
    assert value_kind("Biscuit", "dog's name") == "name"
    assert value_kind("oak") == "words"


def test_positions_of_a_value() -> None:
    assert position("I have 12 hens now, how much feed do they need?", "12") == "in a question"
    assert position("Could you plan meals for 6 guests.", "6") == "in a request"
    assert position("We left after 3 hours. It was fine.", "3") == "subordinate clause"
    assert position("I keep 9 goats. What fence?", "9") == "main clause, turn asks elsewhere"
    assert position("I keep 9 goats.", "9") == "main clause, turn asks nothing"
    assert position("I keep nine goats.", "9") == "not written literally"


def test_a_side_without_a_fact() -> None:
    turn = {"role": "user", "content": "Nice weather. I have never sailed a boat."}
    got = side_features(turn, "ever sailed a boat")
    assert got["position"] == "main clause, turn asks nothing"
    assert got["negated"] is True
    assert got["long turn (> 60 words)"] is False


def test_first_result_kinds() -> None:
    raw = SimpleNamespace(fact=None)
    fact = SimpleNamespace(fact=SimpleNamespace(statement="Ana grows basil.", slot="ana|grows"))
    other = SimpleNamespace(fact=SimpleNamespace(statement="Ben rows.", slot="ben|hobby"))
    roles = {1: "user", 2: "assistant"}
    assert first_result_kind(None, set(), {1}, ["mint"], "Ana", roles) == ANSWER_FIRST_KINDS[0]
    assert first_result_kind(raw, {1}, {5}, ["mint"], "Ana", roles) == "raw user turn"
    assert first_result_kind(raw, {2}, {5}, ["mint"], "Ana", roles) == "raw assistant turn"
    kind = first_result_kind(fact, {1}, {1}, ["mint"], "Ana", roles)
    assert kind == "fact of an evidence turn, another claim"
    kind = first_result_kind(fact, {3}, {1}, ["mint"], "Ana", roles)
    assert kind == "fact of the holder, another attribute"
    assert first_result_kind(other, {3}, {1}, ["mint"], "Ana", roles) == "fact about someone else"
    assert [rank_bucket(r) for r in (1, 3, 7, None)] == ["2", "3-5", "6-10", "not in top 10"]
