"""Measured readings (core/language/measures.py through
core/extraction/attributes.read_attributes): a value with its unit given to a noun phrase, a
change verb that takes a thing to a value, a second verb phrase joined by "and", "the A of
B" attributes; and the false links they must not make (pure code)."""

from __future__ import annotations

import pytest

from provmem.core.extraction.attributes import Reading, read_attribute, read_attributes
from provmem.core.facts.attribute_match import comparable, same_attribute
from provmem.core.language.clauses import split_clauses


def _reading(statement: str, speaker: str = "Dev") -> Reading:
    reading = read_attribute(statement, speaker)
    assert reading is not None, statement
    return reading


def _readings(statement: str, speaker: str = "Dev") -> set[tuple[str, str, str]]:
    return {(r.subject, r.attribute, r.value) for r in read_attributes(statement, speaker)}


def _meet(first: str, second: str, speaker: str = "Dev") -> bool:
    """Whether the readings of two statements give one attribute of one subject values
    that can replace each other (what the gate needs to link them)."""
    one, other = _reading(first, speaker), _reading(second, speaker)
    return (
        one.subject == other.subject
        and same_attribute(one.attribute, other.attribute)
        and comparable(one.value, other.value)
    )


@pytest.mark.parametrize(
    ("statement", "attribute", "value"),
    [
        ("Tomas's resting heart rate is 58 bpm.", "resting heart rate", "58 bpm"),
        ("The p99 latency of /items is 420 ms in production.", "production item p99 latency",
         "420 ms"),
        ("Each pod has 512Mi of memory.", "pod memory", "512 mib"),
        ("The worker pod uses 900 MB of RAM.", "worker pod ram", "900 mb"),
        ("The request timeout for the gateway is 30 s.", "gateway request timeout", "30 s"),
        ("The median build time is about 4 minutes.", "build time", "4 min"),
        ("Disk usage on the database host sits at 71%.", "database host disk usage", "71 %"),
        ("The upload limit is 25 MB per file.", "upload limit", "25 mb"),
        ("The fan spins at 1200 rpm under load.", "fan", "1200 rpm"),
        ("The office uplink gives us 500 Mbps.", "office uplink", "500 mbps"),
        ("Our monthly AWS bill is $1,240.", "monthly aws bill", "$1240"),
        ("The web deployment runs 3 replicas.", "web deployment replica", "3"),
    ],
)  # fmt: skip
def test_a_measure_keeps_its_unit_and_its_head_noun(
    statement: str, attribute: str, value: str
) -> None:
    reading = _reading(statement)
    assert (reading.attribute, reading.value) == (attribute, value)


def test_a_possessive_owner_is_the_subject_and_a_plural_subject_is_the_speaker() -> None:
    assert _reading("Tomas's resting heart rate is 58 bpm.").subject == "tomas"
    assert _reading("Dev and others' staging cluster has 64 GB of memory.").subject == "dev"


@pytest.mark.parametrize(
    ("statement", "attribute", "value"),
    [
        ("Dev and others bumped the pods to 1Gi memory because of OOM kills.", "pod memory",
         "1 gib"),
        ("We raised the request timeout from 30 s to 60 s.", "request timeout", "60 s"),
        ("Yesterday we cut the build time to 6 minutes.", "build time", "6 min"),
        ("They lowered the heap size to 2 GB last week.", "heap size", "2 gb"),
        ("We increased the replica count from 3 to 5.", "replica", "5"),
        ("Ops scaled the web deployment to 6 replicas.", "web deployment replica", "6"),
        ("The pods were bumped to 2Gi of memory.", "pod memory", "2 gib"),
        ("Memory per pod went from 512Mi to 1Gi.", "pod memory", "1 gib"),
        ("Dev reduced the image size to 180 MB by switching to Alpine.", "image size", "180 mb"),
    ],
)  # fmt: skip
def test_a_change_verb_that_takes_a_thing_to_a_value_is_a_change(
    statement: str, attribute: str, value: str
) -> None:
    reading = _reading(statement)
    assert (reading.attribute, reading.value, reading.changed) == (attribute, value, True)


def test_a_second_clause_after_a_comma_is_read_on_its_own() -> None:
    found = _readings(
        "Dev and others deploy on Kubernetes with 3 replicas, each pod has 512Mi of memory."
    )
    assert ("dev", "pod memory", "512 mib") in found
    assert ("dev", "replica", "3") in found


@pytest.mark.parametrize(
    ("statement", "attribute", "value"),
    [
        ("Dev's CI runs on GitHub Actions and takes about 12 minutes.", "ci", "12 min"),
        ("The nightly job starts at midnight and usually lasts 40 minutes.", "nightly job",
         "40 min"),
        ("The cache lives in Redis and holds about 2 GB.", "cache", "2 gb"),
    ],
)  # fmt: skip
def test_a_second_verb_phrase_joined_by_and_shares_the_subject(
    statement: str, attribute: str, value: str
) -> None:
    assert ("dev", attribute, value) in _readings(statement)


def test_a_pronoun_with_a_unit_and_a_change_cue_is_read_by_its_unit() -> None:
    reading = _reading("Actually I measured again and it's 54 bpm now.", "Tomas")
    assert (reading.subject, reading.value, reading.changed) == ("tomas", "54 bpm", True)
    assert read_attributes("It's 54 bpm.", "Tomas") == ()  # no cue: no guess


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("The p99 latency of /items is 420 ms in production.",
         "After adding an index on items(sku) the p99 dropped to 95 ms."),
        ("Dev's CI runs on GitHub Actions and takes about 12 minutes.",
         "The CI now takes 7 minutes."),
        ("Each pod has 512Mi of memory.",
         "Dev and others bumped the pods to 1Gi memory because of OOM kills."),
        ("Tomas's resting heart rate is 58 bpm.", "Tomas's resting heart rate dropped to 54 bpm."),
        ("The request timeout is 30 s.", "We raised the request timeout to 60 s."),
        ("The web deployment runs 3 replicas.", "We scaled the web deployment to 6 replicas."),
        ("The build takes 9 minutes.", "Builds take 5 minutes now."),
    ],
)  # fmt: skip
def test_an_update_meets_what_it_updates(earlier: str, later: str) -> None:
    speaker = "Tomas" if "Tomas" in earlier else "Dev"
    assert _meet(earlier, later, speaker)
    assert _reading(later, speaker).changed


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The staging p99 is 300 ms.", "The production p99 is 420 ms."),
        ("The p99 in staging is 300 ms.", "The p99 in production is 420 ms."),
        ("The web pod has 512Mi of memory.", "The worker pod has 1Gi of memory."),
        ("The web deployment runs 3 replicas.", "The worker deployment runs 5 replicas."),
        ("The p99 latency of /items is 420 ms.", "The p99 latency of /orders is 180 ms."),
        ("The memory limit is 2 GB.", "The memory leak count is 3."),
        ("The build time is 9 minutes.", "The response time is 300 ms."),
        ("Tomas's resting heart rate is 58 bpm.", "Ana's resting heart rate is 61 bpm."),
        ("The image size is 180 MB.", "The image pull takes 20 s."),
    ],
)  # fmt: skip
def test_different_things_sharing_a_word_do_not_meet(first: str, second: str) -> None:
    assert not _meet(first, second, "Dev")


def test_shorter_and_longer_mentions_of_one_thing_meet() -> None:
    assert same_attribute("p99 latency", "p99")
    assert same_attribute("production item p99 latency", "p99")
    assert same_attribute("pod memory", "web pod memory")  # the one nearer says more
    assert not same_attribute("web pod memory", "worker pod memory")
    assert not same_attribute("staging p99", "production p99")


@pytest.mark.parametrize(
    "statement",
    [
        "Tomas is 30 years old.",
        "We deploy on Kubernetes.",
        "It's 54 bpm.",
        "We talked for 20 minutes and then left.",
        "We waited 20 minutes for the bus.",
        "Tomas met the team and waited 20 minutes.",
        "We restarted the worker and it took 3 s.",
    ],
)
def test_no_measured_reading_without_a_measured_thing(statement: str) -> None:
    assert read_attributes(statement, "Tomas") == ()


def test_a_comma_before_each_or_every_and_a_verb_starts_a_claim_of_its_own() -> None:
    text = "We deploy on Kubernetes with 3 replicas, each pod has 512Mi of memory."
    parts = [text[c.start : c.end] for c in split_clauses(text)]
    assert parts == ["We deploy on Kubernetes with 3 replicas", "each pod has 512Mi of memory."]
    assert len(split_clauses("Every build of each branch takes a while.")) == 1


@pytest.mark.parametrize(
    ("statement", "attribute", "value"),
    [
        ("Since the cache fix (runners at 3 minutes) nobody complains.", "runner", "3 min"),
        ("With the laptop at 16 GB of RAM the build is fine.", "laptop ram", "16 gb"),
        ("The search p95 sits around 900 ms.", "search p95", "900 ms"),
    ],
)  # fmt: skip
def test_a_noun_phrase_at_a_measure_without_a_verb_is_read(
    statement: str, attribute: str, value: str
) -> None:
    assert ("dev", attribute, value) in _readings(statement)


@pytest.mark.parametrize(
    ("statement", "attribute"),
    [
        ("Our container image weighs 800 MB right now.", "container image"),
        ("The whole suite completes in 4 minutes lately.", "whole suite"),
        ("The nightly export is 2 GB last time I checked.", "nightly export"),
        ("Each render takes 5 seconds each.", "render"),
    ],
)
def test_words_after_a_measure_that_name_no_thing_stay_out_of_the_key(
    statement: str, attribute: str
) -> None:
    assert _reading(statement).attribute == attribute


def test_a_verb_before_at_is_no_noun_phrase_at_a_measure() -> None:
    assert read_attributes("We arrived at 5 pm.", "Dev") == ()
    assert read_attributes("Dev stayed at 80 kg.", "Dev") == ()


def test_a_measure_alone_after_and_shares_the_subject_and_verb_before_it() -> None:
    found = _readings("The box has 32 GB of RAM, 8 vCPUs and 500 GB of disk.")
    assert {
        ("dev", "box ram", "32 gb"),
        ("dev", "box", "8 vcpu"),
        ("dev", "box disk", "500 gb"),
    } <= found
    assert ("dev", "branch", "12") in _readings("The repo has 150 commits and 12 branches.")
    assert read_attributes("We waited 5 minutes and 3 seconds.", "Dev") == ()
