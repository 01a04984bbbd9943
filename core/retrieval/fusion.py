"""Retrieval, pure part: fuse route rankings, project hits onto facts, fit a token budget.

Routes return ranked item ids: facts (``fact_...``) or raw evidence (``ev_...``).
Reciprocal rank fusion combines them; evidence hits are projected onto the active facts
they support (or stay raw evidence when no fact covers them); superseded facts are
projected onto their active successor and kept as its history, and a turn whose every
fact was replaced by another turn's stays raw evidence too, at an old version's credit.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TypeVar

from provmem.core.events import VALUE_STATE, Fact, FactStatus

T = TypeVar("T")
# Reciprocal rank fusion's constant. 60 is the value for fusing lists 1,000 deep; our
# routes return 30 hits each and a small memory has fewer items than that, so every item
# is in every route and k=60 makes a top hit worth barely more than a sixth place: the
# count of routes decides. k=10 lets a route's own best hits count (LoCoMo dev R@10
# 0.76 -> 0.79 in the same run; docs/benchmarks.md).
RRF_K = 10
_TOKEN = re.compile(r"\w+|[^\w\s]")


def supporting_text(text: str, evidence_id: str, fact: Fact | None) -> str:
    """The parts of an evidence text that support ``fact`` (the whole text without one)."""
    spans = [s for s in fact.support if s.evidence_id == evidence_id] if fact else []
    return " … ".join(text[s.start : s.end] for s in spans) if spans else text


def count_tokens(text: str) -> int:
    """Approximate context tokens: words and punctuation marks."""
    return len(_TOKEN.findall(text))


@dataclass(frozen=True)
class RouteResult:
    """One route's ranking, best first, with why it ran."""

    route: str
    items: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class Fused:
    item: str
    score: float
    routes: tuple[str, ...]


def fuse(
    results: Sequence[RouteResult], weights: Mapping[str, float] | None = None, k: int = RRF_K
) -> list[Fused]:
    """Reciprocal rank fusion: score = Σ weight / (k + rank) over the routes that found it."""
    scores: defaultdict[str, float] = defaultdict(float)
    routes: defaultdict[str, list[str]] = defaultdict(list)
    for result in results:
        weight = (weights or {}).get(result.route, 1.0)
        for rank, item in enumerate(result.items, start=1):
            scores[item] += weight / (k + rank)
            routes[item].append(result.route)
    ordered = sorted(scores, key=lambda i: (-scores[i], i))
    return [Fused(i, scores[i], tuple(routes[i])) for i in ordered]


@dataclass
class FusedBundle:
    """A fact (or a raw evidence turn no fact covers) with the hits that led to it."""

    key: str
    score: float
    routes: set[str]
    fact: Fact | None = None
    evidence_id: str | None = None
    history: list[Fact] = field(default_factory=list)
    via_evidence: set[str] = field(default_factory=set)
    conflicts: list[str] = field(default_factory=list)  # returned facts this one contradicts
    # route -> the credit each of its hits gave, by the turn a hit landed through ("" for
    # a hit on the fact itself): what :func:`spread` spends once per turn
    credits: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def evidence_ids(self) -> tuple[str, ...]:
        if self.fact is not None:
            return self.fact.evidence_ids
        return (self.evidence_id,) if self.evidence_id else ()

    def covers(self, evidence_id: str) -> bool:
        """Whether a hit on ``evidence_id`` is represented here: the bundle's provenance,
        or a turn of a version it superseded that landed on it."""
        return evidence_id in self.evidence_ids or evidence_id in self.via_evidence

    def gain(self, spent: Collection[str]) -> float:
        """What the bundle's hits add when the credit of the turns in ``spent`` went to
        better bundles: each route's best hit, a hit through a spent turn counting nothing
        (RRF over the rest; the fused score when nothing is spent)."""
        if not self.credits:
            return self.score
        return sum(
            max((c for turn, c in hits.items() if turn not in spent), default=0.0)
            for hits in self.credits.values()
        )


@dataclass(frozen=True)
class Lookups:
    """What projection needs to know about the items (read from the views)."""

    facts: Mapping[str, Fact]
    facts_of_evidence: Mapping[str, Sequence[str]]


SUPERSEDED_CREDIT = 0.5  # a hit on an old version counts half for its successor
ASSISTANT_CREDIT = 0.5  # the assistant's statement, for a question not asked of it
ENDED_CREDIT = 0.5  # asked what held before, the value that replaced it counts half


class TimeAsked(StrEnum):
    """What a question asks of time (core/retrieval/sufficiency.py reads it):

    - ``present``: what holds now ("Where does Ana live?"): an old version lands on its
      successor (a fact said to have ended, "Ana used to live in Leeds", counts half by
      the query's ``present_at``);
    - ``past``: what happened ("Where did Ana go in May?"): every fact as it was;
    - ``history``: what held before ("Where did Ana live before?", "her previous job"):
      an old version is found itself, not only through the value that replaced it, and
      that value counts half.
    """

    PRESENT = "present"
    PAST = "past"
    HISTORY = "history"


Target = tuple[str, Fact | None, str | None, float]


def project(
    results: Sequence[RouteResult],
    lookups: Lookups,
    weights: Mapping[str, float] | None = None,
    k: int = RRF_K,
    ignore: Collection[str] = (),
    present_at: datetime | None = None,
    of_assistant: bool = True,
    asked: TimeAsked = TimeAsked.PAST,
) -> list[FusedBundle]:
    """Project each route's hits onto bundles, then fuse the bundle rankings by RRF.

    Within a route a bundle counts once, with its best hit (credit over rank), so a fact
    with many supporting turns is not counted once per turn, and a half-credit hit on an
    old version does not mask a better-credited hit further down. Items in ``ignore``
    are passed over; the items after them keep their ranks. With ``present_at`` (a query
    about the present, asked then) a fact that had ended by then ("used to ...") is a
    past state, as a superseded version is: its hits count half. Unless ``of_assistant``
    (the query asks what the assistant said), the assistant's own statements ("The
    assistant recommended ...") count half: provenance is not truth, and a question about
    the user or their world is answered by what they said first. ``asked``: what the
    question asks of time (:class:`TimeAsked`): asked what held before, an old version
    is found itself.
    """
    bundles: dict[str, FusedBundle] = {}
    landings: dict[str, list[tuple[str, float]]] = {}  # an item found by several routes lands once
    for result in results:
        weight = (weights or {}).get(result.route, 1.0)
        for rank, item in enumerate(result.items, start=1):
            if item in ignore:
                continue
            if item not in landings:
                landings[item] = _land(item, lookups, bundles, asked)
            through = "" if item in lookups.facts else item
            for key, credit in landings[item]:
                credit *= _standing(bundles[key].fact, present_at, of_assistant)
                hits = bundles[key].credits.setdefault(result.route, {})
                hits[through] = max(hits.get(through, 0.0), weight * credit / (k + rank))
    for bundle in bundles.values():
        bundle.score = bundle.gain(frozenset())
        bundle.routes.update(bundle.credits)
    return sorted(bundles.values(), key=lambda b: (-b.score, b.key))


def _standing(fact: Fact | None, present_at: datetime | None, of_assistant: bool) -> float:
    """The credit a hit on ``fact`` keeps for a query about ``present_at``: half when the
    fact had ended by then, in full otherwise (and for a query about another time); half
    for the assistant's own statement when the query does not ask of the assistant."""
    if fact is None:
        return 1.0
    said = 1.0 if of_assistant or fact.asserted_by != "assistant" else ASSISTANT_CREDIT
    if present_at is None or fact.valid_to is None:
        return said
    return said * (SUPERSEDED_CREDIT if fact.valid_to <= present_at else 1.0)


def _land(
    item: str, lookups: Lookups, bundles: dict[str, FusedBundle], asked: TimeAsked
) -> list[tuple[str, float]]:
    """The bundles one hit lands on (made on first landing), with the hit noted as their
    history or provenance once, whichever routes found it; (bundle key, credit) each."""
    landed = _targets(item, lookups, asked)
    itself = any(key == item for key, *_ in landed)  # the turn stands as itself too
    for key, fact, evidence, _ in landed:
        bundle = bundles.get(key) or bundles.setdefault(
            key, FusedBundle(key, 0.0, set(), fact, evidence)
        )
        _note_history(bundle, item, lookups)
        if evidence and fact is not None and not itself:
            bundle.via_evidence.add(evidence)
    return [(key, credit) for key, _, _, credit in landed]


def _targets(item: str, lookups: Lookups, asked: TimeAsked) -> list[Target]:
    """Where one hit lands: its active fact(s), else the raw evidence itself. A turn whose
    every fact was replaced by facts of other turns also stays itself, at an old
    version's credit: the content its facts said beside the old value is still found. A
    state record (one value the turn states) is found by the fact routes, not by hits on
    its turn: the turn, with all it says, stays the evidence."""
    if item in lookups.facts:
        return _landing(lookups.facts[item], None, lookups, asked)
    landed: list[Target] = []
    ids = sorted(lookups.facts_of_evidence.get(item, ()))
    every = [lookups.facts[i] for i in ids if i in lookups.facts]
    own = [f for f in every if VALUE_STATE not in f.signals]  # a value's record is not the turn
    for fact in own:
        landed += _landing(fact, item, lookups, asked)
    unique = {target[0]: target for target in sorted(landed, key=lambda t: -t[3])}
    if unique and asked is not TimeAsked.HISTORY and _replaced(own, item, lookups):
        unique[item] = (item, None, item, SUPERSEDED_CREDIT)
    records = [f for f in every if f not in own]
    ended = bool(records) and all(f.status is FactStatus.SUPERSEDED for f in records)
    credit = SUPERSEDED_CREDIT if ended and asked is not TimeAsked.HISTORY else 1.0
    return list(unique.values()) or [(item, None, item, credit)]  # a value since changed: half


def _replaced(own: Sequence[Fact], evidence_id: str, lookups: Lookups) -> bool:
    """Every fact of the turn superseded by a fact that does not cite it (a turn whose
    facts were erased, or merged into one citing it, is not brought back)."""
    return bool(own) and all(
        fact.status is FactStatus.SUPERSEDED
        and evidence_id not in current(fact, lookups.facts).evidence_ids
        for fact in own
    )


def _landing(fact: Fact, evidence: str | None, lookups: Lookups, asked: TimeAsked) -> list[Target]:
    successor = current(fact, lookups.facts)
    if asked is TimeAsked.HISTORY and fact.status is FactStatus.SUPERSEDED:
        return [(fact.fact_id, fact, evidence, 1.0)]  # what held before, as it was said
    if successor.status is not FactStatus.ACTIVE:
        return []
    credit = 1.0 if successor is fact else SUPERSEDED_CREDIT
    if asked is TimeAsked.HISTORY and successor.supersedes and successor.valid_to is None:
        credit *= ENDED_CREDIT  # the value that replaced another is not what held before
    return [(successor.fact_id, successor, evidence, credit)]


def current(fact: Fact, facts: Mapping[str, Fact], depth: int = 20) -> Fact:
    """Follow ``superseded_by`` to the fact that replaced this one (bounded)."""
    while fact.superseded_by and fact.superseded_by in facts and depth > 0:
        fact, depth = facts[fact.superseded_by], depth - 1
    return fact


def _note_history(bundle: FusedBundle, item: str, lookups: Lookups) -> None:
    """An earlier version the hit landed through (the fact hit, or the fact of the turn
    hit) becomes the bundle's history."""
    if bundle.fact is None:
        return
    hit = [item] if item in lookups.facts else lookups.facts_of_evidence.get(item, ())
    for fact_id in hit:
        fact = lookups.facts.get(fact_id)
        if fact is None or fact.fact_id == bundle.fact.fact_id or fact in bundle.history:
            continue
        if current(fact, lookups.facts).fact_id == bundle.fact.fact_id:
            bundle.history.append(fact)


def within_budget(bundles: Sequence[T], budget: int, size: Callable[[T], int]) -> list[T]:
    """The best bundles whose rendered sizes fit in ``budget`` tokens, in rank order."""
    kept: list[T] = []
    used = 0
    for bundle in bundles:
        cost = size(bundle)
        if used + cost <= budget:
            kept.append(bundle)
            used += cost
    return kept


def spread(bundles: Sequence[FusedBundle]) -> list[FusedBundle]:
    """Rank order where a turn's credit is spent once (:func:`spread_gains`)."""
    return [bundle for _, bundle in spread_gains(bundles)]


def spread_gains(bundles: Sequence[FusedBundle]) -> list[tuple[float, FusedBundle]]:
    """Rank order where a turn's credit is spent once, each bundle with the gain it was
    placed by. A hit on a turn lands on every fact the turn supports, so the first bundle
    citing the turn takes that credit and the others keep what their own statements
    earned (the fact routes' hits, hits on their other turns): a second fact of a turn
    that answers the query by itself keeps its place; one that rode on the turn's hits
    yields it to bundles bringing new evidence. A turn a bundle holds only as history (an
    earlier version's) is not cited by it, so is not spent: its other facts keep its credit.

    Greedy by marginal gain, lazily re-scored (a gain only falls as turns are spent);
    ties by key, as :func:`project` orders."""
    queue = [(-b.score, b.key, i) for i, b in enumerate(bundles)]
    heapq.heapify(queue)
    spent: set[str] = set()
    ordered: list[tuple[float, FusedBundle]] = []
    while queue:
        stale, key, i = heapq.heappop(queue)
        gain = bundles[i].gain(spent)
        if queue and -gain > stale and (-gain, key) > queue[0][:2]:
            heapq.heappush(queue, (-gain, key, i))
            continue
        ordered.append((gain, bundles[i]))
        spent.update(bundles[i].evidence_ids)
    return ordered


def temporal_route(
    ranges: Sequence[str], routes: Sequence[RouteResult], lookups: Lookups, depth: int = 30
) -> RouteResult | None:
    """The active facts the other routes found whose time lies in one of ``ranges``
    (ISO dates or ``first/last`` ranges), in order of their best rank in any route.

    Bounded by what the routes returned: never a scan of the scope.
    """
    if not ranges:
        return None
    best: dict[str, int] = {}
    for result in routes:
        for rank, item in enumerate(result.items):
            for fact_id in lookups.facts_of_evidence.get(item, (item,)):
                best[fact_id] = min(best.get(fact_id, rank), rank)
    inside = [
        fact
        for fact_id in best
        if (fact := lookups.facts.get(fact_id)) is not None
        and fact.status is FactStatus.ACTIVE
        and _within(fact, ranges)
    ]
    inside.sort(key=lambda f: (best[f.fact_id], f.fact_id))
    return RouteResult("temporal", tuple(f.fact_id for f in inside[:depth]), ", ".join(ranges))


def _within(fact: Fact, ranges: Sequence[str]) -> bool:
    moment = (fact.valid_from or fact.last_verified_at).date().isoformat()
    for value in ranges:
        first, _, last = value.partition("/")
        if first <= moment <= (last or first):
            return True
    return False


RAW_ROUTES = frozenset({"dense_evidence", "bm25_evidence"})


def raw_tier(results: Sequence[RouteResult], depth: int, k: int = RRF_K) -> list[str]:
    """The raw evidence the raw-evidence routes alone rank first (their own RRF), best first."""
    raw = [r for r in results if r.route in RAW_ROUTES]
    return [f.item for f in fuse(raw, k=k)[:depth]]


def agreed_raw_hits(results: Sequence[RouteResult], depth: int) -> list[str]:
    """The raw tier's first ``depth`` hits that every raw-evidence route found: confident
    hits, matched by their words and by their meaning."""
    raw = [r for r in results if r.route in RAW_ROUTES]
    found = [set(r.items) for r in raw]
    return [item for item in raw_tier(raw, depth) if found and all(item in f for f in found)]


def guaranteed_raw_hits(results: Sequence[RouteResult], depth: int, share: float) -> list[str]:
    """The raw hits a top ``depth`` must hold: of the raw tier's best ``share`` of those
    places (rounded up), the hits every raw-evidence route found. A hit one route alone
    ranks (dense search ranks every turn of a small memory) is a guess, and fusion gives
    it its due; a guarantee over a fixed count would fill a short top with such guesses."""
    return agreed_raw_hits(results, math.ceil(depth * share))


def neighbour_route(
    anchors: Sequence[str], around: Mapping[str, Sequence[str]], depth: int = 30
) -> RouteResult | None:
    """The turns around the raw tier's best hits, nearest first: a conversation stays on
    its topic for an exchange, so the reply to a turn found and the speaker's next turn are
    likely about what was asked (a multi-part answer, the answer to a question found).

    ``around[anchor]`` is the anchor's source-ordered neighbourhood, the anchor included.
    Items are ordered by their anchor's rank, then by distance (before, then after); the
    anchors themselves are left out (their routes rank them)."""
    items: list[str] = []
    for anchor in anchors:
        turns = list(around.get(anchor, ()))
        if anchor not in turns:
            continue
        at = turns.index(anchor)
        by_distance = sorted(
            (i for i in range(len(turns)) if i != at), key=lambda i: (abs(i - at), i > at)
        )
        items += [turns[i] for i in by_distance]
    unique = [i for i in dict.fromkeys(items) if i not in anchors][:depth]
    return RouteResult("neighbours", tuple(unique), ", ".join(anchors)) if unique else None


def keep_raw_tier(
    bundles: Sequence[FusedBundle], required: Sequence[str], depth: int
) -> list[FusedBundle]:
    """The fused order, changed as little as needed so that the first ``depth`` bundles
    cover every evidence id in ``required`` (the raw tier's own top ``depth``).

    Fusion may rank a raw turn's bundle lower; it is pulled up only when the remaining
    places are just enough for the raw hits not yet covered, so recall is never below
    the raw tier alone (no raw hit of its top ``depth`` is pushed out)."""
    ranked, chosen = list(bundles), list[FusedBundle]()
    open_hits = [e for e in dict.fromkeys(required) if any(b.covers(e) for b in ranked)]
    while ranked and len(chosen) < depth:
        needed = _covering(ranked, open_hits)
        pick = needed[0] if len(needed) >= depth - len(chosen) else ranked[0]
        ranked.remove(pick)
        chosen.append(pick)
        open_hits = [e for e in open_hits if not pick.covers(e)]
    return chosen + ranked


def _covering(ranked: Sequence[FusedBundle], hits: Sequence[str]) -> list[FusedBundle]:
    """For each hit, the best-ranked bundle covering it; distinct, in rank order."""
    firsts = {id(next(b for b in ranked if b.covers(e))) for e in hits}
    return [b for b in ranked if id(b) in firsts]


def pair_conflicts(bundles: Sequence[FusedBundle], facts: Mapping[str, Fact]) -> list[FusedBundle]:
    """Conflicting facts together: each active fact a returned fact conflicts with comes
    right after it (moved up, or added), and both bundles name each other."""
    ordered: list[FusedBundle] = []
    by_key = {b.key: b for b in bundles}
    placed: set[str] = set()
    for bundle in bundles:
        if bundle.key in placed:
            continue
        ordered.append(bundle)
        placed.add(bundle.key)
        for partner in _partners(bundle, facts):
            mate = by_key.get(partner.fact_id) or FusedBundle(
                partner.fact_id, bundle.score, {"conflict"}, partner
            )
            _link(bundle, mate)
            if mate.key not in placed:
                ordered.append(mate)
                placed.add(mate.key)
    return ordered


def _partners(bundle: FusedBundle, facts: Mapping[str, Fact]) -> list[Fact]:
    ids = bundle.fact.conflicts_with if bundle.fact else ()
    found = (facts.get(i) for i in ids)
    return [f for f in found if f is not None and f.status is FactStatus.ACTIVE]


def _link(first: FusedBundle, second: FusedBundle) -> None:
    if second.key not in first.conflicts:
        first.conflicts.append(second.key)
    if first.key not in second.conflicts:
        second.conflicts.append(first.key)
