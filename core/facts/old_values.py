"""Old values: a change acts on every fact that still states the value it replaced.

When a claim supersedes a fact whose value is a name or a place ("my cat's name is
Pixie, not Pixel"; "I now work at Swedish Medical Center"), other active facts of the
same holder may still state the old value in other words ("Maya's cat Pixel keeps Maya
company"). Each of them is marked as history too, superseded by the new fact. Measures
(counts, versions, quantities) are left alone: "4" names too much to be matched by form.
"""

from __future__ import annotations

from provmem.core.events import Fact
from provmem.core.extraction.polarity import lead_subject, mentions
from provmem.core.facts.attribute_match import value_shape
from provmem.core.facts.memory_state import ScopeMemory

__all__ = ["stating_old_value"]


def stating_old_value(memory: ScopeMemory, replaced: Fact, fresh: Fact) -> list[Fact]:
    """The active facts besides ``replaced`` of its holder (same speaker role, same
    holder) that state its old value and not the new one."""
    old = replaced.slot_value
    if not old or value_shape(old) != "text" or len(old) < MIN_VALUE_CHARS:
        return []
    holder = holder_of(replaced)
    return [
        fact
        for fact_id in memory.active
        if (fact := memory.facts[fact_id]).fact_id not in (replaced.fact_id, fresh.fact_id)
        and fact.asserted_by == replaced.asserted_by
        and holder_of(fact) == holder
        and mentions(fact.statement, old)
        and not (fresh.slot_value and mentions(fact.statement, fresh.slot_value))
    ]  # fmt: skip


def holder_of(fact: Fact) -> str:
    """Whom a fact is about: its slot's subject, else its statement's lead subject."""
    subject = (fact.slot or "").partition("|")[0]
    return subject or lead_subject(fact.statement)


# A value shorter than this ("us", "la") is too common a word to name one old value.
MIN_VALUE_CHARS = 3
