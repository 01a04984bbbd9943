"""bench/pronoun_subjects: a fact whose subject is a pronoun with nothing to name.

    dangling_pronoun(doc)  # spaCy doc -> ["dangling-pronoun: It"] or []

A fact is read alone, so "It is a Vue 3 SPA.", "They are twins." or "Her birthday is on
27 June." say nothing: the subject of the main clause (or its possessive) is "it",
"they", "this", "that", "these", "those", "its", "their", "his" or "her". A dummy "it"
names nothing and is fine: weather and time ("It is raining"), appearance ("It seems
that ...", "It takes 30 minutes to ..."), and an extraposed subject, a clause after the
predicate ("It is great to see ...", "It is important that ...", "It was fun being
there"). Judged from the parse alone, independently of the extractor's rules.
"""

from __future__ import annotations

from typing import Any

REFERRING = {"it", "they", "this", "that", "these", "those"}
POSSESSIVES = {"its", "their", "his", "her"}
SUBJECTS = {"nsubj", "nsubjpass"}
DUMMY_VERBS = (
    "rain",
    "snow",
    "pour",
    "drizzl",
    "tak",
    "took",
    "seem",
    "appear",
    "sound",
    "look",
    "feel",
    "felt",
    "happen",
    "turn",
    "cost",
    "mean",
    "meant",
    "matter",
    "pay",
    "paid",
    "help",
    "hurt",
)  # fmt: skip  (stems: the benchmark's parse has no lemmatizer)
WEATHER_WORDS = {
    "sunny", "cloudy", "windy", "foggy", "stormy", "hot", "cold", "warm", "chilly", "humid",
    "dark", "late", "early", "time", "while", "ages",
}  # fmt: skip
CLAUSE_DEPS = {"xcomp", "ccomp", "csubj", "advcl", "acl", "relcl"}


def dangling_pronoun(doc: Any) -> list[str]:
    """ "dangling-pronoun: <word>" when the main clause's subject is a referring pronoun
    (or a noun with a pronoun possessive); empty otherwise."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return []
    subject = next((t for t in root.children if t.dep_ in SUBJECTS), None)
    if subject is None:
        return []
    word = subject.lower_
    if word in REFERRING and subject.tag_ in ("PRP", "DT") and not _dummy(subject, root):
        return [f"dangling-pronoun: {subject.text}"]
    owner = next((c for c in subject.children if c.dep_ == "poss"), None)
    if owner is not None and owner.lower_ in POSSESSIVES and owner.i == subject.left_edge.i:
        return [f"dangling-pronoun: {owner.text} {subject.text}"]
    return []


def _dummy(subject: Any, root: Any) -> bool:
    if subject.lower_ != "it":
        return False
    if root.lower_.startswith(DUMMY_VERBS) or root.lower_ in WEATHER_WORDS:
        return True
    predicates = [root, *(c for c in root.children if c.dep_ in ("acomp", "attr"))]
    if any(p.lower_ in WEATHER_WORDS for p in predicates):
        return True
    return any(c.dep_ in CLAUSE_DEPS and c.i > subject.i for p in predicates for c in p.children)
