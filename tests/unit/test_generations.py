"""Generation names, the pointer's JSON, and the scope filter of replay stages."""

from __future__ import annotations

from pathlib import Path

from provmem.core.ports import LogRecord
from provmem.infra.stores.generations import (
    FilePointer,
    Generation,
    PendingReplay,
    PointerState,
    read_file_pointer,
)
from provmem.services.replay.stages import record_scope, scope_filter


def test_generation_zero_is_the_layout_before_generations() -> None:
    zero = Generation()
    assert (zero.suffix(), zero.redis_prefix("p"), zero.gate_namespace()) == ("", "p", "")
    assert (zero.views_group("g"), zero.derive_group("g")) == ("g", "g")


def test_a_generation_names_its_own_namespaces() -> None:
    views_only = Generation(views=3, gate=1)
    assert views_only.suffix() == "-g3" and views_only.redis_prefix("p") == "p:g3"
    assert views_only.views_group("g") == "g.g3" and views_only.derive_group("g") == "g.g1"
    assert views_only.gate_namespace() == "g1/"


def test_the_pointer_round_trips_and_never_reuses_a_number(tmp_path: Path) -> None:
    state = PointerState(
        live=Generation(2, 1),
        pending=PendingReplay("rp_1", "turns", Generation(4, 4), ("a/b/c",)),
        retired=(Generation(1, 1),),
        last_number=4,
    )
    assert PointerState.from_json(state.to_json()) == state
    assert state.next_number() == 5
    assert PointerState().next_number() == 1
    path = tmp_path / "generation.json"
    assert read_file_pointer(path) == PointerState()


async def test_the_file_pointer_is_replaced_whole(tmp_path: Path) -> None:
    pointer = FilePointer(tmp_path / "generation.json")
    await pointer.write(PointerState(live=Generation(1, 0), last_number=1))
    assert (await pointer.read()).live == Generation(1, 0)
    assert not list(tmp_path.glob("*.tmp"))


def test_the_scope_filter_keeps_the_chosen_scopes_and_tombstones() -> None:
    def record(value: bytes | None) -> LogRecord:
        return LogRecord("t", 0, 0, b"k", value)

    alice = b'{"scope": {"org": "acme", "project": "app", "user": "alice"}, "x": 1}'
    bob = b'{"scope": {"org": "acme", "project": "app", "user": "bob"}}'
    keep = scope_filter(["acme/app/alice"])
    assert [keep(record(v)) for v in (alice, bob, None, b"not json")] == [True, False, True, False]
    assert scope_filter([])(record(bob))
    assert record_scope(alice) == "acme/app/alice" and record_scope(b"[]") is None


def test_a_qdrant_collection_follows_the_gate_generation() -> None:
    """A replay from fact changes keeps the gate and its collection; from turns, a new one."""
    assert Generation().collection("pm-facts") == "pm-facts"
    assert Generation(3, 0).collection("pm-facts") == "pm-facts"
    assert Generation(3, 2).collection("pm-facts") == "pm-facts-g2"
