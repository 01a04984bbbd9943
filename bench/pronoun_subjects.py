"""bench/pronoun_subjects: a fact whose subject is a pronoun with nothing to name.

    dangling_pronoun(doc)  # spaCy doc -> ["dangling-pronoun: It"] or []

A fact is read alone, so "It is a Vue 3 SPA.", "They are twins." or "Her birthday is on
27 June." say nothing: the subject of the main clause (or its possessive) is "it",
"they", "this", "that", "these", "those", "its", "their", "his" or "her". A dummy "it"
names nothing and is fine: weather and time ("It is raining"), appearance ("It seems
that ...", "It takes 30 minutes to ..."), and an extraposed subject, a clause after the
predicate ("It is great to see ...", "It is important that ...", "It was fun being
there"). A pronoun after a noun of the statement may name it ("When Maya got home, they
slept") and is not judged. From the parse alone, independently of the extractor's rules.
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
    if any(t.pos_ in ("PROPN", "NOUN") for t in doc[: subject.left_edge.i]):
        return []  # "Whenever Caroline hears it, they ...": named before, in the statement
    word = subject.lower_
    if word in REFERRING and subject.tag_ in ("PRP", "DT") and not _dummy(subject, root):
        return [f"dangling-pronoun: {subject.text}"]
    owner = next((c for c in subject.children if c.dep_ == "poss"), None)
    if owner is not None and owner.lower_ in POSSESSIVES and owner.i == subject.left_edge.i:
        return [f"dangling-pronoun: {owner.text} {subject.text}"]
    return []


def _dummy(subject: Any, root: Any) -> bool:
    """Weather, time, an appearance verb, or a clause after the verb that the "it" stands
    in for (the small model attaches an extraposed clause anywhere, so any clause or
    gerund after the verb counts: "It must be scary stepping into ...")."""
    if subject.lower_ != "it":
        return False
    if root.lower_.startswith(DUMMY_VERBS) or root.lower_ in WEATHER_WORDS:
        return True
    after = list(root.doc[root.i + 1 :])
    if any(t.lower_ in WEATHER_WORDS or t.lower_.startswith(DUMMY_VERBS[:4]) for t in after[:2]):
        return True  # "It's raining", "It is cold"
    clause = any(t.dep_ in CLAUSE_DEPS for t in after)
    return clause or any(t.tag_ == "VBG" and t.dep_ not in ("amod", "compound") for t in after)
