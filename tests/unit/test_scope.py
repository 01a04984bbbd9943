import re

import pytest
from pydantic import ValidationError

from provmem.core.scope import SEGMENT_PATTERN, Scope, id_segment, partition_for


def test_parse_gives_the_isolation_key() -> None:
    assert Scope.parse("acme/support/u-42").key == "acme/support/u-42"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("acme/support", "org/project/user"),
        ("acme//u1", "scope.project"),
        ("acme/p/", "scope.user"),
        ("acme/p/" + "x" * 257, "scope.user"),
        ("/p/u", "scope.org"),
    ],
)
def test_bad_scopes_name_the_part(text: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        Scope.parse(text)


def test_scope_rejects_unknown_fields() -> None:
    with pytest.raises(ValidationError):
        Scope.model_validate({"org": "a", "project": "b", "user": "c", "tenant": "x"})


def test_a_scope_always_lands_on_one_partition() -> None:
    partitions = {partition_for("acme/support/u-42", 8) for _ in range(10)}
    assert len(partitions) == 1
    spread = {partition_for(f"acme/support/u-{i}", 8) for i in range(200)}
    assert spread == set(range(8))


IDS = ["alice@example.com", "auth0|5f7c8e", "user:42", "user 42", "Zoë", "../../etc", "a/b"]
IDS += ["x" * 256]


@pytest.mark.parametrize("value", IDS)
def test_any_id_is_a_safe_segment_of_its_own(value: str) -> None:
    segment = id_segment(value)
    assert segment.startswith("sid0.") and re.fullmatch(SEGMENT_PATTERN, segment)
    assert "/" not in segment and ".." not in segment
    assert id_segment(value) == segment  # the same id reaches the same scope every time
    assert Scope.parse(f"o/p/{value}").key == f"o/p/{segment}"
    assert Scope(org="o", project="p", user=value, agent=value, session=value).user == segment


def test_distinct_ids_reach_distinct_scopes() -> None:
    assert len({id_segment(value) for value in IDS}) == len(IDS)


@pytest.mark.parametrize("value", ["u-42", "alice", "bot.v2", "sid0.abc"])
def test_an_id_that_is_a_segment_stays_as_it_is(value: str) -> None:
    assert id_segment(value) == value  # existing folders keep working


@pytest.mark.parametrize("value", ["", "x" * 257, None, 42, "Al\udc80"])
def test_a_bad_id_gets_one_error_naming_the_field_and_the_rule(value: object) -> None:
    with pytest.raises(ValueError, match=r"^agent_id: must be") as caught:
        id_segment(value, "agent_id")
    assert "256 characters" in str(caught.value) or "Unicode" in str(caught.value)
