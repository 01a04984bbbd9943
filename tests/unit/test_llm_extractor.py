"""The optional LLM extractor: request shape, parsing, span location and shared validation."""

import json
from datetime import UTC, datetime

import httpx
import pytest

from provmem.core.claim import Slot
from provmem.core.extraction.rules import RulesExtractor
from provmem.core.ports import Extractor
from provmem.infra.models.llm_extractor import LLMExtractionError, OpenAICompatibleExtractor, locate

AT = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
TEXT = "Hi! I moved to Lisbon yesterday. I don't eat meat."


def extractor(content: str, seen: list[httpx.Request] | None = None) -> OpenAICompatibleExtractor:
    def handle(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        return httpx.Response(200, json={"choices": [{"message": {"content": content}}]})

    client = httpx.Client(transport=httpx.MockTransport(handle))
    return OpenAICompatibleExtractor("http://llm.test/v1/", "tiny", api_key="k", client=client)


def answer(*claims: dict[str, object]) -> str:
    return json.dumps({"claims": list(claims)})


def test_posts_a_json_chat_completion_with_the_turn() -> None:
    seen: list[httpx.Request] = []
    extractor(answer(), seen).extract(TEXT, speaker="Alice", captured_at=AT)
    (request,) = seen
    assert str(request.url) == "http://llm.test/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer k"
    body = json.loads(request.content)
    assert body["model"] == "tiny" and body["response_format"] == {"type": "json_object"}
    assert TEXT in body["messages"][0]["content"]


def test_parses_statements_slots_and_quoted_spans() -> None:
    content = answer(
        {
            "statement": "Alice moved to Lisbon on 7 May 2023.",
            "quote": "I moved to Lisbon yesterday.",
            "slot": {"subject": "Alice", "attribute": "moved to", "value": "Lisbon"},
        },
        {"statement": "Alice does not eat meat.", "quote": "i don't  eat meat", "negated": True},
    )
    found = extractor(content).extract(TEXT, speaker="Alice", captured_at=AT)
    assert [c.statement for c in found] == [
        "Alice moved to Lisbon on 7 May 2023.",
        "Alice does not eat meat.",
    ]
    assert [TEXT[c.start : c.end] for c in found] == [
        "I moved to Lisbon yesterday.",
        "I don't eat meat",
    ]
    assert found[0].slot == Slot("alice", "moved_to", "lisbon")
    assert found[1].negated and all(c.review_reason is None for c in found)


def test_a_claim_whose_quote_is_not_in_the_text_is_dropped() -> None:
    content = answer({"statement": "Alice moved to Porto.", "quote": "I moved to Porto."})
    assert extractor(content).extract(TEXT, speaker="Alice", captured_at=AT) == []


def test_invented_words_go_to_review_through_the_same_validation() -> None:
    content = answer({"statement": "Alice happily moved to Lisbon.", "quote": "I moved to Lisbon"})
    (claim,) = extractor(content).extract(TEXT, speaker="Alice", captured_at=AT)
    assert claim.review_reason == "untraceable: happily"


def test_code_fences_are_tolerated_and_malformed_items_skipped() -> None:
    content = (
        "```json\n"
        + answer(
            {"statement": 3}, {"statement": "Alice moved to Lisbon.", "quote": "moved to Lisbon"}
        )
        + "\n```"
    )
    found = extractor(content).extract(TEXT, speaker="Alice", captured_at=AT)
    assert [c.statement for c in found] == ["Alice moved to Lisbon."]


def test_non_json_and_http_errors_raise() -> None:
    with pytest.raises(LLMExtractionError):
        extractor("sorry, I cannot").extract(TEXT, speaker="Alice", captured_at=AT)
    failing = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(500)))
    broken = OpenAICompatibleExtractor("http://llm.test", "tiny", client=failing)
    with pytest.raises(LLMExtractionError):
        broken.extract(TEXT, speaker="Alice", captured_at=AT)


def test_locate_is_exact_first_then_case_and_space_insensitive() -> None:
    assert locate("Lisbon", TEXT) == (15, 21)
    assert locate("I  DON'T eat", TEXT) == (33, 44)
    assert locate("Porto", TEXT) is None


def test_both_extractors_satisfy_the_port() -> None:
    rules: Extractor = RulesExtractor()
    llm: Extractor = extractor(answer())
    assert rules.version.startswith("rules/") and llm.version == "llm/tiny"
    assert [c.statement for c in rules.extract(TEXT, speaker="Alice", captured_at=AT)] == [
        "Alice moved to Lisbon on 7 May 2023.",
        "Alice does not eat meat.",
    ]
