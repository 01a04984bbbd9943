"""A turn captured at the calendar's edge, on both runtimes: ``captured_at`` in year 1 is
valid input, accepted, so it must become a fact like any other, and it must not stop the
derive stage for the turns after it (it did: "year 0 is out of range" on every read and
publish of every scope, nothing dead-lettered)."""

from __future__ import annotations

from tests.harness import SCOPE, Runtime, said

BOB = "acme/support/bob"


async def test_a_turn_captured_in_year_one_is_derived_and_stops_nothing(
    runtime: Runtime,
) -> None:
    early = said("t1", "I moved to Quetzalbrook last year.") | {
        "captured_at": "0001-01-01T03:00:00+00:00"
    }
    later = said("t2", "I adopted a dog named Brumbleton.", scope=BOB)
    results = await runtime.memory.publish([early, later])
    assert [r.status for r in results] == ["accepted", "accepted"], results

    async def both_derived() -> bool:
        alice, bob = await runtime.memory.facts(SCOPE), await runtime.memory.facts(BOB)
        return await runtime.caught_up() and bool(alice) and bool(bob)

    await runtime.settle(both_derived)
    (alice,) = await runtime.memory.facts(SCOPE)
    assert "Quetzalbrook" in alice.statement
