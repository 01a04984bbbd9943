"""Fusion, projection, budget and the sufficiency router (pure code)."""

from __future__ import annotations

from datetime import UTC, datetime

from provmem.core.events import VALUE_STATE, FactStatus, TurnRecorded
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.retrieval.fusion import (
    RRF_K,
    Lookups,
    RouteResult,
    TimeAsked,
    agreed_raw_hits,
    count_tokens,
    fuse,
    neighbour_route,
    project,
    temporal_route,
    within_budget,
)
from provmem.core.retrieval.sufficiency import Need, Path, analyze, route, unnamed_query
from provmem.core.stages import Candidate
from provmem.streams.indexing import evidence_document
from tests.unit.test_gate import claim, run, vec

NOW = datetime(2026, 5, 8, tzinfo=UTC)


def _fact(fact_id: str, statement: str = "Alice plays cello.", **update: object):  # type: ignore[no-untyped-def]
    made = run(ScopeMemory(), fact_id, Candidate(claim(statement), vec(1))).changes[0].fact
    return made.model_copy(update={"fact_id": fact_id, **update})  # type: ignore[union-attr]


def test_rrf_rewards_items_found_by_several_routes() -> None:
    fused = fuse([RouteResult("a", ("x", "y")), RouteResult("b", ("y", "z"))])
    assert [f.item for f in fused] == ["y", "x", "z"]
    assert fused[0].routes == ("a", "b")
    assert abs(fused[0].score - (1 / (RRF_K + 2) + 1 / (RRF_K + 1))) < 1e-12


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
    assert abs(bundles[0].score - 1 / (RRF_K + 1)) < 1e-12
    assert abs(bundles[1].score - 1 / (RRF_K + 3)) < 1e-12


def test_a_half_credit_hit_does_not_mask_a_better_one_further_down() -> None:
    new = _fact("f2", "Alice moved to Berlin.", supersedes="f1")
    old = _fact("f1", "Alice lives in Paris.", status=FactStatus.SUPERSEDED, superseded_by="f2")
    lookups = Lookups({"f1": old, "f2": new}, {"ev_1": ["f1"], "ev_2": ["f2"]})
    bundle, turn = project([RouteResult("raw", ("ev_1", "ev_2"))], lookups)
    assert abs(bundle.score - 1 / (RRF_K + 2)) < 1e-12  # full credit at rank 2 beats half at rank 1
    assert turn.key == "ev_1" and turn.fact is None  # the replaced turn stands as itself


def test_a_turn_whose_facts_were_all_replaced_stays_itself_at_an_old_versions_credit() -> None:
    old = _fact("f1", "Alice's PR is 4:05.", status=FactStatus.SUPERSEDED, superseded_by="f2")
    new = _fact("f2", "Alice runs 42 miles a week.", supersedes="f1", evidence_ids=("ev_2",))
    lookups = Lookups({"f1": old, "f2": new}, {"ev_1": ["f1"], "ev_2": ["f2"]})
    bundles = {b.key: b for b in project([RouteResult("raw", ("ev_1",))], lookups)}
    assert bundles["f2"].history == [old] and "ev_1" not in bundles["f2"].via_evidence
    turn = bundles["ev_1"]  # what the old fact said beside the value is still found
    assert turn.evidence_ids == ("ev_1",) and abs(turn.score - 0.5 / (RRF_K + 1)) < 1e-12
    asked = project([RouteResult("raw", ("ev_1",))], lookups, asked=TimeAsked.HISTORY)
    assert [b.key for b in asked] == ["f1"]  # asked what held before: the old fact itself


def test_a_turn_merged_into_a_fact_citing_it_is_not_brought_back() -> None:
    old = _fact("f1", "Alice lives in Paris.", status=FactStatus.SUPERSEDED, superseded_by="f2")
    new = _fact("f2", "Alice lives in Paris, France.", evidence_ids=("ev_1", "ev_2"))
    lookups = Lookups({"f1": old, "f2": new}, {"ev_1": ["f1", "f2"], "ev_2": ["f2"]})
    assert [b.key for b in project([RouteResult("raw", ("ev_1",))], lookups)] == ["f2"]


def test_ignored_items_are_passed_over_and_the_rest_keep_their_ranks() -> None:
    facts = {i: _fact(i) for i in ("f1", "f2", "f3")}
    routes = [RouteResult("dense", ("f1", "f2", "f3")), RouteResult("bm25", ("f3", "f2"))]
    bundles = project(routes, Lookups(facts, {}), ignore={"f2"})
    assert [b.key for b in bundles] == ["f3", "f1"]
    assert abs(bundles[0].score - (1 / (RRF_K + 3) + 1 / (RRF_K + 1))) < 1e-12
    fused = {f.item: f.score for f in fuse(routes)}
    assert all(abs(b.score - fused[b.key]) < 1e-12 for b in bundles)  # active facts: as fused


def test_temporal_route_keeps_found_facts_inside_the_range_by_best_rank() -> None:
    may = _fact("f_may", valid_from=datetime(2026, 5, 3, tzinfo=UTC))
    june = _fact("f_june", valid_from=datetime(2026, 6, 3, tzinfo=UTC))
    late_may = _fact("f_late", valid_from=datetime(2026, 5, 30, tzinfo=UTC))
    lookups = Lookups({f.fact_id: f for f in (may, june, late_may)}, {"ev_1": ["f_late"]})
    routes = [RouteResult("dense", ("f_june", "f_may")), RouteResult("raw", ("ev_1",))]
    found = temporal_route(("2026-05-01/2026-05-31",), routes, lookups)
    assert found is not None and found.items == ("f_late", "f_may")
    assert temporal_route((), routes, lookups) is None


def test_evidence_is_indexed_with_who_said_it_and_when() -> None:
    turn = TurnRecorded.model_construct(
        speaker="Caroline", captured_at=datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    )
    assert evidence_document(turn, "I went to a support group.") == (
        "Caroline on 8 May 2023: I went to a support group."
    )


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
    assert analyze("How much of TrailMap is tested?", NOW).entities == ("TrailMap",)


def test_the_unnamed_query_asks_what_the_query_asks_of_its_names() -> None:
    names = analyze("What are Melanie's pets' names?", NOW).entities
    assert unnamed_query("What are Melanie's pets' names?", names) == "What are pets' names?"
    both = "What have Caroline and Melanie both painted?"
    assert unnamed_query(both, ("Caroline", "Melanie")) == "What have and both painted?"
    assert unnamed_query("Where do they live?", ()) == ""


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


def test_the_neighbour_route_reads_the_exchange_around_the_best_raw_hits() -> None:
    around = {"ev_5": ["ev_4", "ev_5", "ev_6"], "ev_9": ["ev_8", "ev_9", "ev_10"]}
    result = neighbour_route(["ev_5", "ev_9", "ev_6"], around)
    assert result is not None and result.route == "neighbours"
    assert result.items == ("ev_4", "ev_8", "ev_10")  # by anchor rank, before then after
    assert neighbour_route(["ev_1"], {"ev_1": ["ev_1"]}) is None


def test_the_agreed_raw_hits_are_those_both_raw_routes_found() -> None:
    routes = [
        RouteResult("dense_evidence", ("ev_1", "ev_2", "ev_3")),
        RouteResult("bm25_evidence", ("ev_3", "ev_4", "ev_1")),
        RouteResult("dense_facts", ("ev_2",)),
    ]
    assert agreed_raw_hits(routes, 3) == ["ev_1", "ev_3"]
    assert agreed_raw_hits([RouteResult("dense_evidence", ("ev_1",))], 3) == ["ev_1"]


def test_a_state_record_leaves_its_turn_raw_evidence_with_all_it_says() -> None:
    record = _fact("f1", "Alice's loaves sold is 40.", signals=(VALUE_STATE,))
    lookups = Lookups({"f1": record}, {"ev_1": ["f1"]})
    bundles = project([RouteResult("raw", ("ev_1",)), RouteResult("dense", ("f1",))], lookups)
    assert sorted(b.key for b in bundles) == ["ev_1", "f1"]  # the turn itself, full credit
    assert all(abs(b.score - 1 / (RRF_K + 1)) < 1e-12 for b in bundles)
    changed = record.model_copy(update={"status": FactStatus.SUPERSEDED, "superseded_by": "f2"})
    (turn,) = project([RouteResult("raw", ("ev_1",))], Lookups({"f1": changed}, {"ev_1": ["f1"]}))
    assert abs(turn.score - 0.5 / (RRF_K + 1)) < 1e-12  # a value since changed: half
