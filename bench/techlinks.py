"""bench/techlinks: are the gate's links between facts the ones the gold labels pair?

A link is a supersession (``supersedes``) or a conflict (``conflicts_with``) between two
facts. A fact is labelled with the gold items (a knowledge update, a contradiction pair)
whose labelled sentence one of its support spans overlaps. A link is

- *gold* when both facts carry a label of one item (the pair the gold names),
- *false* when both are labelled, but by different items: two different attributes (or
  matters) wrongly linked, the false-link rate's numerator,
- *unlabelled* when a side carries no label (a background sentence, an assistant's
  echo): listed for a look by hand, not counted as right or wrong.

    >>> label_link({"update:latency"}, {"update:latency", "contradiction:ci"})
    'gold'
    >>> label_link({"update:latency"}, {"update:build"})
    'false'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from provmem.core.events import Fact

SIDES = (("updates", ("original", "updated")), ("contradictions", ("first", "second")))


@dataclass(frozen=True)
class Link:
    kind: str  # "supersede" or "conflict"
    first: Fact
    second: Fact


def gold_sentences(conv: Mapping[str, Any]) -> dict[str, list[tuple[int, int, str]]]:
    """Per turn id, the [start, end) of every labelled sentence and its item's name."""
    texts = {t["turn_id"]: t["text"] for t in conv["turns"]}
    found: dict[str, list[tuple[int, int, str]]] = {}
    for group, sides in SIDES:
        for item in conv[group]:
            name = f"{group.rstrip('s')}:{item['key']}"
            for side in sides:
                turn_id, sentence = item[side]["turn_id"], item[side]["text"]
                start = texts[turn_id].find(sentence)
                if start >= 0:
                    found.setdefault(turn_id, []).append((start, start + len(sentence), name))
    return found


def fact_labels(
    fact: Fact, turn_of: Mapping[str, str], sentences: Mapping[str, Sequence[tuple[int, int, str]]]
) -> set[str]:
    """The gold items whose labelled sentence a support span of the fact overlaps."""
    labels: set[str] = set()
    for span in fact.support:
        for start, end, name in sentences.get(turn_of.get(span.evidence_id, ""), ()):
            if span.start < end and start < span.end:
                labels.add(name)
    return labels


def links(facts: Iterable[Fact]) -> list[Link]:
    """Every supersession and conflict between two facts of a scope, once per pair."""
    by_id = {f.fact_id: f for f in facts}
    found: dict[frozenset[str], Link] = {}
    for fact in by_id.values():
        if fact.supersedes in by_id:
            pair = frozenset((fact.supersedes, fact.fact_id))
            found[pair] = Link("supersede", by_id[fact.supersedes], fact)
        for other in fact.conflicts_with:
            pair = frozenset((fact.fact_id, other))
            if other in by_id and pair not in found:
                found[pair] = Link("conflict", by_id[other], fact)
    return list(found.values())


def label_link(first: set[str], second: set[str]) -> str:
    if first & second:
        return "gold"
    return "false" if first and second else "unlabelled"


def links_report(
    conversations: Sequence[Mapping[str, Any]],
    facts: Mapping[str, Sequence[Fact]],
    turn_of: Mapping[str, str],
) -> dict[str, Any]:
    """Counts of gold, false and unlabelled links, the false-link rate, and examples."""
    counts = {"gold": 0, "false": 0, "unlabelled": 0}
    examples: dict[str, list[str]] = {"false": [], "unlabelled": []}
    for conv in conversations:
        sentences = gold_sentences(conv)
        for link in links(facts.get(conv["scope"], ())):
            kind = label_link(
                fact_labels(link.first, turn_of, sentences),
                fact_labels(link.second, turn_of, sentences),
            )
            counts[kind] += 1
            if kind in examples:
                examples[kind].append(
                    f"{link.kind}: {link.first.statement!r} ~ {link.second.statement!r}"
                )
    labelled = counts["gold"] + counts["false"]
    return {
        **counts,
        "links": sum(counts.values()),
        "false_rate": counts["false"] / max(1, labelled),
        "examples": examples,
    }
