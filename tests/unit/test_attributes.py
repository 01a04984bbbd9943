"""Open (subject, attribute, value) readings of statements (pure code)."""

from __future__ import annotations

import pytest

from provmem.core.extraction.attributes import change_cue, read_attribute, read_attributes
from provmem.core.extraction.polarity import content_lemmas, plain_negation
from provmem.core.facts.attribute_match import comparable, same_attribute


@pytest.mark.parametrize(
    ("statement", "key", "value"),
    [
        (
            "The API response time was 800ms after the first deploy.",
            "alice|api response time",
            "800 ms",
        ),
        ("The response time has recently improved to 250ms.", "alice|response time", "250 ms"),
        ("The repo has 150 commits so far.", "alice|commit", "150"),
        ("Alice and others have now reached 165 commits.", "alice|commit", "165"),
        ("The commit count has now reached 165.", "alice|commit", "165"),
        ("The number of users grew from 1,200 to 1,500.", "alice|user", "1500"),
        ("Our test coverage is now at 85%.", "alice|test coverage", "85 %"),
        ("The bundle size is 1.2 MB.", "alice|bundle size", "1.2 mb"),
        ("The monthly budget is $500.", "alice|monthly budget", "$500"),
        ("The deadline is 3 June.", "alice|deadline", "3 june"),
        ("Alice's project is called Falcon.", "alice|project name", "falcon"),
        ("Anna's dog is named Rex.", "anna|dog name", "rex"),
        ("Alice upgraded Django to 5.0 on 7 May 2026.", "alice|django version", "5.0"),
        ("The Django version is 5.0.", "alice|django version", "5.0"),
        ("The app runs on flask@2.3.3 for now.", "alice|flask version", "2.3.3"),
        ("We're still on Python 3.11 in production.", "alice|python version", "3.11"),
        (
            "The database region changed from ap-southeast-2 to eu-west-1.",
            "alice|database region",
            "eu-west-1",
        ),
        ("The backlog has 35 open issues.", "alice|open issue", "35"),
        ("Pulling the image (only 380MB now) takes seconds.", "alice|image", "380 mb"),
        ("The beta launch is planned for on 11 June 2026.", "alice|beta launch", "11 june 2026"),
        ("Sadly. The beta slipped to on 1 July 2026.", "alice|beta", "1 july 2026"),
    ],
)
def test_a_value_given_to_a_noun_phrase_is_read(statement: str, key: str, value: str) -> None:
    reading = read_attribute(statement, "Alice")
    assert reading is not None, statement
    assert (reading.key, reading.value) == (key, value)


def test_a_change_said_in_passing_inside_another_sentence_is_read() -> None:
    statement = (
        "While fixing the cache, which brought the p95 latency down to 120 ms, Alice added tests."
    )
    reading = read_attribute(statement, "Alice")
    assert reading is not None and reading.changed
    assert (reading.attribute, reading.value) == ("p95 latency", "120 ms")


@pytest.mark.parametrize(
    "statement",
    [
        "Alice is implementing the homepage route with Flask.",
        "Alice went hiking 3 times in May.",
        "Alice is 30 years old.",
        "Alice went to Paris.",
        "It is a nice day.",
        "Alice was at the park.",
    ],
)
def test_statements_without_an_attribute_value_have_no_reading(statement: str) -> None:
    assert read_attributes(statement, "Alice") == ()


def test_paraphrased_attribute_keys_meet() -> None:
    first = read_attribute("The average API response time is 900 ms.", "Alice")
    second = read_attribute("Response times are down to 300 ms.", "Alice")
    assert first is not None and second is not None
    assert same_attribute(first.attribute, second.attribute)
    assert same_attribute("docker image", "image size") and same_attribute("test", "test case")
    assert not same_attribute("open issue", "open ticket")


def test_a_shorter_mention_meets_the_longer_key() -> None:
    first = read_attribute("The API's p95 response time is about 720ms at the moment.", "Ann")
    second = read_attribute("The p95 has recently improved to 180ms.", "Ann")
    assert first is not None and second is not None
    assert first.attribute == "p95 response time" and second.attribute == "p95"
    assert same_attribute(first.attribute, second.attribute) and second.changed


def test_an_acronym_meets_the_phrase_it_abbreviates() -> None:
    first = read_attribute("Greenhouse has roughly 1,000 MAU.", "Ann")
    second = read_attribute("We have 2,200 monthly users now.", "Ann")
    assert first is not None and second is not None
    assert (first.attribute, first.value) == ("MAU", "1000")
    assert same_attribute(first.attribute, second.attribute)
    assert not same_attribute("cost", "cloud storage tier")  # a word is no acronym
    assert read_attribute("The call is at 5 PM.", "Ann") is None or (
        read_attribute("The call is at 5 PM.", "Ann").attribute != "PM"  # type: ignore[union-attr]
    )


def test_a_share_of_a_group_that_does_something_is_read() -> None:
    first = read_attribute("About 1.8% of requests fail right now.", "Ann")
    second = read_attribute("The share of failed requests is 0.6%.", "Ann")
    third = read_attribute("Only 0.9% of requests fail these days.", "Ann")
    assert first is not None and second is not None and third is not None
    assert (first.attribute, first.value) == ("request fail", "1.8 %")
    assert same_attribute(first.attribute, second.attribute)
    assert third.changed and third.value == "0.9 %"


def test_change_cues() -> None:
    assert change_cue("We have 147 tests now.")
    assert change_cue("Open issues went from 40 to 28.")
    assert change_cue("Sorry, I meant Hawk.")
    assert not change_cue("The suite has 121 tests.")


def test_values_of_different_kinds_do_not_replace_each_other() -> None:
    assert comparable("800 ms", "2 s") and comparable("1.1 gb", "380 mb")
    assert comparable("150", "165") and comparable("3.11", "3.13")
    assert comparable("falcon", "hawk")
    assert not comparable("800 ms", "25 %") and not comparable("150", "falcon")


def test_idiomatic_negations_do_not_deny_anything() -> None:
    assert plain_negation("Alice has never written any Flask routes.")
    assert not plain_negation("Jon is never gonna give up on his dreams.")
    assert not plain_negation("Pottery is not just a hobby for Melanie.")
    assert content_lemmas("Alice has never written any Flask routes.") == {"written", "route"}
    assert not plain_negation("Jon is feeling confident and won't give up.")


def test_one_head_with_modifiers_that_share_nothing_names_two_things() -> None:
    assert not same_attribute("python version", "express version")
    assert not same_attribute("build time", "response time")
    assert same_attribute("api response time", "response time")
    assert same_attribute("version", "python version")


def test_a_thing_set_to_happen_on_a_date_is_read() -> None:
    first = read_attribute("Tomas and others want to ship the beta on 17 April 2026.", "Tomas")
    later = read_attribute("Since the beta slipped to 22 August 2026 Tomas has time.", "Tomas")
    assert first is not None and later is not None
    assert (first.attribute, first.value) == ("beta", "17 april 2026")
    assert same_attribute(first.attribute, later.attribute) and later.changed


@pytest.mark.parametrize(
    ("statement", "key", "value"),
    [
        ("Each worker uses 1300MB of RAM.", "alice|worker ram", "1300 mb"),
        ("Tidepool sees roughly 2,000 MAU.", "tidepool|MAU", "2000"),
        ("The database sits in the us-east-1 region.", "alice|database", "us-east-1"),
        ("Arjun is our tech lead.", "alice|tech lead", "arjun"),
        ("Coverage stands at 74% after this week.", "alice|coverage", "74 %"),
        ("Arjun is Ravi's tech lead.", "alice|tech lead", "arjun"),
        ("The tech lead on Ledgerly is Sam.", "alice|tech lead", "sam"),
        ("The database is on Postgres 15.6 after the upgrade.", "alice|database postgre version",
         "15.6"),
        ("Our Postgres runs in ap-southeast-2.", "alice|database", "ap-southeast-2"),
        ("We postponed the beta to July 23.", "alice|beta", "july 23"),
        ("RAM per worker dropped to 450MB.", "alice|worker ram", "450 mb"),
    ],
)  # fmt: skip
def test_any_verb_a_name_or_a_qualified_phrase_gives_a_reading(
    statement: str, key: str, value: str
) -> None:
    reading = read_attribute(statement, "Alice")
    assert reading is not None, statement
    assert (reading.key, reading.value) == (key, value)


def test_no_open_verb_reading_from_a_preposition_or_a_contraction() -> None:
    pinned = read_attribute("We depend on fastapi 0.110.0 right now.", "Alice")
    assert pinned is not None and pinned.key == "alice|fastapi version"  # not "depend"
    upgraded = read_attribute("We've upgraded to FastAPI 0.115.4.", "Alice")
    assert upgraded is not None and upgraded.key == "alice|fastapi version"
    assert same_attribute("MAU", "mau") and same_attribute("MAU", "monthly user")
