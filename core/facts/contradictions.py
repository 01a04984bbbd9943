"""Contradictions: which active fact a claim contradicts, by polarity or by category.

A negation ("has never run Beacon on Windows") is met by a later statement that names
what it denies ("on Windows the paths break"): the denied *matter* is the most specific
of the denied terms (the one fewest of the scope's facts name; the project or a person
most facts name is the context, not the matter), with its head noun when the denial
gives one ("never wrote Flask *routes*"), an acronym also spelled out ("CI" /
"continuous integration"). Close statements about one subject that share most content
words also meet. Two members of an exclusive category (another database, host, license)
said of one subject are rivals. The write gate (core/facts/gate.py) decides what a meeting
means: a conflict, or an update when a change is said.
"""

from __future__ import annotations

import re

import numpy as np

from provmem.core.claim import Claim, SignalKind
from provmem.core.events import Fact
from provmem.core.extraction.categories import exclusive_rival, named_members
from provmem.core.extraction.polarity import (
    SPELLED,
    STEM,
    content_lemmas,
    denied_terms,
    lead_subject,
    mentions,
    names_matter,
    plain_negation,
)
from provmem.core.facts.memory_state import ScopeMemory, Vector
from provmem.core.language.tense import unrealized

__all__ = ["claim_role", "claim_speaker", "contradicted", "exclusive_rival_fact"]


def claim_role(claim: Claim) -> str:
    """Who asserted the claim: the extractor's ``role`` when it has one, else the user."""
    return claim.role or "user"


def claim_speaker(claim: Claim) -> str:
    """The speaker the extractor named in the claim's signals, or ""."""
    spoken = (s.value or s.text for s in claim.signals if s.kind is SignalKind.SPEAKER)
    return next(spoken, "")


def contradicted(
    memory: ScopeMemory, claim: Claim, vector: Vector, similarity: float, neighbours: int
) -> Fact | None:
    """The active fact of the other polarity the claim contradicts: among the
    ``neighbours`` closest (at least ``similarity``), one about the same matter; else the
    latest about it."""
    sims = memory.similarities(vector)
    order = np.argsort(-sims)[:neighbours]
    role = claim_role(claim)
    for row in order:
        if float(sims[row]) < similarity:
            break
        fact = memory.facts[memory.active[int(row)]]
        if fact.negated != claim.negated and fact.asserted_by == role:
            if _same_matter(claim, fact, memory):
                return fact
    return _named_matter(memory, claim)


def _named_matter(memory: ScopeMemory, claim: Claim) -> Fact | None:
    """The latest active fact of the other polarity about the same matter, however far
    apart the two are in meaning ("has never run Beacon on Windows" ... "on Windows the
    paths break"): negations are few, so every one is read (a negated claim reads every
    active fact)."""
    role = claim_role(claim)
    others = memory.negated_facts() if not claim.negated else memory.latest_first()
    for fact in others:
        if fact.negated != claim.negated and fact.asserted_by == role:
            if _same_matter(claim, fact, memory):
                return fact
    return None


def _names_denied(
    memory: ScopeMemory, negated: Claim | Fact, positive: Claim | Fact, speaker: str
) -> bool:
    """The positive one names the negated one's denied matter (the speaker left out)."""
    terms = denied_terms(negated.statement, speaker)
    named = [t for t in terms if names_matter(positive.statement, t, negated.statement)]
    return bool(named) and not set(named).isdisjoint(_matter(memory, terms, negated.statement))


def _same_matter(claim: Claim, fact: Fact, memory: ScopeMemory) -> bool:
    """The negated one denies what the other says: the other names the denied matter (the
    denied term fewest of the scope's facts name, if few do), or both are about the same
    subject and share most of the negated one's content words."""
    negated, positive = (claim, fact) if claim.negated else (fact, claim)
    if not plain_negation(negated.statement) or not _realized(positive):
        return False  # a plan, a wish or a hedge denies no denial
    if _names_denied(memory, negated, positive, claim_speaker(claim)):
        return True
    subject, theirs = lead_subject(negated.statement), lead_subject(positive.statement)
    denied, said = _stems(negated.statement), _stems(positive.statement)
    shared = denied & said
    if subject in UNIVERSAL_SUBJECTS or (subject and subject == theirs):
        return len(shared) >= 2 and 2 * len(shared) >= len(denied)
    if subject and theirs:
        return False  # about two different holders
    return len(shared) >= 2 and shared == denied  # one unnamed: every word of the denial


def _realized(said: Claim | Fact) -> bool:
    """Said as so, not planned, wished, possible or hedged."""
    return not (isinstance(said, Claim) and said.hedge) and not unrealized(said.statement)


def _stems(statement: str) -> frozenset[str]:
    """Content words cut to a stem, so "tested" meets "tests" and "container" meets
    "containerised"."""
    return frozenset(w[:STEM] for w in content_lemmas(statement))


def _matter(memory: ScopeMemory, terms: tuple[str, ...], denial: str) -> list[str]:
    """Of the denied terms, the most specific: those the fewest active facts name, if few
    do. In "never ran Beacon on Windows" the project most facts name is the context, the
    platform the matter; a term most facts name (the project, a person the chat is about)
    says nothing about which matter two statements share."""
    spelled = [t for t in terms if t.startswith(SPELLED)]  # acronyms: specific by form
    named = {t: _named_by(memory, t) for t in dict.fromkeys(terms) if t not in spelled}
    if not named:
        return spelled
    fewest = min(named.values())
    bound = max(SPECIFIC_TERM_FACTS, len(memory) // SPECIFIC_TERM_SHARE)
    tied = [t for t, n in named.items() if n == fewest and n <= bound]
    return _without_context(tied, denial) + spelled


def _without_context(tied: list[str], denial: str) -> list[str]:
    """Of terms named equally often, those not right after a preposition ("never added an
    Express endpoint *to TrailMap*": the project is where, not what), unless every one is."""
    kept = [t for t in tied if not _after_preposition(denial, t)]
    return kept if len(tied) > 1 and kept else tied


def _after_preposition(denial: str, term: str) -> bool:
    pattern = rf"\b(?:{_PREPOSITIONS}) (?:the |a |an |our |my |this )?{re.escape(term)}\b"
    return re.search(pattern, denial, re.I) is not None


_PREPOSITIONS = "to|for|in|at|of|with|from|into"  # not "on": "never ran it on Windows"


def _named_by(memory: ScopeMemory, term: str) -> int:
    return sum(1 for i in memory.active if mentions(memory.facts[i].statement, term))


# A denied term is specific when at most this many active facts name it (or one in
# ``SPECIFIC_TERM_SHARE`` of a large scope's): the denial's own fact and one more.
SPECIFIC_TERM_FACTS = 2
UNIVERSAL_SUBJECTS = frozenset({"nobody", "no", "none", "noone"})
SPECIFIC_TERM_SHARE = 25


def exclusive_rival_fact(memory: ScopeMemory, claim: Claim) -> tuple[Fact, str] | None:
    """The latest active fact that names another member of an exclusive category (another
    database, license, host ...) for the same subject, and the category."""
    if claim.negated or claim.hedge or not named_members(claim.statement):
        return None
    subject, role = lead_subject(claim.statement), claim_role(claim)
    for fact in memory.naming_members():  # a fact naming no member is no rival
        if fact.negated or fact.asserted_by != role:
            continue
        if subject != lead_subject(fact.statement) and not _either_names(claim, fact):
            continue  # about someone or something else: one holder, or no conflict
        category = exclusive_rival(claim.statement, fact.statement)
        if category is not None:
            return fact, category
    return None


def _either_names(claim: Claim, fact: Fact) -> bool:
    """One statement names what the other is about ("Production for Shelfie is on AWS" /
    "Shelfie is deployed on Hetzner")."""
    ours, theirs = lead_subject(claim.statement), lead_subject(fact.statement)
    return mentions(fact.statement, ours) or mentions(claim.statement, theirs)
