"""The delivery guard's bookkeeping: frontiers, skipped records, idle partitions."""

from __future__ import annotations

from provmem.streams.delivery import DeliveryGuard

TP = ("t.turns", 0)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def handled(guard: DeliveryGuard, *offsets: int) -> None:
    for offset in offsets:
        guard.begin(TP, offset)
        guard.done(TP, offset)


def test_in_order_delivery_moves_the_frontier_and_raises_no_suspicion() -> None:
    guard = DeliveryGuard(clock=Clock())
    guard.start(TP, 6)
    handled(guard, 6, 7, 8)
    assert guard.frontier(TP) == 9
    assert guard.suspects() == []


def test_a_record_handled_above_the_frontier_exposes_the_skipped_ones() -> None:
    guard = DeliveryGuard(clock=Clock())
    guard.start(TP, 6)
    handled(guard, 6, 7, 8, 20, 21)
    assert guard.suspects() == [(TP, 9)]


def test_redelivery_fills_the_gap_and_absorbs_what_was_handled_above() -> None:
    guard = DeliveryGuard(clock=Clock())
    guard.start(TP, 6)
    handled(guard, 6, 20, 21)
    handled(guard, *range(7, 20))
    assert guard.frontier(TP) == 22
    handled(guard, 20, 21)  # duplicates of the seek's redelivery
    assert guard.frontier(TP) == 22
    assert guard.suspects() == []


def test_an_idle_agent_suspects_every_partition_after_the_grace_period() -> None:
    clock = Clock()
    guard = DeliveryGuard(clock=clock, grace_s=3.0)
    guard.start(TP, 0)
    handled(guard, 0)
    clock.now = 2.9
    assert guard.suspects() == []
    clock.now = 3.0
    assert guard.suspects() == [(TP, 1)]  # the caller compares 1 with the log's end


def test_a_record_in_flight_is_never_suspected() -> None:
    clock = Clock()
    guard = DeliveryGuard(clock=clock)
    guard.start(TP, 0)
    handled(guard, 0, 5)
    guard.begin(TP, 6)
    clock.now = 60.0  # a long cascade
    assert guard.suspects() == []


def test_after_a_seek_the_partition_waits_for_the_redelivery() -> None:
    clock = Clock()
    guard = DeliveryGuard(clock=clock, grace_s=3.0)
    guard.start(TP, 0)
    handled(guard, 0, 5)
    guard.sought(TP)
    clock.now = 1.0
    assert guard.suspects() == []
    clock.now = 3.0
    assert guard.suspects() == [(TP, 1)]  # still not redelivered: seek again


def test_a_compacted_range_moves_the_frontier_past_it() -> None:
    guard = DeliveryGuard(clock=Clock())
    guard.start(TP, 0)
    handled(guard, 0, 5, 6)
    guard.skip_to(TP, 5)
    assert guard.frontier(TP) == 7
    assert guard.suspects() == []


def test_a_failed_handler_leaves_the_record_unhandled() -> None:
    guard = DeliveryGuard(clock=Clock())
    guard.start(TP, 3)
    guard.begin(TP, 3)
    guard.abandon(TP)
    assert guard.frontier(TP) == 3


def test_revoked_partitions_are_forgotten() -> None:
    guard = DeliveryGuard(clock=Clock())
    guard.start(TP, 3)
    guard.forget([TP])
    assert not guard.knows(TP)
    guard.start(TP, -1)  # never committed
    assert guard.frontier(TP) == 0


def test_a_record_ahead_of_the_frontier_is_held_until_the_seek_has_had_its_time() -> None:
    clock = Clock()
    guard = DeliveryGuard(clock=clock, grace_s=3.0)
    guard.start(TP, 6)
    assert not guard.ahead(TP, 6)
    assert guard.ahead(TP, 12)
    guard.sought(TP)
    assert guard.seeking(TP)
    clock.now = 3.0
    assert not guard.seeking(TP)  # the redelivery did not come: seek again


def test_handling_the_frontier_ends_the_seek() -> None:
    guard = DeliveryGuard(clock=Clock())
    guard.start(TP, 6)
    guard.sought(TP)
    handled(guard, 6)
    assert not guard.seeking(TP)
