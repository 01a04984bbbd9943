"""A parser's comma splices break clauses (core/language/clauses.py ``breaks``); the parse
itself is infra/models/clause_parser.py (tests/integration/test_clause_parser.py). Pure:
the breaks are given here as offsets, as the parser gives them."""

from datetime import UTC, datetime

from provmem.core.extraction.claims import extract_claims, extraction_version
from provmem.core.extraction.rules import RulesExtractor
from provmem.core.language.clauses import split_clauses

AT = datetime(2026, 4, 8, 13, 56, tzinfo=UTC)
SPLICE = "I run 3 times a week, my longest run so far is 12 km."


class Commas:
    """A parser that names the given commas (the first one of the text by default)."""

    def __init__(self, *nth: int) -> None:
        self._nth = nth or (0,)

    def comma_breaks(self, text: str) -> list[int]:
        commas = [i for i, ch in enumerate(text) if ch == ","]
        return [commas[n] for n in self._nth if n < len(commas)]


def _texts(text: str, breaks: list[int]) -> list[str]:
    return [text[c.start : c.end] for c in split_clauses(text, breaks)]


def test_a_named_comma_breaks_the_sentence_in_two() -> None:
    assert _texts(SPLICE, []) == [SPLICE]
    assert _texts(SPLICE, [SPLICE.index(",")]) == [
        "I run 3 times a week",
        "my longest run so far is 12 km.",
    ]


def test_a_break_the_word_rules_already_make_is_made_once() -> None:
    text = "Clay is incredible, it brings me joy."
    assert (
        _texts(text, [text.index(",")])
        == _texts(text, [])
        == [
            "Clay is incredible",
            "it brings me joy.",
        ]
    )


def test_a_break_outside_the_text_or_not_at_a_comma_of_a_sentence_is_ignored() -> None:
    text = "I live in Oslo. I work at Acme."
    assert _texts(text, [len(text) + 4, -1]) == ["I live in Oslo.", "I work at Acme."]


def test_before_a_question_a_named_comma_makes_the_statement_a_statement() -> None:
    """The clauses before the asking one in one sentence are statements."""
    text = "I've sold 14 candles so far, the shop opened in April, is that normal?"
    commas = [i for i, ch in enumerate(text) if ch == ","]
    assert [c.question for c in split_clauses(text, [])] == [True]
    clauses = split_clauses(text, commas)
    assert [(text[c.start : c.end], c.question) for c in clauses] == [
        ("I've sold 14 candles so far", False),
        ("the shop opened in April", False),
        ("is that normal?", True),
    ]


def test_the_extractor_writes_each_side_of_a_splice_as_a_well_formed_claim() -> None:
    plain = extract_claims(SPLICE, speaker="Kim", captured_at=AT)
    parsed = extract_claims(SPLICE, speaker="Kim", captured_at=AT, clauses=Commas())
    assert [c.statement for c in plain] == [
        "Kim runs 3 times a week, Kim's longest run so far is 12 km."
    ]
    assert [c.statement for c in parsed] == [
        "Kim runs 3 times a week.",
        "Kim's longest run so far is 12 km.",
    ]


def test_the_version_says_whether_a_parser_read_the_clauses() -> None:
    assert RulesExtractor().version == extraction_version(None)
    assert (
        RulesExtractor(Commas()).version == extraction_version(Commas()) != extraction_version(None)
    )
