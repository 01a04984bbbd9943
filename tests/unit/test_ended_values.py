"""Ended values ("I used to live in X") are history: the gate never lets one replace the
current value, the slot keeps the current one, and recall ranks it below the current
value for a question about now; a question about before finds the old version itself."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from provmem.core.claim import Slot
from provmem.core.events import FactOp, FactStatus
from provmem.core.facts.decision_reason import ReasonKind
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.retrieval.fusion import Lookups, RouteResult, TimeAsked, project
from provmem.core.retrieval.sufficiency import analyze, asked_of_time
from provmem.core.stages import Candidate
from tests.unit.test_gate import claim, near, run, vec

ENDED_AT = datetime(2026, 5, 8, tzinfo=UTC)
OSLO, TORONTO = Slot("ana", "lives_in", "oslo"), Slot("ana", "lives_in", "toronto")


def _current_oslo() -> ScopeMemory:
    return run(ScopeMemory(), "t1", Candidate(claim("Ana lives in Oslo.", OSLO), vec(1))).memory


def test_an_ended_other_value_is_added_as_history_and_the_current_stays() -> None:
    ended = claim("Ana used to live in Toronto.", TORONTO, valid_to=ENDED_AT)
    result = run(_current_oslo(), "t2", Candidate(ended, near(vec(1), 0.9)), minute=1)
    (added,) = result.changes
    assert added.op is FactOp.ADD
    assert result.decisions[0].reason.kind is ReasonKind.ENDED_BESIDE_CURRENT
    assert added.reason == "history: an ended lives_in beside the current"
    statuses = {f.statement: f.status for f in result.memory.facts.values()}
    assert statuses == {"Ana lives in Oslo.": FactStatus.ACTIVE,
                        "Ana used to live in Toronto.": FactStatus.ACTIVE}  # fmt: skip


def test_the_current_value_said_to_have_ended_is_ended() -> None:
    ended = claim("Ana used to live in Oslo.", OSLO, valid_to=ENDED_AT)
    result = run(_current_oslo(), "t2", Candidate(ended, near(vec(1), 0.9)), minute=1)
    old, new = result.changes
    assert old.op is new.op is FactOp.UPDATE
    assert new.fact is not None and new.fact.valid_to == ENDED_AT


def test_a_later_value_replaces_the_current_one_not_the_history_beside_it() -> None:
    ended = claim("Ana used to live in Toronto.", TORONTO, valid_to=ENDED_AT)
    memory = run(_current_oslo(), "t2", Candidate(ended, vec(0, 1)), minute=1).memory
    moved = claim("Ana moved to Bergen.", Slot("ana", "moved_to", "bergen"))
    result = run(memory, "t3", Candidate(moved, vec(0, 0, 1)), minute=2)
    replaced = [c.fact for c in result.changes if c.fact and c.fact.status is FactStatus.SUPERSEDED]
    assert [f.statement for f in replaced] == ["Ana lives in Oslo."]


def test_a_relatives_residence_never_replaces_the_speakers() -> None:
    sister = claim("Ana's sister lives in Rome.", Slot("ana's sister", "lives_in", "rome"))
    result = run(_current_oslo(), "t2", Candidate(sister, near(vec(1), 0.8)), minute=1)
    assert [c.op for c in result.changes] == [FactOp.ADD]


def _facts(ended: bool):  # type: ignore[no-untyped-def]
    old = run(ScopeMemory(), "f_old", Candidate(claim("Ana used to live in Toronto."), vec(1)))
    new = run(ScopeMemory(), "f_new", Candidate(claim("Ana lives in Oslo."), vec(1)))
    update = {"fact_id": "f_old", "valid_to": ENDED_AT if ended else None}
    return old.changes[0].fact.model_copy(update=update), new.changes[0].fact.model_copy(  # type: ignore[union-attr]
        update={"fact_id": "f_new"}
    )


def test_an_ended_fact_ranks_below_the_current_one_for_a_question_about_now() -> None:
    old, new = _facts(ended=True)
    routes = [RouteResult("dense", ("f_old", "f_new"))]
    lookups = Lookups({"f_old": old, "f_new": new}, {})
    now = analyze("Where does Ana live?", ENDED_AT).present_at
    assert now is not None
    assert [b.key for b in project(routes, lookups, present_at=now)] == ["f_new", "f_old"]
    assert [b.key for b in project(routes, lookups, asked=TimeAsked.PAST)] == ["f_old", "f_new"]
    old, _ = _facts(ended=False)
    plain = Lookups({"f_old": old, "f_new": new}, {})
    assert [b.key for b in project(routes, plain, present_at=now)] == ["f_old", "f_new"]


def test_a_question_about_before_finds_the_superseded_version_itself() -> None:
    old, new = _facts(ended=False)
    old = old.model_copy(update={"status": FactStatus.SUPERSEDED, "superseded_by": "f_new"})
    new = new.model_copy(update={"supersedes": "f_old"})
    lookups = Lookups({"f_old": old, "f_new": new}, {})
    routes = [RouteResult("dense", ("f_old",))]
    (now,) = project(routes, lookups, asked=TimeAsked.PRESENT)
    assert now.fact is new and now.history == [old]
    (before,) = project(routes, lookups, asked=TimeAsked.HISTORY)
    assert before.fact is old
    both = [RouteResult("dense", ("f_new", "f_old"))]  # the current value found first
    ranked = project(both, lookups, asked=TimeAsked.HISTORY)
    assert [b.key for b in ranked] == ["f_old", "f_new"]  # what held before comes first


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("Where does Ana live?", TimeAsked.PRESENT),
        ("What is Ana's job now?", TimeAsked.PRESENT),
        ("Where did Ana go in May?", TimeAsked.PAST),
        ("Where did Ana live before?", TimeAsked.HISTORY),
        ("What was Ana's previous job?", TimeAsked.HISTORY),
        ("Where did Ana use to work?", TimeAsked.HISTORY),
    ],
)
def test_what_a_question_asks_of_time(query: str, asked: TimeAsked) -> None:
    assert asked_of_time(query) is asked
    assert analyze(query, ENDED_AT).asked is asked
