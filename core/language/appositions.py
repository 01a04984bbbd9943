"""Who a named person or pet is to the speaker, from an apposition: "my wife Keiko",
"my brother Luis", "my dog Pepper" say "Keiko is the speaker's wife" whatever the rest of
the sentence says, and that stays true when the rest changes ("the trip is now in April").

The relation nouns are a closed class of English: kinship, partners, household, work and
friendship, and pets (core/language/lexicon.py). The name is one or two capitalised words, never a
day or month ("I called my dad Monday").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from provmem.core.language.lexicon import CALENDAR_WORDS, PETS

__all__ = ["Apposed", "RELATION_NOUNS", "relation_appositions", "relation_statement"]

RELATION_NOUNS: frozenset[str] = frozenset(
    {"wife", "husband", "partner", "boyfriend", "girlfriend", "fiance", "fiancé", "fiancée"}
    | {"son", "daughter", "brother", "sister", "mother", "father", "mom", "mum", "dad"}
    | {"grandmother", "grandfather", "grandma", "grandpa", "granddaughter", "grandson"}
    | {"aunt", "uncle", "cousin", "niece", "nephew", "stepson", "stepdaughter", "twin"}
    | {"friend", "roommate", "flatmate", "neighbor", "neighbour", "boss", "manager"}
    | {"colleague", "coworker", "co-worker", "teammate", "mentor", "landlord", "landlady"}
    | {p for p in PETS if " " not in p and not p.endswith("s")}
)
_MODIFIER = r"(?:(?:best|old|older|younger|little|big|baby|new|oldest|youngest|eldest)\s+)?"
_APPOSED = re.compile(
    rf"\b[Mm]y\s+(?P<relation>{_MODIFIER}(?P<noun>[a-z][a-zé-]+))\s+"
    r"(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)(?![\w-])"
)


@dataclass(frozen=True)
class Apposed:
    """One "my <relation> <Name>" apposition: its characters, the name and the relation."""

    start: int
    end: int
    name: str
    relation: str


def relation_appositions(text: str, start: int, end: int) -> list[Apposed]:
    """The relation appositions of ``text[start:end]``, in order."""
    found = []
    for match in _APPOSED.finditer(text, start, end):
        name = _name(match.group("name"))
        if match.group("noun") in RELATION_NOUNS and name:
            found.append(Apposed(match.start(), match.end(), name, match.group("relation")))
    return found


def relation_statement(apposed: Apposed, speaker: str) -> str:
    """ "Keiko is Hiro's wife." """
    return f"{apposed.name} is {speaker}'s {apposed.relation}."


def _name(words: str) -> str:
    """The name without a day, a month or a pronoun that follows it ("Luis Monday")."""
    kept = []
    for word in words.split():
        if word in CALENDAR_WORDS or word.lower() in CALENDAR_WORDS or word == "I":
            break
        kept.append(word)
    return " ".join(kept)
