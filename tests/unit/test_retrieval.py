"""Fusion, projection, budget and the sufficiency router (pure code)."""

from __future__ import annotations

from datetime import UTC, datetime

from provmem.core.events import FactStatus
from provmem.core.memory_state import ScopeMemory
from provmem.core.retrieval import (
    Lookups,
    RouteResult,
    count_tokens,
    fuse,
    project,
    within_budget,
)
from provmem.core.stages import Candidate
from provmem.core.sufficiency import Need, Path, analyze, route
from tests.unit.test_gate import claim, run, vec

NOW = datetime(2026, 5, 8, tzinfo=UTC)


def _fact(fact_id: str, statement: str = "Alice plays cello.", **update: object):  # type: ignore[no-untyped-def]
    made = run(ScopeMemory(), fact_id, Candidate(claim(statement), vec(1))).changes[0].fact
    return made.model_copy(update={"fact_id": fact_id, **update})  # type: ignore[union-attr]


def test_rrf_rewards_items_found_by_several_routes() -> None:
    fused = fuse([RouteResult("a", ("x", "y")), RouteResult("b", ("y", "z"))])
    assert [f.item for f in fused] == ["y", "x", "z"]
    assert fused[0].routes == ("a", "b")
    assert abs(fused[0].score - (1 / 62 + 1 / 61)) < 1e-12


def test_route_weights_scale_contributions() -> None:
    fused = fuse([RouteResult("a", ("x",)), RouteResult("b", ("y",))], {"a": 0.5})
    assert [f.item for f in fused] == ["y", "x"]


def test_evidence_hits_project_onto_their_active_facts() -> None:
    fact = _fact("f1")
    lookups = Lookups({"f1": fact}, {"ev_1": ["f1"], "ev_2": []})
    bundles = project([RouteResult("raw", ("ev_1", "ev_2"))], lookups)
    assert [b.key for b in bundles] == ["f1", "ev_2"]
    assert bundles[0].fact is fact and bundles[0].via_evidence == {"ev_1"}
    assert bundles[1].fact is None and bundles[1].evidence_ids == ("ev_2",)


def test_superseded_hits_land_on_the_successor_as_history() -> None:
    old = _fact(
        "f_old", "Alice lives in Paris.", status=FactStatus.SUPERSEDED, superseded_by="f_new"
    )
    new = _fact("f_new", "Alice moved to Berlin.", supersedes="f_old")
    bundles = project([RouteResult("dense", ("f_old",))], Lookups({"f_old": old, "f_new": new}, {}))
    (bundle,) = bundles
    assert bundle.fact is new and bundle.history == [old]


def test_a_bundle_counts_once_per_route_at_its_best_rank() -> None:
    fact, other = _fact("f1"), _fact("f2")
    lookups = Lookups({"f1": fact, "f2": other}, {"ev_1": ["f1"], "ev_2": ["f1"], "ev_3": ["f2"]})
    bundles = project([RouteResult("raw", ("ev_1", "ev_2", "ev_3"))], lookups)
    assert [b.key for b in bundles] == ["f1", "f2"]
    assert abs(bundles[0].score - 1 / 61) < 1e-12 and abs(bundles[1].score - 1 / 63) < 1e-12


def test_a_half_credit_hit_does_not_mask_a_better_one_further_down() -> None:
    new = _fact("f2", "Alice moved to Berlin.", supersedes="f1")
    old = _fact("f1", "Alice lives in Paris.", status=FactStatus.SUPERSEDED, superseded_by="f2")
    lookups = Lookups({"f1": old, "f2": new}, {"ev_1": ["f1"], "ev_2": ["f2"]})
    (bundle,) = project([RouteResult("raw", ("ev_1", "ev_2"))], lookups)
    assert abs(bundle.score - 1 / 62) < 1e-12  # full credit at rank 2 beats half at rank 1


def test_budget_keeps_best_bundles_that_fit() -> None:
    sizes = {"a": 300, "b": 300, "c": 100}
    kept = within_budget(["a", "b", "c"], 512, lambda k: sizes[k])
    assert kept == ["a", "c"]
    assert count_tokens("Alice moved to Berlin, in May.") == 8


def test_query_analysis_finds_needs_names_and_times() -> None:
    intent = analyze("When did Caroline go to the support group last month?", NOW)
    assert Need.DATE in intent.needs and intent.entities == ("Caroline",)
    assert intent.time_ranges == ("2026-04-01/2026-04-30",)
    assert Need.COUNT in analyze("How many kids does Mel have?", NOW).needs


def test_router_answers_when_facts_state_the_need_else_escalates() -> None:
    dated = _fact("f1", valid_from=NOW)
    undated = _fact("f2")
    asks_date = analyze("When did Alice start cello?", NOW)
    assert route(asks_date, [dated]).path is Path.ANSWER
    escalated = route(asks_date, [undated])
    assert escalated.path is Path.ESCALATE and escalated.reasons == ("facts lack date",)
    assert route(analyze("How many cats?", NOW), [undated]).path is Path.ESCALATE
    assert route(analyze("What does Alice play?", NOW), []).reasons == ("no fact retrieved",)
    negated = _fact("f3", "Alice does not eat meat.", negated=True)
    assert route(analyze("What does Alice not eat?", NOW), [negated]).path is Path.ANSWER
