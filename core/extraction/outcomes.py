"""What became of each clause of a turn: the claim it was written as, or why it was dropped.

The extractor (core/extraction/claims.py) records one :class:`ClauseOutcome` per clause,
shared image and apposition it looks at; ``provmem facts --explain`` prints them. A dropped
clause stays raw evidence: nothing here changes which claims are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from provmem.core.claim import Claim


class Dropped(Enum):
    """Why a clause yielded no claim, in the order the extractor asks."""

    QUESTION = "a question, no assertion"
    IN_CODE = "inside code (its sentence holds a command or block)"
    NO_CONTENT = "nothing left once greetings and address are trimmed"
    SPEECH_ACT = "a request, greeting, thanks or other speech act"
    LABEL = "a label before a block, not a statement"
    UNRESOLVED_PRONOUN = "a pronoun subject with nothing earlier for it to name"
    NOT_INFORMATIVE = "not informative (too few content words, or about an unnamed listener)"
    NO_ASSERTION = "an imperative or a verbless fragment"
    TAUTOLOGY = "a tautology (a self-introduction restated)"
    UNNAMED_LISTENER = "speaks of an unnamed listener ('you')"
    ALL_CODE = "all of its support is code"
    ASSISTANT_CHATTER = "assistant chatter, not the assistant's own statement"
    ASSISTANT_FRAGMENT = "an assistant's fragment without a finite verb"
    SHORT_CAPTION = "an image caption too short or cut off"
    OVER_BUDGET = "over the turn's salience budget"
    NO_ROOM = "a relation with no room left in the budget"
    WITHIN_DROPPED = "a relation inside a clause the budget left out"


@dataclass(frozen=True)
class Drop:
    """A dropped clause's reason, as a step of the extractor returns it."""

    why: Dropped
    detail: str = ""


@dataclass(frozen=True)
class ClauseOutcome:
    """One clause (or shared image, or apposition) of a turn and what became of it.

    ``span``: its characters in the turn's text. ``claim``: the claim written from it
    (also for one dropped over the budget); ``why`` is None when the claim was kept. A kept
    claim whose words the evidence does not account for carries ``review_reason`` and
    waits for review instead of becoming active (see :attr:`review`).
    """

    text: str
    span: tuple[int, int]
    claim: Claim | None = None
    why: Dropped | None = None
    detail: str = ""

    @property
    def kept(self) -> bool:
        return self.why is None and self.claim is not None

    @property
    def review(self) -> str | None:
        """Why a kept claim needs review (failed validation: its untraceable words)."""
        return self.claim.review_reason if self.kept and self.claim else None
