"""Which two statements a negation or a said change links (pure code, hand-made vectors):
the denied matter, not the context it was said in; a subject left to the speaker."""

from __future__ import annotations

from provmem.core.extraction.polarity import denied_head, denied_terms, names_matter, spells_out
from provmem.core.facts.gate import Verdict
from provmem.core.facts.memory_state import ScopeMemory
from provmem.core.stages import Candidate, GateResult
from tests.unit.test_gate import near, run, vec
from tests.unit.test_value_changes import said


def _facts(*statements: str, negated: int | None = None) -> GateResult:
    result = GateResult(ScopeMemory())
    for index, statement in enumerate(statements):
        claim = said(statement, negated=index == negated)
        result = run(result.memory, f"t{index}", Candidate(claim, vec(*[0.0] * index, 1)))
    return result


def _then(memory: ScopeMemory, statement: str, negated: bool = False) -> Verdict:
    later = Candidate(said(statement, negated=negated), near(vec(1), 0.6))
    return run(memory, "t9", later, minute=5).decisions[0].verdict


def test_the_platform_a_negation_denies_is_its_matter_not_the_project() -> None:
    context = (
        "Alice has never run Beacon on Windows.",
        "Beacon is a status page service.",
        "Beacon has 120 open issues.",
    )
    memory = _facts(*context, negated=0).memory
    assert _then(memory, "Beacon is released under the GPL.") is not Verdict.CONFLICT
    assert _then(memory, "On Windows the paths in Beacon's settings break.") is Verdict.CONFLICT


def test_a_project_most_facts_name_is_no_matter_on_its_own() -> None:
    context = (
        "Alice has never containerised Pawprint.",
        "Pawprint is a pet adoption site.",
        "Pawprint has 40 open issues.",
        "Pawprint runs on FastAPI.",
    )
    memory = _facts(*context, negated=0).memory
    assert _then(memory, "Alice writes raw SQL everywhere in Pawprint.") is not Verdict.CONFLICT


def test_a_denied_term_with_a_head_noun_needs_the_head_too() -> None:
    denial = "Alice has never written any Flask routes in this project."
    assert denied_head(denial, "flask") == "routes"
    assert denied_head("Alice never used Docker for it.", "docker") is None
    assert denied_head("There is no TypeScript anywhere in it.", "typescript") is None
    assert names_matter("Alice is implementing the homepage route with Flask.", "flask", denial)
    assert not names_matter("Alice is building Shelfie with Flask.", "flask", denial)
    assert names_matter("I touched the routing code in Flask.", "flask", denial)


def test_an_acronym_of_three_letters_the_denial_wrote_in_capitals_counts_spelled_out() -> None:
    assert not spells_out("Our continuous integration job broke on the lint step.", "CI")
    assert spells_out("We map rows with an object relational mapper.", "ORM")
    assert not spells_out("Our cat is lovely.", "CI")
    assert names_matter("We use an object relational mapper.", "orm", "Alice never used an ORM.")
    assert not names_matter("We use an object relational mapper.", "orm", "no orm here")
    assert not names_matter("Our container image is 1GB.", "ci", "Alice never set up CI.")


def test_a_said_change_whose_subject_is_left_to_the_speaker_updates_the_named_one() -> None:
    memory = _facts("Tidepool has roughly 2,100 MAU.").memory
    later = said("The monthly user count has climbed to 2,500.")
    result = run(memory, "t2", Candidate(later, vec(0, 1)), minute=5)
    assert result.decisions[0].verdict is Verdict.UPDATE
    assert result.changes[0].fact is not None
    assert result.changes[0].fact.statement == "Tidepool has roughly 2,100 MAU."


def test_two_named_subjects_or_no_change_cue_do_not_meet() -> None:
    memory = _facts("Tidepool has roughly 2,100 MAU.").memory
    for statement in ("Beacon's MAU has climbed to 2,500.", "The monthly user count is 2,500."):
        result = run(memory, "t2", Candidate(said(statement), vec(0, 1)), minute=5)
        assert result.decisions[0].verdict is Verdict.ADD, statement


def test_a_denial_ends_with_its_clause() -> None:
    terms = denied_terms("Not once have I written FastAPI routes for X, Ines owns it.", "Al")
    assert "ines" not in terms and "fastapi" in terms


def test_a_term_in_mixed_case_is_a_denied_matter() -> None:
    terms = denied_terms("Dev has never used gRPC or iOS in this project.", "Dev")
    assert {"grpc", "ios"} <= set(terms) and "project" not in terms
    memory = _facts("Dev has never used gRPC in this project.", negated=0).memory
    then = "On 30 November 2026 Dev wired up the gRPC gateway for the mobile client."
    assert _then(memory, then) is Verdict.CONFLICT


def test_a_denial_spelled_out_meets_its_acronym_in_capitals() -> None:
    memory = _facts("Alice says TrailMap has never had any continuous integration.", negated=0)
    assert _then(memory.memory, "The CI pipeline for TrailMap runs on every push.") is (
        Verdict.CONFLICT
    )
    assert _then(memory.memory, "The ci folder is empty.") is not Verdict.CONFLICT


def test_nobody_or_an_unnamed_subject_denies_what_a_named_one_does() -> None:
    nobody = _facts("Nobody ever wrote tests for the billing module.", negated=0).memory
    assert _then(nobody, "Alice's tests for the billing module caught a bug.") is (Verdict.CONFLICT)
    unnamed = _facts("The billing module has never had any tests.", negated=0).memory
    assert _then(unnamed, "Alice added unit tests to the billing module.") is Verdict.CONFLICT
    assert _then(unnamed, "Alice added a billing page.") is not Verdict.CONFLICT


def test_two_named_subjects_do_not_share_a_denial() -> None:
    memory = _facts("Bob has never written tests for the billing module.", negated=0).memory
    assert _then(memory, "Alice wrote tests for the billing module.") is not Verdict.CONFLICT


def test_rivals_meet_when_one_names_what_the_other_is_about() -> None:
    memory = _facts("Production for Shelfie is on AWS.").memory
    assert _then(memory, "Shelfie is deployed on Hetzner.") is Verdict.CONFLICT


def test_of_two_terms_named_as_often_the_one_after_a_preposition_is_the_context() -> None:
    intro = "Felix is building TrailMap with Express."
    memory = _facts(intro, "Felix has never added an Express endpoint to TrailMap.", negated=1)
    assert _then(memory.memory, "The TrailMap code is Apache-2.0.") is not Verdict.CONFLICT
    assert _then(memory.memory, "Felix wrote an Express endpoint today.") is Verdict.CONFLICT


def test_a_start_is_no_said_change_for_a_guess_across_wording() -> None:
    first = run(ScopeMemory(), "t1", Candidate(said("Alice's team is 2 engineers."), vec(1)))
    later = said("Alice has made 327 commits since the project started.")
    result = run(first.memory, "t2", Candidate(later, near(vec(1), 0.9)), minute=5)
    assert result.decisions[0].verdict is not Verdict.UPDATE


def test_a_denial_is_contradicted_only_by_what_is_so_not_a_plan_or_a_wish() -> None:
    memory = _facts("Maya has never been to Portugal.", negated=0).memory
    assert _then(memory, "Maya wants to go to Portugal in the spring.") is not Verdict.CONFLICT
    assert _then(memory, "Maya might visit Portugal with her sister.") is not Verdict.CONFLICT
    assert _then(memory, "Maya went to Portugal in 2019.") is Verdict.CONFLICT


def test_a_negation_and_a_statement_about_another_holder_do_not_conflict() -> None:
    memory = _facts("Tomas does not own a car.", negated=0).memory
    assert _then(memory, "Her neighbour's car is a red hatchback.") is not Verdict.CONFLICT
