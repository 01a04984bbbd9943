"""Content structure before claims: a turn's text as prose, code and markup segments.

A CommonMark parse (markdown-it-py, a pure parser) finds the blocks: fenced and indented
code, tables, quotes, headings, HTML, list items and paragraphs. Inside prose, inline code
spans, links and pasted code lines (an ``import``, an assignment, a shell prompt) are cut
out as segments of their own. Only prose yields claims (:func:`prose_view`); code and
markup yield typed hard anchors (:func:`provmem.core.language.signals.structure_anchors`).

>>> [s.kind.value for s in segment("I use Flask.\\n\\n```\\napp = Flask(__name__)\\n```")]
['prose', 'code_block']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token


class SegmentKind(StrEnum):
    PROSE = "prose"
    LIST_ITEM = "list_item"
    CODE_BLOCK = "code_block"
    INLINE_CODE = "inline_code"
    CODE_LINE = "code_line"
    TABLE = "table"
    QUOTE = "quote"
    HEADING = "heading"
    HTML = "html"
    URL = "url"
    MARKUP = "markup"


PROSE_KINDS = frozenset({SegmentKind.PROSE, SegmentKind.LIST_ITEM})
CODE_KINDS = frozenset({SegmentKind.CODE_BLOCK, SegmentKind.INLINE_CODE, SegmentKind.CODE_LINE})


@dataclass(frozen=True)
class Segment:
    """Characters ``[start, end)`` of a turn; ``info`` is a code block's language, if any.

    An inline code span that is a single name (``pytest``, ``src/app.py``) is ``inline``:
    prose keeps its word, but no support span covers it.
    """

    kind: SegmentKind
    start: int
    end: int
    info: str = ""
    inline: bool = False


_BLOCK_KINDS = {
    "fence": SegmentKind.CODE_BLOCK,
    "code_block": SegmentKind.CODE_BLOCK,
    "html_block": SegmentKind.HTML,
    "hr": SegmentKind.MARKUP,
}
_CONTAINERS = {
    "blockquote_open": SegmentKind.QUOTE,
    "table_open": SegmentKind.TABLE,
    "heading_open": SegmentKind.HEADING,
}
_MARKUP_CHARS = re.compile(r"[`*_#>|\[<\n\\~=]|^\s*(?:[-+]|\d+[.)])\s|^ {4}")
"""A text without any of these is one paragraph: the parser is not needed."""
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
# A name, a pinned package ("flask==3.0.2") or a short command name ("coverage report"):
# prose keeps its words.
_SINGLE_NAME = re.compile(r"[\w@.+/-]+(?:(?:==|~=|>=)[\w.]+)?|[a-z][\w.-]*(?: [a-z][\w.-]*){1,2}")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_EMPHASIS = re.compile(r"(?<![\w*])[*_]{1,3}(?=[^\s*_])|(?<=[^\s*_])[*_]{1,3}(?![\w*])|~~")
_CODE_LINE = re.compile(
    r"^[ \t]*(?:"
    r"(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+[\w., *{}]+"
    r"|(?:async[ \t]+)?(?:def|class|fn|func|function)[ \t]+\w+[ \t]*[(:<{].*"
    r"|(?:const|let|var|return|package|#include|public|private|export|SELECT|INSERT)[ \t].*"
    r"|[A-Za-z_][\w.\[\]\"']*[ \t]*(?:=|\+=|-=|:=)[ \t]*(?:\S*[(\[{'\"].*|[\w.]+)"
    r"|[\w.]+\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)[ \t]*;?"
    r"|@\w+(?:\(.*\))?|[$#][ \t]+\S.*|>>>[ \t].*|[\w .-]*[;{}][ \t]*"
    r")[ \t]*$",
    re.M,
)
SHELL_LINE = re.compile(
    r"^[ \t]*(?:sudo[ \t]+)?(?:git|pip3?|npm|npx|yarn|pnpm|python3?|node|docker|docker-compose"
    r"|kubectl|cargo|curl|wget|brew|apt-get|apt|export|flask|uvicorn|gunicorn|pytest|poetry"
    r"|conda|mvn|gradle|terraform|helm|ssh|chmod|systemctl|psql|redis-cli|alembic)"
    r"[ \t]+(?!(?:is|was|are|were|has|had|and|or|the|an?|my|so|to|for|of|in|on|with|it|as|be"
    r"|can|will|would|should|just|really)\b)[^\s.!?]\S*(?:[ \t]+\S+)*[ \t]*$",
    re.M,
)


@cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt  # imported on the first turn with markup: a query
    # or a plain line never needs the parser (the CLI's start-up, bench/cli)

    return MarkdownIt("commonmark").enable("table")


def segment(text: str) -> tuple[Segment, ...]:
    """Every segment of ``text``, sorted by position; inline segments lie inside prose."""
    found = _blocks(text) if _MARKUP_CHARS.search(text) else _plain(text)
    prose = [s for s in found if s.kind in PROSE_KINDS]
    for block in prose:
        found += _inline_segments(text, block)
    return tuple(sorted(found, key=lambda s: (s.start, -s.end)))


def _blocks(text: str) -> list[Segment]:
    lines = _line_starts(text)
    found: list[Segment] = []
    stack: list[SegmentKind] = []
    for token in _parser().parse(text):
        found += _token_segments(token, text, lines, stack)
    return found


def _plain(text: str) -> list[Segment]:
    """One line without markup characters: a paragraph, as the parser would find it."""
    start = len(text) - len(text.lstrip())
    end = len(text.rstrip())
    return [Segment(SegmentKind.PROSE, start, end)] if end > start else []


def _token_segments(
    token: Token, text: str, lines: list[int], stack: list[SegmentKind]
) -> list[Segment]:
    opening = token.type.replace("_close", "_open")
    if opening in _CONTAINERS or opening == "list_item_open":
        if token.nesting == -1:
            stack.pop()
            return []
        stack.append(_CONTAINERS.get(token.type, SegmentKind.LIST_ITEM))
    if token.map is None or token.type == "list_item_open":
        return []
    start, end = lines[token.map[0]], _line_end(text, lines, token.map[1])
    if token.type in _CONTAINERS:
        return [Segment(_CONTAINERS[token.type], start, end)]
    if token.type in _BLOCK_KINDS:
        return [Segment(_BLOCK_KINDS[token.type], start, end, token.info.strip().lower())]
    if token.type == "inline" and set(stack) <= {SegmentKind.LIST_ITEM}:
        kind = SegmentKind.LIST_ITEM if stack else SegmentKind.PROSE
        return [_prose(kind, text, start, end, token.content)]
    return []


def _prose(kind: SegmentKind, text: str, start: int, end: int, content: str) -> Segment:
    """The paragraph's text past its container markers ("- ", "1. ")."""
    first_line = content.split("\n", 1)[0].rstrip()
    line = text[start:end].split("\n", 1)[0].rstrip()
    offset = len(line) - len(first_line) if first_line and line.endswith(first_line) else 0
    return Segment(kind, start + max(0, offset), end)


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text))]


def _line_end(text: str, lines: list[int], last: int) -> int:
    return lines[last] - 1 if last < len(lines) else len(text)


def _inline_segments(text: str, block: Segment) -> list[Segment]:
    found = []
    for match in _INLINE_CODE.finditer(text, block.start, block.end):
        single = _SINGLE_NAME.fullmatch(match.group(2).strip()) is not None
        found.append(Segment(SegmentKind.INLINE_CODE, *match.span(), inline=single))
    for match in _LINK.finditer(text, block.start, block.end):
        found.append(Segment(SegmentKind.URL, *match.span(2)))
    for pattern in (_CODE_LINE, SHELL_LINE):
        for match in pattern.finditer(text, block.start, block.end):
            if match.group(0).strip() and not _covered(match.span(), found):
                found.append(Segment(SegmentKind.CODE_LINE, *match.span()))
    return found


def _covered(span: tuple[int, int], segments: list[Segment]) -> bool:
    return any(s.start <= span[0] and span[1] <= s.end for s in segments if s.kind in CODE_KINDS)


def code_spans(segments: tuple[Segment, ...]) -> list[tuple[int, int]]:
    """The character ranges no claim may be supported by: code and non-prose blocks."""
    return [(s.start, s.end) for s in segments if s.kind not in PROSE_KINDS | {SegmentKind.URL}]


def prose_view(text: str, segments: tuple[Segment, ...]) -> str:
    """``text`` with everything but prose blanked, offsets kept (newlines stay).

    Backticks of a one-name code span, link brackets and emphasis markers are blanked too;
    the link's text and the name stay.
    """
    keep = bytearray(len(text))
    for s in segments:
        if s.kind in PROSE_KINDS:
            keep[s.start : s.end] = b"\x01" * (s.end - s.start)
    for s in segments:
        if s.kind in CODE_KINDS:
            keep[s.start : s.end] = bytes(s.end - s.start)
            if s.inline:
                ticks = len(text[s.start :]) - len(text[s.start :].lstrip("`"))
                keep[s.start + ticks : s.end - ticks] = b"\x01" * (s.end - s.start - 2 * ticks)
    chars = [c if keep[i] or c == "\n" else " " for i, c in enumerate(text)]
    view = "".join(chars)
    view = _LINK.sub(_link_text, view)
    return _EMPHASIS.sub(lambda m: " " * len(m.group(0)), view)


def _link_text(match: re.Match[str]) -> str:
    lead = match.start(1) - match.start()
    return " " * lead + match.group(1) + " " * (match.end() - match.end(1))
