"""Content structure: prose, code and markup segments; only prose yields claims."""

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from provmem.core.extraction.claims import extract_turn
from provmem.core.language.segments import CODE_KINDS, SegmentKind, code_spans, prose_view, segment
from provmem.core.language.signals import anchor_terms, structure_anchors

AT = datetime(2026, 4, 8, 13, 56, tzinfo=UTC)

TECH_TURN = """I moved the API to Flask 2.3 and I use `pytest` for the tests.

```python
from flask import Flask, request, jsonify
app = Flask(__name__)
```

```bash
pip install flask==2.3.1
git add .
```

- I prefer tabs over spaces
- Postgres 15

| endpoint | p95 |
|---|---|
| /login | 800ms |

> ModuleNotFoundError: No module named 'flask'
"""


def kinds(text: str) -> list[str]:
    return [s.kind.value for s in segment(text)]


def test_blocks_become_typed_segments() -> None:
    assert kinds(TECH_TURN) == [
        "prose",
        "inline_code",
        "code_block",
        "code_block",
        "list_item",
        "list_item",
        "table",
        "quote",
    ]


def test_a_fence_keeps_its_language() -> None:
    blocks = [s for s in segment(TECH_TURN) if s.kind is SegmentKind.CODE_BLOCK]
    assert [b.info for b in blocks] == ["python", "bash"]


def test_pasted_code_lines_inside_prose_are_code() -> None:
    text = "Here it is\nfrom flask import Flask, request, jsonify\nApp = Flask(__name__)\ngit add ."
    lines = [text[s.start : s.end] for s in segment(text) if s.kind is SegmentKind.CODE_LINE]
    assert lines == [
        "from flask import Flask, request, jsonify",
        "App = Flask(__name__)",
        "git add .",
    ]


def test_a_prose_line_starting_with_a_tool_name_is_not_a_command() -> None:
    assert kinds("git is the tool I use most.") == ["prose"]


def test_the_prose_view_blanks_code_and_markup_but_keeps_offsets() -> None:
    text = "I use **Flask** and `pytest`.\n```\nx = 1\n```"
    view = prose_view(text, segment(text))
    assert len(view) == len(text)
    assert " ".join(view.split()) == "I use Flask and pytest ."


def test_no_claim_from_code_or_markup() -> None:
    found = extract_turn(TECH_TURN, speaker="Dev", captured_at=AT).claims
    assert [c.statement for c in found] == [
        "Dev moved the API to Flask 2.3.",
        "Dev uses pytest for the tests.",
        "Dev prefers tabs over spaces.",
    ]


def test_a_claim_is_not_supported_by_an_inline_code_span() -> None:
    text = "I use `pytest` for the tests."
    (claim,) = extract_turn(text, speaker="Dev", captured_at=AT).claims
    assert [text[s:e] for s, e in claim.spans] == ["I use ", " for the tests."]


def test_a_sentence_around_a_command_yields_no_claim() -> None:
    text = "Then I ran `git commit -m fix` and it worked."
    assert extract_turn(text, speaker="Dev", captured_at=AT).claims == ()


def test_code_and_markup_yield_typed_hard_anchors() -> None:
    values = {s.value for s in structure_anchors(TECH_TURN, segment(TECH_TURN))}
    assert {
        "package:flask@2.3",
        "package:flask@2.3.1",
        "command:pip install flask==2.3.1",
        "command:git add .",
        "identifier:jsonify",
        "identifier:app",
        "identifier:__name__",
        "measure:800ms",
        "error:ModuleNotFoundError: No module named 'flask'",
    } <= values


def test_anchor_spans_point_into_the_text() -> None:
    for anchor in structure_anchors(TECH_TURN, segment(TECH_TURN)):
        assert TECH_TURN[anchor.start : anchor.end] == anchor.text


def test_anchor_terms_are_the_exact_match_keys_of_a_turn() -> None:
    text = "Edit src/app.py, then run `pytest -x`: latency is 250ms."
    assert anchor_terms(text, segment(text)) == ("src/app.py", "pytest -x", "250ms")


def test_the_extraction_result_exposes_the_anchors() -> None:
    result = extract_turn(TECH_TURN, speaker="Dev", captured_at=AT)
    assert any(a.value == "command:git add ." for a in result.anchors)


_WORDS = st.sampled_from(
    ["I", "my", "moved", "to", "Lisbon", "use", "Flask", "the", "app", "=", "x", "2.3", "and"]
)
_PROSE = st.lists(_WORDS, min_size=1, max_size=8).map(lambda w: " ".join(w) + ".")
_CODE = st.one_of(
    _PROSE.map(lambda p: f"```\n{p}\n```"),
    _PROSE.map(lambda p: f"`{p}`"),
    _PROSE.map(lambda p: f"    {p}"),
    st.just("from flask import Flask"),
    st.just("app = Flask(__name__)"),
    st.just("git add ."),
)
_TURNS = st.lists(st.one_of(_PROSE, _CODE, _PROSE.map(lambda p: f"- {p}")), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(_TURNS, st.sampled_from(["\n", "\n\n", " "]))
def test_no_claim_support_span_overlaps_a_code_span(parts: list[str], joint: str) -> None:
    text = joint.join(parts)
    result = extract_turn(text, speaker="Dev", captured_at=AT)
    code = [(s.start, s.end) for s in result.segments if s.kind in CODE_KINDS]
    code += code_spans(result.segments)
    for claim in result.claims:
        for start, end in claim.spans:
            assert not any(start < c_end and c_start < end for c_start, c_end in code), (
                text,
                claim,
            )
