"""The answer first: the fused top reordered to agree with the question's holder and the
kind of value it asks for (core/retrieval/agreement.py). Invented questions and facts."""

from __future__ import annotations

from provmem.core.events import Fact
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.retrieval.agreement import (
    Kind,
    answer_first,
    asked_holder,
    asked_kind,
    fact_holder,
    stated_kinds,
)
from provmem.core.retrieval.fusion import FusedBundle
from provmem.core.stages import Candidate
from tests.unit.test_gate import claim, run, vec


def _fact(fact_id: str, statement: str, **update: object) -> Fact:
    made = run(ScopeMemory(), fact_id, Candidate(claim(statement), vec(1))).changes[0].fact
    assert made is not None
    return made.model_copy(update={"fact_id": fact_id, **update})


def _bundles(*statements: str) -> list[FusedBundle]:
    return [
        FusedBundle(f"f{i}", 1.0 - i / 10, {"dense_facts"}, _fact(f"f{i}", s))
        for i, s in enumerate(statements)
    ]


def _order(bundles: list[FusedBundle]) -> list[str]:
    return [b.fact.statement if b.fact else b.key for b in bundles]


def test_the_wh_word_names_the_kind_of_answer() -> None:
    assert asked_kind("Where does Tomas keep his kayak?") is Kind.PLACE
    assert asked_kind("When is Ines's cello recital?") is Kind.TIME
    assert asked_kind("How many hens does Ines keep?") is Kind.NUMBER
    assert asked_kind("How much is the rent on Tomas's studio?") is Kind.NUMBER
    assert asked_kind("Who tunes Ines's piano?") is Kind.NAME
    assert asked_kind("What does Tomas think of the new quilt?") is None


def test_the_holder_is_the_name_with_the_people_it_owns() -> None:
    assert asked_holder("Where does Ines's brother live?", ("Ines",)) == ("ines", "brother")
    assert asked_holder("What is Ines's favourite tea?", ("Ines",)) == ("ines",)
    assert asked_holder("When does the market open?", ()) == ()
    assert fact_holder("Ines's brother's landlord is strict.") == ("ines", "brother")
    assert fact_holder("The user's cousin plays darts.") == ("user", "cousin")
    assert fact_holder("the quilt has nine panels.") == ()


def test_a_fact_states_the_kinds_of_its_values() -> None:
    assert stated_kinds(_fact("a", "Tomas keeps 14 hens.")) == {Kind.NUMBER}
    assert Kind.NAME in stated_kinds(_fact("b", "Tomas's brother lives in Tromso."))
    assert Kind.TIME in stated_kinds(_fact("c", "Ines's recital is on Friday."))
    assert Kind.NUMBER not in stated_kinds(_fact("d", "Ines started in 2019."))
    assert stated_kinds(_fact("e", "Tomas likes dark roast coffee.")) == set()


def _close(ranked: list[FusedBundle], *similarities: float) -> dict[str, float]:
    return {b.key: s for b, s in zip(ranked, similarities, strict=True)}


def test_the_holder_s_fact_of_the_asked_kind_goes_first() -> None:
    ranked = _bundles(
        "Ines's brother is a welder.",
        "Ines lives in Bergen.",
        "Ines's brother lives in Tromso.",
    )
    question = "Where does Ines's brother live?"
    holder, kind = asked_holder(question, ("Ines",)), asked_kind(question)
    reordered = answer_first(ranked, holder, kind, _close(ranked, 0.5, 0.5, 0.6))
    assert _order(reordered)[0] == "Ines's brother lives in Tromso."


def test_a_question_about_the_user_puts_a_relative_s_fact_after_theirs() -> None:
    ranked = _bundles("Ines's sister lives in Oslo.", "Ines lives in Bergen.")
    reordered = answer_first(ranked, ("ines",), Kind.PLACE, _close(ranked, 0.6, 0.6))
    assert _order(reordered) == ["Ines lives in Bergen.", "Ines's sister lives in Oslo."]


def test_a_better_agreement_less_close_to_what_is_asked_keeps_its_place() -> None:
    ranked = _bundles("Tomas likes the coop.", "Tomas keeps 3 goats.")
    reordered = answer_first(ranked, ("tomas",), Kind.NUMBER, _close(ranked, 0.7, 0.4))
    assert _order(reordered) == ["Tomas likes the coop.", "Tomas keeps 3 goats."]


def test_equals_keep_the_fused_order_and_places_after_the_window_stay() -> None:
    ranked = _bundles(
        "Tomas keeps 14 hens.",
        "Tomas keeps 3 goats.",
        "Tomas likes the coop.",
        "Tomas sold 6 eggs.",
    )
    close = _close(ranked, 0.5, 0.5, 0.5, 0.9)
    reordered = answer_first(ranked, ("tomas",), Kind.NUMBER, close, window=3)
    assert _order(reordered) == [
        "Tomas keeps 14 hens.",
        "Tomas keeps 3 goats.",
        "Tomas likes the coop.",
        "Tomas sold 6 eggs.",
    ]


def test_a_question_asking_no_kind_of_no_one_keeps_the_fused_order() -> None:
    ranked = _bundles("The quilt has nine panels.", "The quilt is blue.")
    assert answer_first(ranked, (), None, _close(ranked, 0.4, 0.5)) == ranked


def test_a_raw_turn_moves_by_closeness_only() -> None:
    ranked = [FusedBundle("ev_1", 1.0, {"bm25_evidence"}), *_bundles("Tomas keeps 3 goats.")]
    held = answer_first(ranked, ("tomas",), Kind.NUMBER, {"ev_1": 0.6, "f0": 0.5})
    assert [b.key for b in held] == ["ev_1", "f0"]
    moved = answer_first(ranked, ("tomas",), Kind.NUMBER, {"ev_1": 0.4, "f0": 0.5})
    assert [b.key for b in moved] == ["f0", "ev_1"]


def test_a_day_of_a_month_is_a_time_not_a_number() -> None:
    assert stated_kinds(_fact("a", "Ines's recital is on 14 May 2026.")) == {Kind.TIME}
    assert stated_kinds(_fact("b", "Ines's recital is on May 14th.")) == {Kind.TIME}


def test_where_asks_for_a_name_or_a_place_phrase_not_a_time() -> None:
    assert asked_kind("Where does Tomas work?") is Kind.PLACE
    assert Kind.PLACE in stated_kinds(_fact("a", "Tomas works at a brewery."))
    assert Kind.PLACE not in stated_kinds(_fact("b", "Tomas works in the mornings."))
    assert Kind.PLACE not in stated_kinds(_fact("c", "Tomas is Ines's brother."))


def test_closeness_within_a_few_thousandths_is_no_difference() -> None:
    ranked = _bundles("Tomas keeps 3 goats.", "Tomas keeps 4 goats.")
    kept = answer_first(ranked, ("tomas",), Kind.NUMBER, _close(ranked, 0.861, 0.864))
    assert kept == ranked


def test_asked_how_things_stand_closeness_alone_does_not_lift_an_earlier_fact() -> None:
    earlier = _fact("f0", "Tomas pays 900 in rent.")
    later = _fact("f1", "Tomas's rent is now 950.")
    later = later.model_copy(update={"last_verified_at": earlier.last_verified_at.replace(day=20)})
    ranked = [FusedBundle(f.fact_id, 1.0, {"dense_facts"}, f) for f in (later, earlier)]
    close = {"f1": 0.5, "f0": 0.7}
    kept = answer_first(ranked, ("tomas",), Kind.NUMBER, close, present=True)
    assert [b.key for b in kept] == ["f1", "f0"]
    past = answer_first(ranked, ("tomas",), Kind.NUMBER, close)
    assert [b.key for b in past] == ["f0", "f1"]


def test_asked_how_things_stand_an_ended_fact_stays_below_what_holds() -> None:
    holds = _fact("f0", "Since starting at the clinic, Tomas barely cooks.")
    ended = _fact("f1", "Tomas used to be a teacher.", valid_to=holds.last_verified_at)
    ranked = [FusedBundle(f.fact_id, 1.0, {"dense_facts"}, f) for f in (holds, ended)]
    kept = answer_first(ranked, ("tomas",), None, {"f0": 0.5, "f1": 0.7}, present=True)
    assert [b.key for b in kept] == ["f0", "f1"]
