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
