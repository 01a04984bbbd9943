"""Value-state readings of parsed turns (core/extraction/values.py) on real parses of
spaCy's small English pipeline (the parser adapter, infra/models/parser.py)."""

from __future__ import annotations

import pytest

from provmem.core.extraction.values import ValueKind, ValueReading, read_values
from provmem.infra.models.parser import SpacyParser

PARSER = SpacyParser()


def readings(text: str) -> list[ValueReading]:
    return read_values(PARSER.parse([text])[0], "Maya")


def only(text: str) -> ValueReading:
    found = readings(text)
    assert len(found) == 1, found
    return found[0]


def test_a_count_inside_a_question_is_read_with_the_verb_it_counts_for() -> None:
    found = only("I've only sold 4 of the prints so far, is that normal?")
    assert (found.holder, found.attribute, found.value) == ("Maya", "prints sold", "4")
    assert found.kind is ValueKind.COUNT
    assert found.said == "4" and found.context.startswith("I've only sold")


def test_a_count_in_a_clause_before_a_request_reads_its_subject_and_a_change() -> None:
    found = only("My reading list has grown to 30 titles, how should I sort it?")
    assert (found.attribute, found.value, found.changed) == ("reading list titles", "30", True)


def test_money_inside_a_request_reads_the_noun_it_is_the_value_of() -> None:
    found = only("My budget for the wedding is $12,000 - can you help me plan?")
    assert (found.attribute, found.value, found.kind) == (
        "budget for wedding",
        "12000",
        ValueKind.MONEY,
    )
    assert found.said == "$12,000" and not found.changed


def test_an_implicit_attribute_is_the_turns_noun_phrase_before_the_value() -> None:
    found = only("I'm translating my grandmother's letters. After the first pass I'm at 40%.")
    assert (found.attribute, found.value, found.kind) == (
        "translating letters",
        "40",
        ValueKind.PERCENT,
    )
    assert found.context == "After the first pass I'm at 40%."


def test_a_deadline_joins_its_day_and_month() -> None:
    found = only("The new chapter deadline is 9 May.")
    assert (found.attribute, found.value, found.kind) == (
        "chapter deadline",
        "9 may",
        ValueKind.DATE,
    )
    assert found.changed  # "new"


def test_a_relatives_value_is_held_by_the_relative() -> None:
    home, rent = readings("My sister lives in Portland and her rent is $1,900 a month.")
    assert (home.holder, home.attribute, home.value) == ("sister", "home city", "portland")
    assert (rent.holder, rent.attribute, rent.value) == ("sister", "rent", "1900")


def test_a_where_verb_names_the_attribute_whatever_the_verb() -> None:
    moved = only("My sister moved to Denver last year.")
    job = only("I now work at Swedish Medical Center.")
    assert (moved.holder, moved.attribute, moved.value) == ("sister", "home city", "denver")
    assert moved.time == "last year"
    assert (job.holder, job.attribute, job.value, job.changed) == (
        "Maya",
        "employer",
        "swedish medical center",
        True,
    )


def test_a_corrected_name_is_read_and_the_denied_one_is_not() -> None:
    found = only("Correction: my cat's name is Pixie, not Pixel.")
    assert (found.attribute, found.value, found.kind) == ("cat name", "pixie", ValueKind.NAME)
    assert found.changed


def test_names_a_thing_is_given_and_an_employer_at_a_job() -> None:
    puppy = only("We named the puppy Biscuit.")
    shop = only("The shop is now called Fern & Field.")
    job = only("I'm a nurse at Mercy Hospital.")
    assert (puppy.attribute, puppy.value) == ("puppy name", "biscuit")
    assert (shop.attribute, shop.value, shop.changed) == ("shop name", "fern field", True)
    assert (job.attribute, job.value) == ("employer", "mercy hospital")


def test_a_relative_named_beside_the_kin_word_has_both_names() -> None:
    found = only("My brother Tom lives in Austin.")
    assert (found.holder, found.aliases, found.value) == ("brother", ("Tom",), "austin")


def test_a_deadline_reads_what_it_is_for() -> None:
    found = only("The draft is due on 3 May for the first chapter.")
    assert (found.attribute, found.value) == ("draft due for chapter", "3 may")


@pytest.mark.parametrize(
    "text",
    ["Can you suggest one of the options?", "I talked to Dana about the garden.", "Thanks!"],
)
def test_no_value_no_reading(text: str) -> None:
    assert readings(text) == []


def test_an_events_date_is_not_a_state_and_a_moved_appointment_is() -> None:
    assert readings("Caroline went to the LGBTQ support group on 7 May 2023.") == []
    moved = only("We moved the appointment to 3 June.")
    assert (moved.attribute, moved.value, moved.changed) == ("appointment", "3 june", True)


def test_values_in_code_are_not_read() -> None:
    assert readings("Set `logs_line = 42` in the config.") == []
    assert only("My budget is $500; can you help?").value == "500"


def test_a_relative_apposed_to_the_subject_holds_the_value() -> None:
    found = only("Anika, my sister, is based in Lyon.")
    assert (found.holder, found.aliases, found.value) == ("sister", ("Anika",), "lyon")


@pytest.mark.parametrize(
    "text",
    [
        "We lived in Glasgow for 6 years before.",  # a state that ended
        "I used to work at Acme.",
        "I live with my partner Dev, who is a firefighter.",  # a companion, not a place
        "remind me to call Tara at the weekend",  # a phone call, not a name given
        "please help me write a birthday card for Paul.",  # not an employer
        "My goal is to hit 100 loaves a week by summer.",  # a goal, not a state
        "I'd love to go under 3:45.",
        "Kofi's marathon PR is 4:05 from Berlin in 2024.",  # the year dates an event
    ],
)
def test_what_is_not_a_current_value_is_not_read(text: str) -> None:
    assert readings(text) == []


def test_a_moves_new_place_and_a_things_place_are_read() -> None:
    moved = only("We moved from Leeds to York.")
    assert (moved.holder, moved.attribute, moved.value) == ("Maya", "home city", "york")
    shop = only("Lena's shop moved to Scottsdale.")
    assert (shop.holder, shop.attribute, shop.value) == ("Lena", "shop place", "scottsdale")


def test_the_holders_name_is_not_the_attribute_and_about_is_not_the_value() -> None:
    assert only("Maya can bake 12 loaves at a time now.").attribute.split() in (
        ["loaves"],
        ["loaves", "bake"],
    )
    assert only("I sell about 40 loaves a week at the market.").value == "40"
