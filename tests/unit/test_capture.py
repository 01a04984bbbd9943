from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from provmem.core.capture import TurnInput, TurnRejectedError, check_limits, turn_evidence_id

NOW = datetime(2026, 5, 8, 12, 0, tzinfo=UTC)


def good(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "scope": "acme/support/u1",
        "text": "I moved to Lisbon.",
        "speaker": "Alice",
        "captured_at": NOW.isoformat(),
        "turn_id": "t1",
        "session": "s1",
    }
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"text": "   "}, "text"),
        ({"scope": "acme"}, "scope"),
        ({"speaker": ""}, "speaker"),
        ({"captured_at": "2026-05-08T12:00:00"}, "captured_at"),
        ({"colour": "red"}, "colour"),
        ({"text": 42}, "text"),
    ],
)
def test_bad_turns_name_their_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        TurnInput.model_validate(good(**changes))
    assert field in {str(e["loc"][0]) for e in caught.value.errors()}


def test_limits_name_their_field() -> None:
    with pytest.raises(TurnRejectedError, match="^text:"):
        check_limits(TurnInput.model_validate(good(text="x" * 100)), NOW, 64, 300)
    future = TurnInput.model_validate(good(captured_at=(NOW + timedelta(days=1)).isoformat()))
    with pytest.raises(TurnRejectedError, match="^captured_at:"):
        check_limits(future, NOW, 1024, 300)


def test_evidence_id_is_deterministic_and_scope_bound() -> None:
    one = turn_evidence_id(TurnInput.model_validate(good()))
    assert one == turn_evidence_id(TurnInput.model_validate(good(text="edited later")))
    assert one != turn_evidence_id(TurnInput.model_validate(good(scope="acme/support/u2")))


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"session": ""}, "session"),
        ({"agent": "\udc80"}, "agent"),
        ({"speaker": "Al\udc80"}, "speaker"),
        ({"turn_id": "\ud800"}, "turn_id"),
        ({"source_uri": "file:\udfff"}, "source_uri"),
    ],
)
def test_every_field_is_checked_before_capture(changes: dict[str, object], field: str) -> None:
    """On 96a0921 these were accepted, then failed the call or dead-lettered later."""
    with pytest.raises(ValidationError) as caught:
        TurnInput.model_validate(good(**changes))
    assert caught.value.errors()[0]["loc"] == (field,)
