import pytest
from pydantic import ValidationError

from provmem.core.scope import Scope, partition_for


def test_parse_gives_the_isolation_key() -> None:
    assert Scope.parse("acme/support/u-42").key == "acme/support/u-42"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("acme/support", "org/project/user"),
        ("acme//u1", "scope.project"),
        ("acme/p/bad user", "scope.user"),
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
