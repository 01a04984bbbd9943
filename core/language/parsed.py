"""A parsed text as plain data: tokens with their tags, dependency arcs and entities.

A parser adapter (infra/models/parser.py, spaCy's small English pipeline) fills these;
readers in core/ (core/language/values.py) use nothing else, so they stay pure and their
unit tests build parses by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    """One token: its text, where it starts in the text, its coarse part of speech
    (``NOUN``, ``PROPN``, ``NUM``...), its dependency label and the index of its head
    (itself for a sentence's root), its entity label if it is inside one, and its fine
    tag (``VBD`` for a verb in the simple past)."""

    text: str
    start: int
    pos: str
    dep: str
    head: int
    lemma: str = ""
    entity: str = ""
    tag: str = ""

    @property
    def lower(self) -> str:
        return self.text.lower()


@dataclass(frozen=True)
class Entity:
    """A named entity over tokens ``[first, last)`` with its label (``MONEY``, ``DATE``...)."""

    label: str
    first: int
    last: int


@dataclass(frozen=True)
class ParsedText:
    """A text's tokens, entities and sentences (token index ranges ``[first, last)``)."""

    text: str
    tokens: tuple[Token, ...]
    entities: tuple[Entity, ...] = ()
    sentences: tuple[tuple[int, int], ...] = ()

    def children(self, index: int) -> list[int]:
        """The indexes of the tokens whose head is ``index`` (not itself), in order."""
        return [i for i, t in enumerate(self.tokens) if t.head == index and i != index]

    def sentence_of(self, index: int) -> tuple[int, int]:
        for first, last in self.sentences:
            if first <= index < last:
                return first, last
        return 0, len(self.tokens)

    def span_text(self, first: int, last: int) -> str:
        """The text from token ``first`` to the end of token ``last - 1``."""
        if first >= last:
            return ""
        end = self.tokens[last - 1]
        return self.text[self.tokens[first].start : end.start + len(end.text)]
