"""Which turns an erasure takes: its targets, then the actions left acting on nothing."""

from __future__ import annotations

from provmem.core.erasure import erased_by
from provmem.core.events import TurnRecorded
from provmem.core.ids import fact_id
from provmem.services.erasure.subject import erasure_request
from tests.factories import turn

SCOPE = "acme/support/u1"


def _acting(turn_id: str, on: str) -> TurnRecorded:
    return turn(turn_id).model_copy(update={"action": "correct", "target_fact_id": on})


def test_actions_on_facts_the_erased_turns_made_go_too_and_so_on() -> None:
    said, kept = turn("t1"), turn("t2")
    first = _acting("c1", fact_id(SCOPE, said.evidence_id, 1))  # on a fact t1 made
    second = _acting("c2", fact_id(SCOPE, first.evidence_id, 0))  # on the fact c1 made
    elsewhere = _acting("c3", fact_id(SCOPE, kept.evidence_id, 0))
    request = erasure_request(SCOPE, [said.evidence_id], None, False)

    erased = erased_by(request, [said, kept, first, second, elsewhere])

    assert erased == [said.evidence_id, first.evidence_id, second.evidence_id]


def test_a_subject_erasure_is_what_it_targets() -> None:
    turns = [turn("t1"), _acting("c1", fact_id(SCOPE, turn("t1").evidence_id, 0))]
    request = erasure_request(SCOPE, [], None, True)
    assert erased_by(request, turns) == [t.evidence_id for t in turns]
