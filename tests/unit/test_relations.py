"""Relation families (core/extraction/relations.py): residence, employment and role, said by any
form of the family, in any clause, by the speaker only; ended forms are history."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from provmem.core.claim import Slot
from provmem.core.extraction.attributes import read_attribute
from provmem.core.extraction.claims import extract_claims
from provmem.core.extraction.slot_rules import match_slot

AT = datetime(2026, 5, 8, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("We're in Chicago.", "lives_in", "chicago"),
        ("Now that we're in Valencia, I walk almost everywhere.", "lives_in", "valencia"),
        ("We're living in Porto these days.", "lives_in", "porto"),
        ("No, we've been in Bristol since we moved in March.", "lives_in", "bristol"),
        ("The new flat in Valencia is tiny but I love it.", "lives_in", "valencia"),
        ("Our new house in Leeds has a garden.", "lives_in", "leeds"),
        ("We finally settled in Lyon.", "lives_in", "lyon"),
        ("Since moving to Melbourne I've been cycling a lot more.", "moved_to", "melbourne"),
        ("After we relocated to Oslo the winters got long.", "moved_to", "oslo"),
        ("Moving to Seattle was the best decision we made.", "moved_to", "seattle"),
    ],
)
def test_residence_is_read_from_every_form_of_its_family(
    text: str, attribute: str, value: str
) -> None:
    found = match_slot(text, "Ana", [])
    assert found is not None and found.slot == Slot("ana", attribute, value)
    assert not found.ended


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("Since I started as a project manager at a construction firm I barely cook.", "job",
         "project manager"),
        ("I just started a new job as a sales manager at a furniture company.", "job",
         "sales manager"),
        ("I've been a teacher at Lincoln Elementary for 2 years.", "job", "teacher"),
        ("Work has been busy, being a barista at a café is a lot.", "job", "barista"),
        ("I'm a paramedic at the county ambulance service now.", "job", "paramedic"),
        ("I got promoted to team lead last week.", "job", "team lead"),
        ("I was hired as a data analyst.", "job", "data analyst"),
        ("My new job at Initech is great.", "works_at", "initech"),
        ("By day I'm a paramedic, I work at the county service.", "job", "paramedic"),
        ("i work as a barista at a café near the station", "job", "barista"),
    ],
)  # fmt: skip
def test_employment_and_role_are_read_in_passing_and_from_frames(
    text: str, attribute: str, value: str
) -> None:
    found = match_slot(text, "Ana", [])
    assert found is not None and found.slot == Slot("ana", attribute, value)
    assert not found.ended


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("I used to live in Toronto.", "lives_in", "toronto"),
        ("We lived in Dublin for 6 years before.", "lives_in", "dublin"),
        ("I used to be a pharmacist at a pharmacy downtown.", "job", "pharmacist"),
        ("Before this I worked as a paramedic at the county service.", "job", "paramedic"),
        ("I was a nurse at the city hospital.", "job", "nurse"),
        ("I used to work at Globex.", "works_at", "globex"),
        ("I'm a former teacher.", "job", "teacher"),
        ("My previous job at Globex was stressful.", "works_at", "globex"),
        ("Since I lost my job at Globex, things have been tough.", "works_at", "globex"),
    ],
)
def test_the_past_of_a_state_says_it_ended(text: str, attribute: str, value: str) -> None:
    found = match_slot(text, "Ana", [])
    assert found is not None and found.slot == Slot("ana", attribute, value)
    assert found.ended


@pytest.mark.parametrize(
    "text",
    [
        "My sister lives in Rome.",
        "My sister just moved to Rome.",
        "Since my sister moved to Rome she calls less.",
        "I'm in Paris this week.",
        "We're in Rome for the weekend.",
        "We're thinking about moving to Lisbon.",
        "I'm in a meeting.",
        "I've been a fan since 2010.",
        "I was a bit tired.",
        "I work as a team with my brother.",
        "I'm a regular at the café.",
    ],
)
def test_another_persons_relation_a_visit_or_a_plan_is_no_residence_or_role(text: str) -> None:
    found = match_slot(text, "Ana", [])
    assert found is None or found.slot.attribute not in {"lives_in", "moved_to", "job"}


def test_a_moved_to_value_ends_before_the_next_clause_subject() -> None:
    found = match_slot("Since I moved to New York City we have been busy.", "Ana", [])
    assert found is not None and found.slot.value == "new york city"


def test_an_ended_claim_is_history_from_its_capture() -> None:
    (claim,) = extract_claims("We lived in Dublin for 6 years before.", speaker="Ana",
                              captured_at=AT)  # fmt: skip
    assert claim.slot == Slot("ana", "lives_in", "dublin") and claim.valid_to == AT
    (current,) = extract_claims("We live in Leeds.", speaker="Ana", captured_at=AT)
    assert current.valid_to is None


def test_the_time_an_activity_takes_is_its_measure() -> None:
    reading = read_attribute("It takes Ana 32 minutes to get to work now.", "Ana")
    assert reading is not None and reading.key == "ana|get work"
    assert reading.value == "32 min" and reading.changed
    same = read_attribute("It takes me 18 minutes to get to work each way.", "Ana")
    assert same is not None and same.key == reading.key
    assert read_attribute("It takes time to heal.", "Ana") is None


def test_a_relatives_move_is_not_the_speakers_residence_after_extraction() -> None:
    (sister,) = extract_claims("My sister just moved to Rome.", speaker="Ana", captured_at=AT)
    assert sister.slot is None or sister.slot.subject != "ana"
    (named,) = extract_claims("Jonah, my brother, is based in Chicago.", speaker="Ana",
                              captured_at=AT)  # fmt: skip
    assert named.slot is None or named.slot.subject != "ana"
