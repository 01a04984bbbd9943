"""Recall never below its raw tier; conflicting facts together (pure code)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from provmem.core.events import FactStatus
from provmem.core.retrieval.fusion import (
    FusedBundle,
    Lookups,
    RouteResult,
    guaranteed_raw_hits,
    keep_raw_tier,
    pair_conflicts,
    project,
    raw_tier,
    spread,
    spread_gains,
)
from tests.unit.test_retrieval import _fact

EVIDENCE = [f"ev_{i}" for i in range(12)]
FACTS = [f"f{i}" for i in range(8)]


@st.composite
def retrievals(draw: st.DrawFn) -> tuple[list[RouteResult], Lookups]:
    """Random routes over random facts, each fact supported by some evidence turns."""
    support = {
        fact: draw(st.lists(st.sampled_from(EVIDENCE), min_size=1, max_size=3, unique=True))
        for fact in FACTS
    }
    facts = {f: _fact(f, evidence_ids=tuple(support[f])) for f in FACTS}
    of_evidence = {e: [f for f in FACTS if e in support[f]] for e in EVIDENCE}
    names = ["dense_facts", "bm25_facts", "entity", "dense_evidence", "bm25_evidence"]
    pool = {"dense_evidence": EVIDENCE, "bm25_evidence": EVIDENCE}
    routes = [
        RouteResult(
            name, tuple(draw(st.permutations(pool.get(name, FACTS)))[: draw(st.integers(0, 12))])
        )
        for name in names
    ]
    return routes, Lookups(facts, of_evidence)


@given(retrievals(), st.integers(1, 10), st.integers(0, 10))
def test_the_raw_tiers_best_hits_are_never_pushed_out_of_the_top(
    retrieval: tuple[list[RouteResult], Lookups], depth: int, kept: int
) -> None:
    routes, lookups = retrieval
    fused = spread(project(routes, lookups))
    required = raw_tier(routes, min(kept, depth))
    top = keep_raw_tier(fused, required, depth)[:depth]
    for evidence_id in required:
        assert any(b.covers(evidence_id) for b in top), (evidence_id, required)


@given(retrievals(), st.integers(1, 10))
def test_the_guarantee_only_reorders_and_changes_nothing_when_already_met(
    retrieval: tuple[list[RouteResult], Lookups], depth: int
) -> None:
    routes, lookups = retrieval
    fused = spread(project(routes, lookups))
    kept = keep_raw_tier(fused, raw_tier(routes, depth), depth)
    assert sorted(b.key for b in kept) == sorted(b.key for b in fused)
    assert keep_raw_tier(fused, [], depth) == fused


def test_a_raw_hit_fusion_ranked_low_is_pulled_into_the_top() -> None:
    facts = {f: _fact(f, evidence_ids=(f"ev_{f}",)) for f in ("a", "b", "c")}
    lookups = Lookups(facts, {})
    routes = [
        RouteResult("dense_facts", ("a", "b", "c")),
        RouteResult("bm25_facts", ("a", "b", "c")),
        RouteResult("bm25_evidence", ("ev_raw",)),
    ]
    fused = spread(project(routes, lookups))
    assert [b.key for b in fused][:2] == ["a", "b"]
    top = keep_raw_tier(fused, raw_tier(routes, 1), 2)
    assert [b.key for b in top][:2] == ["a", "ev_raw"]


def test_a_current_fact_ranks_above_what_it_superseded() -> None:
    old = _fact("f_old", "The image is 1.1GB.", status=FactStatus.SUPERSEDED, superseded_by="f_new")
    new = _fact("f_new", "The image is 380MB now.", supersedes="f_old", evidence_ids=("ev_2",))
    lookups = Lookups({"f_old": old, "f_new": new}, {"ev_1": ["f_old"], "ev_2": ["f_new"]})
    routes = [
        RouteResult("bm25_evidence", ("ev_1", "ev_2")),
        RouteResult("dense_facts", ("f_old",)),
    ]
    bundles = keep_raw_tier(spread(project(routes, lookups)), raw_tier(routes, 2), 10)
    # the old version is history; its turn, no active fact's evidence, stays itself, after
    assert [b.key for b in bundles] == ["f_new", "ev_1"]
    assert bundles[0].history == [old] and bundles[1].covers("ev_1")


def test_conflicting_facts_are_returned_together_and_marked() -> None:
    never = _fact("f1", "Alice never wrote Flask routes.", conflicts_with=("f3",))
    other = _fact("f2", "Alice likes tea.")
    doing = _fact("f3", "Alice writes the homepage route with Flask.", conflicts_with=("f1",))
    facts = {"f1": never, "f2": other, "f3": doing}
    bundles = [FusedBundle("f1", 0.3, {"x"}, never), FusedBundle("f2", 0.2, {"x"}, other)]
    paired = pair_conflicts(bundles, facts)
    assert [b.key for b in paired] == ["f1", "f3", "f2"]
    assert paired[0].conflicts == ["f3"] and paired[1].conflicts == ["f1"]
    assert paired[2].conflicts == []


def test_a_conflicting_fact_ranked_lower_moves_up_beside_its_partner() -> None:
    a = _fact("f1", "Alice never wrote Flask routes.", conflicts_with=("f3",))
    b, c = (
        _fact("f2", "Alice likes tea."),
        _fact("f3", "Alice writes routes.", conflicts_with=("f1",)),
    )
    bundles = [FusedBundle(f.fact_id, 1.0 - i / 10, {"x"}, f) for i, f in enumerate((a, b, c))]
    paired = pair_conflicts(bundles, {"f1": a, "f2": b, "f3": c})
    assert [x.key for x in paired] == ["f1", "f3", "f2"]


def test_only_raw_hits_both_raw_routes_found_are_guaranteed_in_their_share() -> None:
    routes = [
        RouteResult("dense_evidence", ("ev_hello", "ev_a", "ev_b", "ev_c")),
        RouteResult("bm25_evidence", ("ev_c", "ev_a")),
    ]
    assert raw_tier(routes, 3) == ["ev_a", "ev_c", "ev_hello"]
    assert guaranteed_raw_hits(routes, 10, 0.3) == ["ev_a", "ev_c"]  # ev_hello: dense alone
    assert guaranteed_raw_hits(routes, 5, 0.3) == ["ev_a", "ev_c"]  # 2 places of 5
    assert guaranteed_raw_hits(routes, 3, 0.3) == ["ev_a"]


def test_a_dense_only_guess_is_not_pulled_into_a_short_top() -> None:
    facts = {f: _fact(f, evidence_ids=(f"ev_{f}",)) for f in ("a", "b")}
    lookups = Lookups(facts, {"ev_a": ["a"], "ev_b": ["b"]})
    routes = [
        RouteResult("dense_facts", ("a", "b")),
        RouteResult("bm25_facts", ("a", "b")),
        RouteResult("dense_evidence", ("ev_hello", "ev_a", "ev_b")),
        RouteResult("bm25_evidence", ()),  # no turn shares a word with the query
    ]
    fused = spread(project(routes, lookups))
    assert [b.key for b in keep_raw_tier(fused, raw_tier(routes, 1), 2)][:2] == ["a", "ev_hello"]
    top = keep_raw_tier(fused, guaranteed_raw_hits(routes, 2, 0.3), 2)
    assert [b.key for b in top][:2] == ["a", "b"]


@given(retrievals())
def test_spread_reorders_only_and_places_by_non_increasing_gain(
    retrieval: tuple[list[RouteResult], Lookups],
) -> None:
    routes, lookups = retrieval
    fused = project(routes, lookups)
    placed = spread_gains(fused)
    assert sorted(b.key for _, b in placed) == sorted(b.key for b in fused)
    gains = [gain for gain, _ in placed]
    assert all(a >= b - 1e-12 for a, b in zip(gains, gains[1:], strict=False))
    assert all(gain <= b.score + 1e-12 for gain, b in placed)  # spending only takes away
