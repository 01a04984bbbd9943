"""The stage topology is the one declaration the runners read, and one function executes
what a handler returns: records sent (acknowledged) before state is saved."""

from __future__ import annotations

from collections.abc import Sequence

from provmem.core.ports import Append, LogRecord
from provmem.streams.outcome import Origin, Outcome, Outgoing, execute
from provmem.streams.runner import StageBinding
from provmem.streams.topics import TopicNames
from provmem.streams.topology import DERIVE, MATERIALIZE, ROUTE_ERASURES, STAGES, outputs_of

NAMES = TopicNames("t")


def test_every_stage_is_named_once_and_reads_a_registered_topic() -> None:
    assert len({stage.name for stage in STAGES}) == len(STAGES)
    assert DERIVE.input(NAMES) == NAMES.turns
    assert MATERIALIZE.input(NAMES) == NAMES.fact_changes
    assert ROUTE_ERASURES.input(NAMES) == NAMES.erasure_requests


def test_a_binding_takes_its_name_and_topic_from_the_table() -> None:
    binding = StageBinding.of(MATERIALIZE, NAMES, "group", stage=None)  # type: ignore[arg-type]
    assert (binding.name, binding.topic, binding.group) == (
        "materialize",
        NAMES.fact_changes,
        "group",
    )


def test_the_workers_outputs_are_each_topic_once_in_table_order() -> None:
    outputs = outputs_of(NAMES, DERIVE, MATERIALIZE, ROUTE_ERASURES)
    assert outputs == (NAMES.fact_changes, NAMES.dead_letters, NAMES.turns)


async def test_execute_sends_before_it_saves_and_skips_an_empty_send() -> None:
    done: list[str] = []

    async def send(items: Sequence[Outgoing]) -> None:
        done.extend(f"send {item.topic}" for item in items)

    async def save(key: str, value: bytes) -> None:
        done.append(f"save {key}")

    outcome = Outcome([Outgoing("facts", Append(0, b"k", b"v"))], {"gate|s|index": b"{}"})
    await execute(outcome, send, save)
    assert done == ["send facts", "save gate|s|index"]
    done.clear()
    await execute(Outcome(state={"k": b"v"}), send, None)
    assert done == []


def test_an_origin_names_where_a_record_was_read() -> None:
    origin = Origin.of(LogRecord("t.turns", 2, 41, b"k", b"v"))
    assert (origin.topic, origin.partition, origin.offset) == ("t.turns", 2, 41)
