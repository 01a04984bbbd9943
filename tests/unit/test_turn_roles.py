"""TurnRecorded v2 carries the speaker's role; v1 records upcast to role user."""

import json

from provmem.core.capture import TurnInput, record_turn
from provmem.core.events import SealedText, TurnRecorded, upcast_turn_v1
from provmem.schemas import load


def test_a_v1_record_decodes_as_v2_with_role_user() -> None:
    raw = json.dumps(load("TurnRecorded", 1, "example"))
    turn = TurnRecorded.model_validate_json(raw)
    assert (turn.schema_version, turn.role) == (2, "user")


def test_the_upcaster_keeps_every_v1_field() -> None:
    v1 = load("TurnRecorded", 1, "example")
    v2 = upcast_turn_v1(v1)
    assert {k: v for k, v in v2.items() if k not in {"schema_version", "role"}} == {
        k: v for k, v in v1.items() if k != "schema_version"
    }


def test_a_published_role_reaches_the_evidence() -> None:
    given = TurnInput(
        scope="acme/support/u-1",
        text="I recommend PostgreSQL.",
        speaker="assistant",
        role="assistant",
        captured_at="2026-04-08T10:00:00Z",
    )
    sealed = SealedText(key_id="k", nonce="n", ciphertext="c")
    assert record_turn(given, sealed, "h").role == "assistant"


def test_an_unknown_role_is_refused_naming_the_field() -> None:
    v2 = {**load("TurnRecorded", 2, "example"), "role": "narrator"}
    try:
        TurnRecorded.model_validate(v2)
    except ValueError as error:
        assert "role" in str(error)
    else:
        raise AssertionError("a role outside user/assistant/system/tool was accepted")
