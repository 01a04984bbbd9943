"""Spread (a turn's credit spent once) and the standing of ended facts (pure code)."""

from __future__ import annotations

from datetime import UTC, datetime

from provmem.core.events import FactStatus
from provmem.core.retrieval.fusion import Lookups, RouteResult, project, spread, spread_gains
from provmem.core.retrieval.sufficiency import analyze, introduced_name
from tests.unit.test_retrieval import _fact

NOW = datetime(2026, 5, 8, tzinfo=UTC)


def _one_turn_two_facts() -> Lookups:
    """A turn saying two things ("We moved to Boulder. My husband teaches math.") and a
    turn no fact covers."""
    husband = _fact("f_husband", "Priya's husband teaches math.", evidence_ids=("ev_1",))
    boulder = _fact("f_boulder", "Priya moved to Boulder.", evidence_ids=("ev_1",))
    facts = {"f_husband": husband, "f_boulder": boulder}
    return Lookups(facts, {"ev_1": ["f_husband", "f_boulder"], "ev_2": []})


def test_a_second_fact_of_a_cited_turn_that_answers_by_itself_keeps_its_place() -> None:
    routes = [
        RouteResult("dense_evidence", ("ev_1", "ev_2")),
        RouteResult("bm25_evidence", ("ev_1", "ev_2")),
        RouteResult("bm25_facts", ("f_husband",)),
        RouteResult("entity", ("f_husband", "f_boulder")),
        RouteResult("dense_facts", ("f_husband", "f_boulder")),
        RouteResult("slot", ("f_boulder",)),
    ]
    ranked = spread(project(routes, _one_turn_two_facts()))
    # the old rule (every turn already cited: last) put the raw turn ev_2 before it
    assert [b.key for b in ranked] == ["f_husband", "f_boulder", "ev_2"]


def test_a_fact_that_only_rode_on_a_cited_turn_yields_to_new_evidence() -> None:
    routes = [
        RouteResult("dense_evidence", ("ev_1", "ev_2")),
        RouteResult("bm25_evidence", ("ev_1", "ev_2")),
        RouteResult("dense_facts", ("f_boulder",)),
    ]
    placed = spread_gains(project(routes, _one_turn_two_facts()))
    assert [b.key for _, b in placed] == ["f_boulder", "ev_2", "f_husband"]
    gains = {b.key: gain for gain, b in placed}
    assert gains["f_husband"] == 0.0  # its only hits were on the turn f_boulder took
    assert gains["ev_2"] == placed[1][1].score  # new evidence keeps its fused score


def test_a_fact_with_another_turn_keeps_that_turns_credit() -> None:
    first = _fact("f1", evidence_ids=("ev_1",))
    both = _fact("f2", evidence_ids=("ev_1", "ev_3"))
    lookups = Lookups({"f1": first, "f2": both}, {"ev_1": ["f1", "f2"], "ev_3": ["f2"]})
    routes = [RouteResult("dense_evidence", ("ev_1", "ev_3")), RouteResult("dense_facts", ("f1",))]
    placed = spread_gains(project(routes, lookups))
    assert [b.key for _, b in placed] == ["f1", "f2"]
    assert abs(placed[1][0] - 1 / 12) < 1e-12  # ev_1's credit is spent, ev_3's is not


def _worked_then_works() -> tuple[Lookups, list[RouteResult]]:
    ended = _fact(
        "f_then", "Sam used to work at Google.", valid_to=datetime(2026, 3, 1, tzinfo=UTC)
    )
    now = _fact("f_now", "Sam works at Stripe now.", evidence_ids=("ev_2",))
    lookups = Lookups({"f_then": ended, "f_now": now}, {})
    routes = [
        RouteResult("dense_facts", ("f_then", "f_now")),
        RouteResult("bm25_facts", ("f_then", "f_now")),
    ]
    return lookups, routes


def test_an_ended_fact_ranks_below_a_current_one_for_a_question_about_now() -> None:
    lookups, routes = _worked_then_works()
    assert [b.key for b in project(routes, lookups)] == ["f_then", "f_now"]
    asked_now = project(routes, lookups, present_at=NOW)
    assert [b.key for b in asked_now] == ["f_now", "f_then"]
    assert abs(asked_now[1].score - 2 * 0.5 / 11) < 1e-12  # half credit, as a past version


def test_a_fact_ending_after_the_time_asked_about_keeps_its_credit() -> None:
    lookups, routes = _worked_then_works()
    before = datetime(2026, 2, 1, tzinfo=UTC)
    assert [b.key for b in project(routes, lookups, present_at=before)] == ["f_then", "f_now"]


def test_a_question_in_the_present_is_about_now_one_in_the_past_or_dated_is_not() -> None:
    assert analyze("Where does Sam work?", NOW).present_at == NOW
    assert analyze("What are Priya's hobbies?", NOW).present_at == NOW
    assert analyze("Where did Sam work?", NOW).present_at is None
    assert analyze("Where did Sam work in 2020?", NOW).present_at is None


def test_a_turn_held_only_as_history_is_not_spent() -> None:
    old = _fact(
        "f_old",
        "Emma lives in Munich.",
        evidence_ids=("ev_1",),
        status=FactStatus.SUPERSEDED,
        superseded_by="f_new",
    )
    new = _fact("f_new", "Emma moved to Toronto.", supersedes="f_old", evidence_ids=("ev_2",))
    hobby = _fact("f_hobby", "Emma's main hobby is chess.", evidence_ids=("ev_1",))
    facts = {"f_old": old, "f_new": new, "f_hobby": hobby}
    lookups = Lookups(facts, {"ev_1": ["f_old", "f_hobby"], "ev_2": ["f_new"]})
    routes = [
        RouteResult("dense_facts", ("f_old", "f_new")),
        RouteResult("bm25_evidence", ("ev_1",)),
    ]
    placed = spread_gains(project(routes, lookups))
    assert [b.key for _, b in placed] == ["f_new", "f_hobby"]
    assert placed[0][1].covers("ev_1") and placed[1][0] == placed[1][1].score  # not spent


def test_the_assistants_statement_counts_half_unless_the_question_asks_of_it() -> None:
    advice = _fact("f_advice", "The assistant recommended using pgx.", asserted_by="assistant")
    own = _fact("f_own", "Dev uses PostgreSQL 15.", evidence_ids=("ev_2",))
    lookups = Lookups({"f_advice": advice, "f_own": own}, {})
    routes = [RouteResult("dense_facts", ("f_advice", "f_own"))]
    assert [b.key for b in project(routes, lookups, of_assistant=True)] == ["f_advice", "f_own"]
    assert [b.key for b in project(routes, lookups, of_assistant=False)] == ["f_own", "f_advice"]


def test_a_question_asks_of_the_assistant_when_it_addresses_it_or_its_advice() -> None:
    assert analyze("What did you recommend for the database?", NOW).of_assistant
    assert analyze("Which driver was suggested?", NOW).of_assistant
    assert not analyze("What database does the service use?", NOW).of_assistant


def test_a_user_known_by_an_id_introduces_a_name() -> None:
    assert introduced_name(_fact("f", "The user is Tomas.")) == "Tomas"
    assert introduced_name(_fact("f", "The user's name is Tomas Berg.")) == "Tomas Berg"
    assert introduced_name(_fact("f", "The user is tired.")) is None
    assert introduced_name(_fact("f", "The user is Tomas.", asserted_by="assistant")) is None
