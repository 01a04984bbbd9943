"""Attribute phrases worded apart that name one thing (core/facts/attribute_similarity.py) and the
gate's update on them (hand-made vectors; the model's calibration is in
tests/integration/test_attribute_calibration.py)."""

from __future__ import annotations

import numpy as np

from provmem.core.claim import Slot
from provmem.core.events import FactStatus
from provmem.core.facts.attribute_similarity import (
    attribute_parts,
    attribute_similarity,
    calibrated_threshold,
    similar_attribute_fact,
)
from provmem.core.facts.memory_state import AttributeVectors, ScopeMemory, Vector
from provmem.core.stages import Candidate
from tests.unit.test_gate import CONFIG, claim, run, vec

# one axis per meaning: what the hand-made "model" equates
MEANING = {
    "ram": vec(1),
    "memory": vec(0.9, 0.43589),
    "worker": vec(0, 0, 1),
    "usage": vec(0, 0, 0, 1),
    "leak": vec(0, 0, 0, 0, 1),
    "staging": vec(0, 0, 0, 0, 0, 1),
    "production": vec(0, 0, 0, 0, 0, 0.9, 0.43589),
    "latency": vec(0, 0, 0, 0, 0, 0, 0, 1),
    "sister": vec(0, 0, 0, 0, 0, 0, 0, 0, 1),
    "partner": vec(0, 0, 0, 0, 0, 0, 0, 0, 0.95, 0.31225),
    "upload": vec(0, 1),
    "download": vec(0, 0.95, 0.31225),
}


def phrase(text: str) -> AttributeVectors:
    """A phrase's parts, each the normalized mean of its words' meanings."""
    parts: dict[str, Vector] = {}
    for part in attribute_parts(text):
        total = np.sum([MEANING[w] for w in part.split()], axis=0)
        parts[part] = (total / np.linalg.norm(total)).astype(np.float32)
    return AttributeVectors(text, parts)


def test_the_parts_are_the_phrase_then_shorter_runs() -> None:
    assert attribute_parts("worker process memory") == [
        "worker process memory",
        "worker process",
        "process memory",
        "worker",
        "process",
        "memory",
    ]


def test_synonyms_compare_on_the_words_that_differ() -> None:
    assert attribute_similarity(phrase("worker ram"), phrase("worker memory")) > 0.85
    assert attribute_similarity(phrase("ram"), phrase("memory")) > 0.85


def test_a_shared_word_does_not_make_a_near_miss_similar() -> None:
    usage, leak = phrase("memory usage"), phrase("memory leak")
    whole = float(usage.parts["memory usage"] @ leak.parts["memory leak"])
    assert whole > 0.4  # the whole phrases look alike through "memory"
    assert attribute_similarity(usage, leak) == 0.0


def test_one_head_with_different_modifiers_is_two_kinds_of_one_thing() -> None:
    staging, production = phrase("staging latency"), phrase("production latency")
    assert attribute_similarity(staging, production) == 0.0


def test_two_relations_to_a_person_are_never_one_attribute() -> None:
    """ "Anika is Marcus's sister." and "Kim is Marcus's partner." are two relations,
    however alike the nouns are in meaning."""
    assert attribute_similarity(phrase("sister"), phrase("partner")) == 0.0


def test_a_phrase_with_more_words_refines_the_other() -> None:
    assert attribute_similarity(phrase("worker ram"), phrase("ram")) == 1.0


def test_words_opposed_by_their_first_part_are_opposites() -> None:
    assert float(MEANING["upload"] @ MEANING["download"]) > 0.9
    assert attribute_similarity(phrase("upload"), phrase("download")) == 0.0


def test_the_calibrated_threshold_splits_labelled_scores_at_a_midpoint() -> None:
    assert calibrated_threshold([0.7, 0.6], [0.3, 0.5]) == 0.55
    # of equally good cuts, the highest: here one match is lost either way
    assert calibrated_threshold([0.8, 0.2], [0.4]) == 0.6


def memory_with(statement: str, attribute: str, value: str) -> ScopeMemory:
    slot = Slot("alice", attribute, value)
    first = run(ScopeMemory(), "t1", Candidate(claim(statement, slot), vec(1), phrase(attribute)))
    return first.memory


def test_a_synonym_attribute_with_a_new_value_supersedes_and_keeps_history() -> None:
    memory = memory_with("Each worker uses 900MB of RAM.", "worker ram", "900 mb")
    later = claim("Worker memory is 450MB now.", Slot("alice", "worker memory", "450 mb"))
    result = run(memory, "t2", Candidate(later, vec(0, 1), phrase("worker memory")), minute=5)
    old, new = result.changes
    assert result.decisions[0].verdict.value == "UPDATE"
    assert old.fact is not None and old.fact.status is FactStatus.SUPERSEDED
    assert new.fact is not None and new.fact.supersedes == old.fact_id
    assert result.memory.attributes[new.fact_id].phrase == "worker memory"
    assert result.memory.attributes[old.fact_id].phrase == "worker ram"  # kept for history


def test_a_near_miss_attribute_is_kept_apart() -> None:
    memory = memory_with("Memory usage is 900MB.", "memory usage", "900 mb")
    other = claim("The memory leak is 40MB now.", Slot("alice", "memory leak", "40 mb"))
    result = run(memory, "t2", Candidate(other, vec(0, 1), phrase("memory leak")), minute=5)
    assert result.decisions[0].verdict.value == "ADD"
    assert len(result.memory.active) == 2


def test_a_value_of_another_kind_is_no_new_value() -> None:
    memory = memory_with("Each worker uses 900MB of RAM.", "worker ram", "900 mb")
    slot = Slot("alice", "worker memory", "3")
    found = similar_attribute_fact(memory, slot, "user", phrase("worker memory"), 0.42)
    assert found is None


def test_the_same_value_or_a_lexical_match_leaves_the_decision_to_others() -> None:
    memory = memory_with("Each worker uses 900MB of RAM.", "worker ram", "900 mb")
    same = Slot("alice", "worker memory", "900 mb")
    assert similar_attribute_fact(memory, same, "user", phrase("worker memory"), 0.42) is None
    worded = Slot("alice", "ram", "450 mb")  # "ram" is a word of "worker ram": lexical
    assert similar_attribute_fact(memory, worded, "user", phrase("ram"), 0.42) is None
    other = Slot("alice", "worker memory", "450 mb")
    assert similar_attribute_fact(memory, other, "user", phrase("worker memory"), 0.42)


def test_without_attribute_vectors_the_gate_decides_as_before() -> None:
    memory = memory_with("Each worker uses 900MB of RAM.", "worker ram", "900 mb")
    slot = Slot("alice", "worker memory", "450 mb")
    assert similar_attribute_fact(memory, slot, "user", None, CONFIG.attribute_similarity) is None
    assert similar_attribute_fact(memory, slot, "assistant", phrase("worker memory"), 0.42) is None


def test_of_several_similar_attributes_the_most_similar_is_updated() -> None:
    memory = memory_with("Each worker uses 900MB of RAM.", "worker ram", "900 mb")
    leak = claim("The leak is 40MB.", Slot("alice", "leak", "40 mb"))
    memory = run(memory, "t2", Candidate(leak, vec(0, 0, 1), phrase("leak")), minute=1).memory
    slot = Slot("alice", "worker memory", "450 mb")
    found = similar_attribute_fact(memory, slot, "user", phrase("worker memory"), 0.0)
    assert found is not None and found.slot == "alice|worker ram"


def test_a_fact_without_attribute_vectors_is_left_to_the_other_rules() -> None:
    slot = Slot("alice", "worker ram", "900 mb")
    first = run(
        ScopeMemory(), "t1", Candidate(claim("Each worker uses 900MB of RAM.", slot), vec(1))
    )
    other = Slot("alice", "worker memory", "450 mb")
    assert not first.memory.attributes
    assert similar_attribute_fact(first.memory, other, "user", phrase("worker memory"), 0.0) is None
