"""A per-turn claim budget: a long message yields its few most salient claims.

Salience counts what makes a statement worth remembering on its own: a slot (a known
attribute and its value, by a slot rule or an open reading), named entities, values
(dates, numbers, versions, paths), the speaker's own assertion, and a decision,
preference, constraint or correction. The claims past the budget are not lost: the turn
stays reachable as raw evidence.
"""

from __future__ import annotations

from collections.abc import Sequence

from provmem.core.claim import Claim, SignalKind
from provmem.core.extraction.attributes import read_attribute

CLAIM_BUDGET = 4
"""At most this many claims per turn."""

_VALUES = frozenset({SignalKind.DATE, SignalKind.ANCHOR})
_STANCES = frozenset(
    {
        SignalKind.DECISION,
        SignalKind.PREFERENCE,
        SignalKind.DISLIKE,
        SignalKind.CONSTRAINT,
        SignalKind.CORRECTION,
    }
)


def salience(claim: Claim) -> float:
    """How much a claim says on its own (higher first); review claims rank last."""
    kinds = {s.kind for s in claim.signals}
    keyed = claim.slot is not None or read_attribute(claim.statement, "") is not None
    score = 2.0 * keyed
    score += 1.5 * (SignalKind.ENTITY in kinds) + 1.0 * bool(kinds & _VALUES)
    score += 1.0 * (SignalKind.SPEAKER in kinds) + 1.5 * bool(kinds & _STANCES)
    score -= 0.5 * (claim.hedge is not None) + 3.0 * (claim.review_reason is not None)
    return score


def within_budget(claims: Sequence[Claim], budget: int = CLAIM_BUDGET) -> list[Claim]:
    """The ``budget`` most salient claims, in their order in the turn (ties: earlier first).

    >>> from provmem.core.claim import Slot
    >>> plain = [Claim(f"Alice said thing {i}.", ((i, i + 1),)) for i in range(5)]
    >>> keyed = Claim("Alice lives in Oslo.", ((9, 10),), slot=Slot("alice", "lives_in", "oslo"))
    >>> [c.statement for c in within_budget([*plain, keyed], 2)]
    ['Alice said thing 0.', 'Alice lives in Oslo.']
    """
    if len(claims) <= budget:
        return list(claims)
    ranked = sorted(range(len(claims)), key=lambda i: (-salience(claims[i]), i))
    return [claims[i] for i in sorted(ranked[:budget])]
