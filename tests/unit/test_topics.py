"""The topic registry: typed topics encode and decode their own events, every topic's key
codec round-trips an id, and no topic's name or config moved (bytes on the wire)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from provmem.core.events import (
    EVENT_MODELS,
    ErasureCompleted,
    ErasureRequested,
    FactChanged,
    TurnRecorded,
)
from provmem.core.ports import Append, Cleanup, CompactionBound, TopicConfig
from provmem.schemas import current_version, load
from provmem.streams.topics import (
    ALL_TOPICS,
    API_KEYS,
    DATA_KEYS,
    DEAD_LETTERS,
    ERASURE_RECEIPTS,
    ERASURE_REQUESTS,
    EVENT_TOPICS,
    FACT_CHANGES,
    TURNS,
    RawTopic,
    Topic,
    TopicNames,
)

HOUR = 3600 * 1000
BOUND = CompactionBound(
    max_lag_ms=HOUR, segment_ms=HOUR, min_dirty_ratio=0.1, tombstone_retention_ms=24 * HOUR
)
TEN_YEARS = 10 * 365 * 24 * HOUR


def example(model: type[BaseModel]) -> Any:
    """The released example of an event model, as the model."""
    name = model.__name__
    return EVENT_MODELS[name].model_validate(load(name, current_version(name), "example"))


def test_every_topic_is_declared_with_its_name_key_and_model() -> None:
    declared = [
        (t.suffix, t.keyed_by, type(t).__name__, getattr(t, "value", None)) for t in ALL_TOPICS
    ]
    assert declared == [
        ("turns", "evidence id", "Topic", TurnRecorded),
        ("fact-changes", "fact id", "Topic", FactChanged),
        ("erasure-requests", "request id", "Topic", ErasureRequested),
        ("erasure-receipts", "request id", "Topic", ErasureCompleted),
        ("dead-letters", "original key", "RawTopic", None),
        ("data-keys", "key id", "RawTopic", None),
        ("api-keys", "key id", "RawTopic", None),
    ]
    assert [t.schema_version for t in EVENT_TOPICS] == [2, 2, 1, 3]


def test_the_topic_configs_are_unchanged() -> None:
    assert TopicNames("p").configs() == [
        TopicConfig("p.turns", 8, Cleanup.COMPACT, -1, BOUND),
        TopicConfig("p.fact-changes", 8, Cleanup.COMPACT, -1, BOUND),
        TopicConfig("p.erasure-requests", 1, Cleanup.DELETE, TEN_YEARS, None),
        TopicConfig("p.erasure-receipts", 1, Cleanup.DELETE, TEN_YEARS, None),
        TopicConfig("p.dead-letters", 1, Cleanup.DELETE, 30 * 24 * HOUR, None),
        TopicConfig("p.data-keys", 1, Cleanup.COMPACT, -1, BOUND),
        TopicConfig("p.api-keys", 1, Cleanup.COMPACT, -1, BOUND),
    ]


def test_a_partition_count_overrides_the_scoped_topics_only() -> None:
    configs = TopicNames("p").configs(partitions=3, key_ring=False)
    assert [(c.name, c.partitions) for c in configs] == [
        ("p.turns", 3),
        ("p.fact-changes", 3),
        ("p.erasure-requests", 1),
        ("p.erasure-receipts", 1),
        ("p.dead-letters", 1),
        ("p.api-keys", 1),
    ]


@pytest.mark.parametrize("topic", ALL_TOPICS, ids=lambda t: t.suffix)
@pytest.mark.parametrize("id_", ["ev_1", "fact_ü|2", ""])
def test_an_id_round_trips_through_its_key(topic: RawTopic, id_: str) -> None:
    assert topic.key_for(id_) == id_.encode("utf-8")
    assert topic.id_in(topic.key_for(id_)) == id_


def test_a_key_that_is_no_utf8_reads_with_replacement_characters() -> None:
    assert TURNS.id_in(b"ev_\xff") == "ev_\ufffd"


@pytest.mark.parametrize(
    ("topic", "id_of"),
    [
        (TURNS, lambda e: e.evidence_id),
        (FACT_CHANGES, lambda e: e.fact_id),
        (ERASURE_REQUESTS, lambda e: e.request_id),
        (ERASURE_RECEIPTS, lambda e: e.request_id),
    ],
    ids=lambda t: getattr(t, "suffix", ""),
)
def test_an_event_is_keyed_by_its_id(topic: Topic[Any], id_of: Any) -> None:
    event = example(topic.value)
    assert topic.key(event) == id_of(event).encode("utf-8")
    assert topic.id_in(topic.key(event)) == id_of(event)


@pytest.mark.parametrize("topic", EVENT_TOPICS, ids=lambda t: t.suffix)
def test_an_event_round_trips_as_its_own_type(topic: Topic[Any]) -> None:
    event = example(topic.value)
    raw = topic.encode(event)
    assert raw == event.model_dump_json().encode("utf-8")
    decoded = topic.decode(raw)
    assert type(decoded) is topic.value and decoded == event


@pytest.mark.parametrize("topic", EVENT_TOPICS, ids=lambda t: t.suffix)
def test_a_record_is_the_event_under_its_key(topic: Topic[Any]) -> None:
    event = example(topic.value)
    assert topic.record(5, event) == Append(5, topic.key(event), topic.encode(event))


def test_a_tombstone_is_the_ids_key_without_a_value() -> None:
    assert FACT_CHANGES.tombstone(3, "fact_1") == Append(3, b"fact_1", None)
    assert DATA_KEYS.tombstone(0, "dk_1") == Append(0, b"dk_1", None)


def test_a_topic_refuses_another_topics_event() -> None:
    change = example(FactChanged)
    with pytest.raises(TypeError, match="turns carries TurnRecorded, not FactChanged"):
        TURNS.encode(change)
    with pytest.raises(TypeError):
        ERASURE_RECEIPTS.record(0, example(ErasureRequested))


def test_a_value_that_is_not_the_topics_event_does_not_decode() -> None:
    with pytest.raises(ValueError):
        TURNS.decode(FACT_CHANGES.encode(example(FactChanged)))


@pytest.mark.parametrize("topic", [DEAD_LETTERS, DATA_KEYS, API_KEYS], ids=lambda t: t.suffix)
def test_a_raw_topic_has_no_event_model(topic: RawTopic) -> None:
    assert not isinstance(topic, Topic)
    for codec in ("value", "encode", "decode", "key", "record"):
        assert not hasattr(topic, codec)


def test_the_gate_changelogs_of_every_gate_generation_are_found() -> None:
    from provmem.streams.topics import gate_changelogs

    topics = [
        "pm-gate-state-changelog",
        "pm.g3-gate-state-changelog",
        "pm2-gate-state-changelog",  # another deployment's group
        "pm.turns",
    ]
    found = ["pm-gate-state-changelog", "pm.g3-gate-state-changelog"]
    assert gate_changelogs("pm", topics) == found
    assert gate_changelogs("pm.g3", topics) == found  # a worker of generation 3 asks
