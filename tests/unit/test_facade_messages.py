"""Chat messages as provmem turns (services/sdk/facade_messages.py): the text a message
part carries reaches the turn as said, whatever the vendor's shape of the part."""

from __future__ import annotations

from typing import Any

import pytest

from provmem.services.sdk.facade_messages import message_text

SAID = "I moved to Lisbon in May."


@pytest.mark.parametrize(
    "part",
    [
        {"type": "text", "text": SAID},  # OpenAI chat, Anthropic
        {"type": "input_text", "text": SAID},  # OpenAI responses
        {"type": "text", "text": {"value": SAID, "annotations": []}},  # OpenAI assistants
    ],
    ids=["chat", "responses", "assistants"],
)
def test_a_text_part_gives_its_words(part: dict[str, Any]) -> None:
    assert message_text([part], "messages[0].content") == SAID


@pytest.mark.parametrize("text", [123, ["a", "b"], {"annotations": []}])
def test_a_text_part_whose_text_is_no_string_is_refused_naming_it(text: object) -> None:
    with pytest.raises(TypeError, match=r"messages\[0\]\.content\[0\]\.text"):
        message_text([{"type": "text", "text": text}], "messages[0].content")


def _turn_of(content: Any) -> dict[str, Any]:
    from datetime import UTC, datetime

    from provmem.services.sdk.facade_messages import Context, to_turns

    context = Context("acme/app/ann", "ann", None, datetime(2026, 5, 1, tzinfo=UTC))
    turn = to_turns([{"role": "user", "content": content}], context)[0]
    assert turn is not None
    return turn


def test_a_tool_result_in_a_user_message_is_a_tool_turn() -> None:
    turn = _turn_of([{"type": "tool_result", "tool_use_id": "t1", "content": "saved"}])
    assert (turn["role"], turn["speaker"], turn["text"]) == ("tool", "tool", "saved")


def test_the_users_words_beside_a_tool_result_stay_theirs_without_it() -> None:
    turn = _turn_of(
        [
            {"type": "tool_result", "tool_use_id": "t1", "content": "saved: Ann lives in Rome"},
            {"type": "text", "text": SAID},
        ]
    )
    assert (turn["role"], turn["speaker"], turn["text"]) == ("user", "ann", SAID)
