"""bench/blind/score: provmem on the blind split (bench/blind/conversations + gold).

    python -m bench.blind.score [--json] [--only NAME]     # NAME: a conversation id or a genre

Each conversation is ingested session by session into a fresh ``provmem.Memory`` in a
temporary folder (public API only), then scored against its gold. Output: aggregate numbers
only (overall, per genre, per gold class, per conversation id); never any conversation text.
Progress goes to stderr. Metric definitions: bench/blind/README.md.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
K = 10
WORD = re.compile(r"[a-z0-9]+")
STOP = set(
    "a an and are as at be been being but by can could did do does doing for from had has have"
    " having he her hers him his how i if in into is it its me my of on or our she so than that"
    " the their them then there these they this to was we were what when where which who whom"
    " why will with would you your yours about after again all am any because before both each"
    " few more most other some such only own same too very just now does ever".split()
)
MONTHS = (
    "january february march april may june july august september october november december"
).split()

#: The metrics printed per conversation.
PER_CONVERSATION = (
    "update.value_above",
    "update.history",
    "update.stale",
    "contradiction.flagged",
    "fact.r10.provmem",
    "fact.r10.bm25",
    "unanswerable.abstained",
)

# --- value matching ----------------------------------------------------------------------


def _squash(text: str) -> str:
    return re.sub(r"[\s,$£€'’]", "", text.lower())


def _forms(value: str) -> set[str]:
    forms = set()
    for alt in value.split("|"):
        base = _squash(alt)
        forms |= {base, base.replace("%", "percent")}
        md = re.fullmatch(r"([A-Za-z]+) (\d+)", alt.strip())
        if md and md.group(1).lower() in MONTHS:
            forms.add(_squash(f"{md.group(2)} {md.group(1)}"))
        dm = re.fullmatch(r"(\d+) ([A-Za-z]+)", alt.strip())
        if dm and dm.group(2).lower() in MONTHS:
            forms.add(_squash(f"{dm.group(2)} {dm.group(1)}"))
    return forms


def states(statement: str, value: str) -> bool:
    """`value` (alternatives split by |) occurs in `statement`, not inside a longer number."""
    text = _squash(statement)
    for form in _forms(value):
        after = r"(?![0-9]|\.[0-9])" if form[-1:].isdigit() else ""
        before = r"(?<![0-9.])" if form[:1].isdigit() else ""
        if re.search(before + re.escape(form) + after, text):
            return True
    return False


def has_terms(text: str, terms: Sequence[str]) -> bool:
    return all(states(text, term) for term in terms)


# --- BM25 over the user's messages ---------------------------------------------------------


def tokens(text: str) -> list[str]:
    return [w for w in WORD.findall(text.lower()) if w not in STOP]


class BM25:
    def __init__(self, docs: Sequence[tuple[int, str]], k1: float = 1.2, b: float = 0.75) -> None:
        self.ids = [i for i, _ in docs]
        self.docs = [Counter(tokens(t)) for _, t in docs]
        self.lens = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.lens) / max(1, len(self.lens))
        df = Counter(w for d in self.docs for w in d)
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}
        self.k1, self.b = k1, b

    def rank(self, query: str, k: int) -> list[int]:
        q = tokens(query)
        scores = []
        for doc, length, turn in zip(self.docs, self.lens, self.ids, strict=True):
            s = 0.0
            for w in q:
                tf = doc.get(w, 0)
                if tf:
                    norm = self.k1 * (1 - self.b + self.b * length / self.avg)
                    s += self.idf[w] * tf * (self.k1 + 1) / (tf + norm)
            if s > 0:
                scores.append((s, turn))
        scores.sort(key=lambda x: (-x[0], x[1]))
        return [turn for _, turn in scores[:k]]


# --- well-formedness ---------------------------------------------------------------------

VERBISH = re.compile(
    r"\b(is|are|was|were|has|have|had|does|do|did|will|would|can|could|should|may|might|must"
    r"|\w+(ed|es|s))\b",
    re.I,
)
DANGLING = {
    "and",
    "or",
    "but",
    "of",
    "to",
    "with",
    "for",
    "from",
    "at",
    "by",
    "in",
    "on",
    "the",
    "a",
    "an",
    "because",
    "if",
    "than",
    "as",
}


def _simple_problems(text: str) -> list[str]:
    found = []
    s = text.strip()
    words = WORD.findall(s.lower())
    if not s or not (s[0].isupper() or s[0].isdigit() or s[0] in "\"'“"):
        found.append("capital: lowercase start")
    if not s.endswith((".", "!", '."')):
        found.append("terminal-punctuation: missing")
    if not VERBISH.search(s):
        found.append("no-finite-verb: none")
    if words and words[-1] in DANGLING:
        found.append("dangling-end: fragment")
    if re.search(r"\b(i|me|my|mine|myself|we|our|you|your)\b", s.lower()):
        found.append("speaker-pronoun: left in")
    if not 3 <= len(words) <= 60:
        found.append("length: out of bounds")
    return found


def ill_formed(statements: list[str]) -> tuple[list[list[str]], str]:
    """Problems per statement: bench/wellformed when it imports, else a simple check."""
    try:
        from bench.wellformed import problems_many

        return [list(p) for p in problems_many(statements)], "bench.wellformed"
    except Exception:  # noqa: BLE001 - the fallback keeps the metric alive
        return [_simple_problems(s) for s in statements], "simple"


# --- tallies ---------------------------------------------------------------------------------


class Tally:
    """Boolean outcomes per metric, grouped overall, per genre, per class, per conversation."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str, bool]] = []  # metric, conv, genre, class, ok

    def add(self, metric: str, conv: str, genre: str, cls: str, ok: bool) -> None:
        self.rows.append((metric, conv, genre, cls, bool(ok)))

    def share(self, metric: str, **where: str) -> tuple[float | None, int]:
        keys = {"conv": 1, "genre": 2, "cls": 3}
        vals = [
            r[4]
            for r in self.rows
            if r[0] == metric and all(r[keys[k]] == v for k, v in where.items())
        ]
        return (sum(vals) / len(vals) if vals else None), len(vals)


# --- ingest --------------------------------------------------------------------------------


def message(turn: dict[str, Any]) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": turn["role"], "content": turn["content"]}
    if turn.get("tool_calls"):
        msg["tool_calls"] = turn["tool_calls"]
    if turn["role"] == "tool":
        msg["tool_call_id"] = f"call_{turn['index'] - 1}"
    return msg


def ingest(
    memory: Any, conv: dict[str, Any]
) -> tuple[dict[str, int], dict[int, str], dict[str, int]]:
    """Add every session; evidence id -> turn index, turn index -> evidence id, statuses."""
    turn_of: dict[str, int] = {}
    statuses: Counter[str] = Counter()
    for session in conv["sessions"]:
        turns = session["turns"]
        results = memory.add(
            [message(t) for t in turns],
            user_id=conv["user_id"],
            user_name=conv["user_name"],
            session_id=session["session_id"],
            at=session["at"],
            strict=False,
        )
        for turn, result in zip(turns, results, strict=True):
            statuses[result.status] += 1
            if result.evidence_id:
                turn_of[result.evidence_id] = turn["index"]
    return turn_of, {v: k for k, v in turn_of.items()}, dict(statuses)


def status_of(fact: Any) -> str:
    status = getattr(fact, "status", "")
    return str(getattr(status, "value", status)).lower()


def bundle_turns(bundle: Any, turn_of: dict[str, int]) -> set[int]:
    if bundle.fact is not None:
        ids = list(bundle.fact.evidence_ids)
    else:
        ids = [e.evidence_id for e in bundle.evidence if getattr(e, "role", "direct") == "direct"]
    return {turn_of[e] for e in ids if e in turn_of}


def fact_turns(fact: Any, turn_of: dict[str, int]) -> set[int]:
    return {turn_of[e] for e in fact.evidence_ids if e in turn_of}


def conflict_ids(fact: Any) -> set[str]:
    raw = getattr(fact, "conflicts_with", None) or ()
    out: set[str] = set()
    for item in raw if isinstance(raw, (list, tuple, set, frozenset)) else (raw,):
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict) and "fact_id" in item:
            out.add(str(item["fact_id"]))
        elif hasattr(item, "fact_id"):
            out.add(str(item.fact_id))
    return out


# --- where a miss is lost: the layers behind the update, contradiction and answer metrics -------

LINK_KINDS = ("supersession", "conflict", "none")
UPDATE_LAYERS = ("old value", "new value", "holder", "link: conflict", "link: none", "kept")
CONTRADICTION_LAYERS = (
    "a side has no fact",
    "a side has no active fact",
    "link: supersession",
    "link: none",
    "flagged",
)
ANSWER_LAYERS = ("extraction", "ranking: active fact", "ranking: only inactive facts")
# the printed column heads of the layers above, in their order
UPDATE_COLUMNS = ("old value", "new value", "holder", "conflict", "no link", "kept")
CONTRADICTION_COLUMNS = ("no fact", "no active", "supersede", "no link", "flagged")
ANSWER_COLUMNS = ("extraction", "rank:act", "rank:inact")


def _key(text: str) -> str:
    return re.sub(r"[\W_]", "", text.lower())


def subject_of(fact: Any) -> str | None:
    """The holder a fact's slot names (``subject|attribute``), None when it has no slot."""
    slot = getattr(fact, "slot", None)
    return _key(slot.split("|")[0]) or None if slot else None


def names_holder(fact: Any, holder: str) -> bool:
    return states(fact.statement, holder) or subject_of(fact) == _key(holder)


def holder_agreement(olds: Sequence[Any], news: Sequence[Any], holder: str) -> str:
    """``same``: some old-value and new-value facts name one holder (the same slot subject, or
    both name the gold holder); ``different``: every pair whose holders show differs;
    ``unshown``: no pair shows both holders."""
    shown = False
    for o in olds:
        for n in news:
            if names_holder(o, holder) and names_holder(n, holder):
                return "same"
            so, sn = subject_of(o), subject_of(n)
            if so is not None and sn is not None:
                if so == sn:
                    return "same"
                shown = True
    return "different" if shown else "unshown"


class Layers:
    """Every fact of a conversation (any status), by turn, with its supersession chains."""

    def __init__(self, every: Sequence[Any], turn_of: dict[str, int], detail: Any) -> None:
        self.turn_of, self.detail = turn_of, detail
        self.by_id = {f.fact_id: f for f in every}
        self.by_turn: dict[int, list[Any]] = {}
        self.replaced: dict[str, list[Any]] = {}  # fact id -> the facts it superseded (by field)
        for f in every:
            for t in fact_turns(f, turn_of):
                self.by_turn.setdefault(t, []).append(f)
            if getattr(f, "superseded_by", None):
                self.replaced.setdefault(f.superseded_by, []).append(f)
        self._earlier: dict[str, list[Any]] = {}

    def at(self, turn: int) -> list[Any]:
        return self.by_turn.get(turn, [])

    def earlier(self, fact_id: str) -> list[Any]:
        """What a fact replaced, transitively: the walk of ``update.history`` (superseded
        facts, earlier versions) plus the facts whose ``superseded_by`` names it."""
        if fact_id not in self._earlier:
            seen, frontier, found = {fact_id}, [fact_id], []
            while frontier and len(seen) < 50:
                current = frontier.pop()
                preds = list(self.replaced.get(current, []))
                d = self.detail(current)
                if d is not None:
                    preds += [
                        *d.supersedes,
                        *(
                            h
                            for h in d.history
                            if h.fact_id != d.fact.fact_id or h.version < d.fact.version
                        ),
                    ]
                    if d.fact.supersedes and d.fact.supersedes in self.by_id:
                        preds.append(self.by_id[d.fact.supersedes])
                for p in preds:
                    found.append(p)
                    if p.fact_id not in seen:
                        seen.add(p.fact_id)
                        frontier.append(p.fact_id)
            self._earlier[fact_id] = found
        return self._earlier[fact_id]

    def replaces(self, later: int, earlier: int) -> bool:
        """A fact of turn ``later`` has, among what it replaced, a fact citing ``earlier``."""
        return any(
            earlier in fact_turns(p, self.turn_of)
            for f in self.at(later)
            for p in self.earlier(f.fact_id)
        )

    def conflicted(self, x: int, y: int) -> bool:
        """A fact of one turn carries a conflict link to a fact of the other (any status)."""
        return any(
            b.fact_id in conflict_ids(a) or a.fact_id in conflict_ids(b)
            for a in self.at(x)
            for b in self.at(y)
            if a.fact_id != b.fact_id
        )

    def link(self, x: int, y: int) -> str:
        """The link between the facts of two turns: supersession (either way), else a
        conflict link, else none."""
        if self.replaces(y, x) or self.replaces(x, y):
            return "supersession"
        return "conflict" if self.conflicted(x, y) else "none"


def update_layers(u: dict[str, Any], layers: Layers) -> dict[str, Any]:
    """One knowledge update's layers (a)-(g) and the first one that loses it."""
    old_t, new_t = u["original_turn"], u["updated_turn"]
    old_v, new_v = u["original_value"], u["updated_value"]
    olds = [f for f in layers.at(old_t) if states(f.statement, old_v)]
    news = [f for f in layers.at(new_t) if states(f.statement, new_v)]
    row = {
        "old_any": bool(layers.at(old_t)),
        "old_value": bool(olds),
        "old_active": any(
            status_of(f) == "active" and not states(f.statement, new_v) for f in olds
        ),
        "new_any": bool(layers.at(new_t)),
        "new_value": bool(news),
        "new_active": any(status_of(f) == "active" for f in news),
        "holder": holder_agreement(olds, news, u["holder"]) if olds and news else None,
        "link": layers.link(old_t, new_t),
    }
    if not row["old_value"]:
        row["lost"] = "old value"
    elif not row["new_value"]:
        row["lost"] = "new value"
    elif row["holder"] == "different":
        row["lost"] = "holder"
    elif row["link"] != "supersession":
        row["lost"] = f"link: {row['link']}"
    else:
        row["lost"] = "kept"
    return row


def contradiction_layers(p: dict[str, Any], layers: Layers) -> dict[str, Any]:
    """One contradiction pair's sides and link, and the first layer that loses it."""
    sides = [layers.at(p["turn_a"]), layers.at(p["turn_b"])]
    row = {
        "sides_with_fact": sum(bool(s) for s in sides),
        "sides_with_active": sum(any(status_of(f) == "active" for f in s) for s in sides),
        "conflict": layers.conflicted(p["turn_a"], p["turn_b"]),
        "link": layers.link(p["turn_a"], p["turn_b"]),
    }
    if row["sides_with_fact"] < 2:
        row["lost"] = "a side has no fact"
    elif row["sides_with_active"] < 2:
        row["lost"] = "a side has no active fact"
    elif not row["conflict"]:
        row["lost"] = f"link: {row['link']}"
    else:
        row["lost"] = "flagged"
    return row


def answer_layer(terms: Sequence[str], gold_turns: Iterable[int], layers: Layers) -> str:
    """Why answer terms missed the top statements: no fact of an evidence turn states them
    (extraction), or one does and ranks lower (ranking; active or not)."""
    stating = [f for t in gold_turns for f in layers.at(t) if has_terms(f.statement, terms)]
    if not stating:
        return "extraction"
    if any(status_of(f) == "active" for f in stating):
        return "ranking: active fact"
    return "ranking: only inactive facts"


# --- finer classes of the misses (blind-side author): features read from the output and the gold --
# Every class below is computed mechanically; the report prints counts only.

SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
CHANGE_CUE = re.compile(
    r"\b(now|moved|switched|no longer|correction|actually|anymore|any more|changed|instead"
    r"|went (up|down)|raised|dropped)\b",
    re.I,
)
REQUEST = re.compile(
    r"^\W*(please|can you|could you|would you|will you|help|tell me|give me|show me|suggest"
    r"|recommend|let me know|explain|walk me|what|how|which|should|is it|is there|are there"
    r"|do you|does|any (tips|ideas|advice))\b|\b(can|could|would) you\b|\bplease\b",
    re.I,
)
SUBORDINATOR = re.compile(
    r"\b(because|since|although|though|while|when|whenever|if|unless|after|before|until"
    r"|that|which|who|where|whereas|so)\b",
    re.I,
)
INTENTION = re.compile(
    r"\b(wants?|wanted|trying|tries|plans?|planning|hopes?|hoping|would like|intends?"
    r"|is going to|looking for|needs? to|considering|thinking about|wonders?|wondering"
    r"|not sure|unsure|asks?|asking|asked|worried|concerned|curious|prefers?)\b",
    re.I,
)
NEGATION = re.compile(r"\b(never|not|no|none|nothing|nobody|neither|nor)\b|n't\b", re.I)
NUMBER_WORDS = set(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    " sixteen seventeen eighteen nineteen twenty thirty forty fifty hundred dozen".split()
)
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
PLACE_WORDS = set(
    "city town country place address neighborhood neighbourhood location venue state region"
    " live lives home moved office campus site".split()
)
#: Thresholds fixed before looking at any figure (not tuned to the split).
SIMILAR = 0.6
PLACE_KINDS = ("money", "percent", "date", "time", "version", "count", "number with unit")

UPDATE_ATTRIBUTE_CLASSES = (
    "attribute words shared, masked cosine >= 0.6",
    "attribute words shared, masked cosine < 0.6",
    "no attribute word shared, masked cosine >= 0.6",
    "no attribute word shared, masked cosine < 0.6",
)
UPDATE_FEATURES = (
    "change cue in the updating turn",
    "new value inside a question or request",
    "same session",
    "value kinds match",
    "both value facts have a slot",
    "same slot (holder and attribute)",
    "old-value fact superseded by another fact",
    "new-value fact replaced another fact",
    "new-value fact conflict-linked elsewhere",
    "same-holder facts between: 0",
    "same-holder facts between: 1-5",
    "same-holder facts between: 6-20",
    "same-holder facts between: >20",
)
POSITIONS = (
    "in a question",
    "in a request",
    "subordinate clause",
    "main clause, turn asks elsewhere",
    "main clause, turn asks nothing",
    "not written literally",
)
OLD_VALUE_CLASSES = (
    "turn has no fact",
    "facts are intentions or states of mind only",
    "a fact of the value's sentence drops the value",
    "facts come from other sentences only",
)
ANSWER_FIRST_KINDS = (
    "no results",
    "raw user turn",
    "raw assistant turn",
    "fact of an evidence turn, another claim",
    "fact states some answer terms",
    "fact of the holder, another attribute",
    "fact about someone else",
    "fact, holder not shown",
)
ANSWER_RANKS = ("2", "3-5", "6-10", "not in top 10")


def _alts(value: str) -> list[str]:
    return [a.strip() for a in value.split("|") if a.strip()]


def value_kind(value: str, attribute: str = "") -> str:
    """The kind of a gold value: money, percent, date, time, version, count, number with unit,
    place (a proper name of a place-like attribute), name, words."""
    v = _alts(value)[0] if _alts(value) else value
    low, words = v.lower(), WORD.findall(v.lower())
    digit = bool(re.search(r"\d", v))
    if digit and re.search(r"[$£€]|\b(dollars?|euros?|pounds?|usd|eur|gbp|cents?|k)\b", low):
        return "money"
    if digit and ("%" in v or "percent" in low):
        return "percent"
    if any(w in MONTHS or w in WEEKDAYS for w in words) or re.search(r"\d+[/-]\d+", v):
        return "date"
    if re.search(r"\d:\d\d|\b(am|pm)\b", low):
        return "time"
    if re.fullmatch(r"v?\d+(\.\d+){1,3}", low):
        return "version"
    if digit or any(w in NUMBER_WORDS for w in words):
        rest = [w for w in words if not w.isdigit() and w not in NUMBER_WORDS]
        return "number with unit" if rest else "count"
    if v[:1].isupper():
        return "place" if set(tokens(attribute)) & PLACE_WORDS else "name"
    return "words"


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE.split(text) if s.strip()]


def _value_at(sentence: str, value: str) -> int:
    """Where a value starts in a sentence (its end when not found literally)."""
    low = sentence.lower()
    for alt in _alts(value):
        i = low.find(alt.lower())
        if i >= 0:
            return i
    digits = re.search(r"\d+", value)
    i = low.find(digits.group(0)) if digits else -1
    return i if i >= 0 else len(sentence)


def position(text: str, value: str) -> str:
    """Where a value is said in a turn: question, request, subordinate or main clause."""
    found = next((s for s in sentences(text) if states(s, value)), None)
    if found is None:
        return "not written literally"
    return clause_position(found, text, _value_at(found, value))


def clause_position(sentence: str, text: str, at: int) -> str:
    s = sentence.strip()
    if s.endswith("?"):
        return "in a question"
    if REQUEST.search(s):
        return "in a request"
    if SUBORDINATOR.search(s[:at]):
        return "subordinate clause"
    asks = any(t.strip().endswith("?") or REQUEST.search(t) for t in sentences(text))
    return "main clause, turn asks elsewhere" if asks else "main clause, turn asks nothing"


def _value_words(*values: str) -> set[str]:
    out: set[str] = set()
    for v in values:
        for alt in _alts(v):
            out |= set(WORD.findall(alt.lower()))
    return out


def context_words(statement: str, drop: set[str]) -> set[str]:
    """A statement's content words without the value's and the holder's words."""
    return {w for w in tokens(statement) if w not in drop and not w.isdigit()}


def masked(statement: str, drop: set[str]) -> str:
    return " ".join(w for w in WORD.findall(statement.lower()) if w not in drop)


class Cosine:
    """Cosine of two texts with the product's embedding model (all-MiniLM-L6-v2, L2-normalized),
    loaded once; token overlap (Jaccard) when the model cannot load."""

    def __init__(self) -> None:
        self._model: Any = None
        self.kind = ""

    def _embedder(self) -> Any:
        if self._model is None:
            try:
                from provmem.infra.models.embedding import MiniLMEmbedder

                self._model, self.kind = MiniLMEmbedder(), "all-MiniLM-L6-v2"
            except Exception:  # noqa: BLE001 - token overlap keeps the feature alive
                self._model, self.kind = False, "token overlap"
        return self._model

    def __call__(self, a: str, b: str) -> float:
        model = self._embedder()
        if not model or not a.strip() or not b.strip():
            x, y = set(tokens(a)), set(tokens(b))
            return len(x & y) / len(x | y) if x | y else 0.0
        va, vb = model.embed([a, b])
        return float(sum(p * q for p, q in zip(va, vb, strict=True)))


COSINE = Cosine()


def _between_bucket(n: int) -> str:
    return "0" if n == 0 else "1-5" if n <= 5 else "6-20" if n <= 20 else ">20"


def update_features(
    u: dict[str, Any], layers: Layers, text_of: dict[int, str], session_of: dict[int, str]
) -> dict[str, Any]:
    """The finer features of a knowledge update whose two value facts exist."""
    old_t, new_t, holder = u["original_turn"], u["updated_turn"], u["holder"]
    old_v, new_v = u["original_value"], u["updated_value"]
    olds = [f for f in layers.at(old_t) if states(f.statement, old_v)]
    news = [f for f in layers.at(new_t) if states(f.statement, new_v)]
    drop = _value_words(old_v, new_v, holder) | {"user"}
    pairs = [
        (
            masked(o.statement, drop),
            masked(n.statement, drop),
            o.statement,
            n.statement,
            bool(context_words(o.statement, drop) & context_words(n.statement, drop)),
        )
        for o in olds
        for n in news
    ]
    between = {
        f.fact_id
        for t in range(min(old_t, new_t) + 1, max(old_t, new_t))
        for f in layers.at(t)
        if names_holder(f, holder)
    }
    new_text = text_of.get(new_t, "")
    return {
        "pairs": pairs,
        "features": {
            "change cue in the updating turn": bool(CHANGE_CUE.search(new_text)),
            "new value inside a question or request": position(new_text, new_v)
            in ("in a question", "in a request"),
            "same session": session_of.get(old_t) == session_of.get(new_t),
            "value kinds match": value_kind(old_v, u["attribute"])
            == value_kind(new_v, u["attribute"]),
            "both value facts have a slot": any(o.slot and n.slot for o in olds for n in news),
            "same slot (holder and attribute)": any(
                o.slot and _key(o.slot) == _key(n.slot or "") for o in olds for n in news
            ),
            "old-value fact superseded by another fact": any(
                getattr(o, "superseded_by", None) for o in olds
            ),
            "new-value fact replaced another fact": any(
                old_t not in fact_turns(p, layers.turn_of)
                for n in news
                for p in layers.earlier(n.fact_id)
            ),
            "new-value fact conflict-linked elsewhere": any(conflict_ids(n) for n in news),
            f"same-holder facts between: {_between_bucket(len(between))}": True,
        },
        "kind": value_kind(new_v, u["attribute"]),
    }


def similarity(row: dict[str, Any]) -> dict[str, Any]:
    """A no-link update's attribute class from its value-fact pairs, the best pair deciding.
    Run after every conversation is scored, so the model never shares the process with a
    live ``Memory``."""
    best, full = (-1.0, False), 0.0
    for old_masked, new_masked, old_full, new_full, shared in row["pairs"]:
        best = max(best, (COSINE(old_masked, new_masked), shared))
        full = max(full, COSINE(old_full, new_full))
    cos, shared = best
    return {
        **{k: v for k, v in row.items() if k != "pairs"},
        "attribute": UPDATE_ATTRIBUTE_CLASSES[(0 if shared else 2) + (0 if cos >= SIMILAR else 1)],
        "cosine": round(cos, 3),
        "cosine_full": round(full, 3),
    }


def old_value_features(u: dict[str, Any], layers: Layers, text: str) -> dict[str, Any]:
    """Why no fact of the original turn states the old value: what its facts state instead."""
    value = u["original_value"]
    facts = layers.at(u["original_turn"])
    where = position(text, value)
    said = next((s for s in sentences(text) if states(s, value)), text)
    drop = _value_words(value, u["holder"]) | {"user"}
    near = context_words(said, drop)
    if not facts:
        cls = OLD_VALUE_CLASSES[0]
    elif all(INTENTION.search(f.statement) for f in facts):
        cls = OLD_VALUE_CLASSES[1]
    elif any(len(context_words(f.statement, drop) & near) >= 2 for f in facts):
        cls = OLD_VALUE_CLASSES[2]
    else:
        cls = OLD_VALUE_CLASSES[3]
    return {"class": cls, "position": where, "kind": value_kind(value, u["attribute"])}


def side_features(turn: dict[str, Any], matter: str) -> dict[str, Any]:
    """A contradiction side without a fact: where the matter is said, and how."""
    text = turn["content"] or ""
    want = set(tokens(matter))
    parts = sentences(text) or [text]
    said = max(parts, key=lambda s: len(set(tokens(s)) & want))
    return {
        "position": clause_position(said, text, len(said)),
        "negated": bool(NEGATION.search(said)),
        "role": turn["role"],
        "long turn (> 60 words)": len(WORD.findall(text)) > 60,
    }


def first_result_kind(
    bundle: Any,
    turns: set[int],
    gold_turns: set[int],
    terms: Sequence[str],
    holder: str,
    role_of: dict[int, str],
) -> str:
    """What the first result of a top-1 miss at ranking is."""
    if bundle is None:
        return ANSWER_FIRST_KINDS[0]
    if bundle.fact is None:
        roles = {role_of.get(t, "") for t in turns}
        return ANSWER_FIRST_KINDS[1] if "user" in roles or not roles else ANSWER_FIRST_KINDS[2]
    fact = bundle.fact
    if turns & gold_turns:
        return ANSWER_FIRST_KINDS[3]
    if any(states(fact.statement, t) for t in terms):
        return ANSWER_FIRST_KINDS[4]
    if names_holder(fact, holder):
        return ANSWER_FIRST_KINDS[5]
    return ANSWER_FIRST_KINDS[6] if subject_of(fact) is not None else ANSWER_FIRST_KINDS[7]


def rank_bucket(rank: int | None) -> str:
    if rank is None:
        return ANSWER_RANKS[3]
    return ANSWER_RANKS[0] if rank == 1 else ANSWER_RANKS[1] if rank <= 4 else ANSWER_RANKS[2]


def _cross(
    rows: Sequence[dict[str, Any]], row_key: str, rows_of: Sequence[str], cols: Sequence[str]
) -> dict[str, dict[str, int]]:
    """Counts per row class of each boolean column feature (``features`` of a row)."""
    return {
        name: {
            "n": sum(r[row_key] == name for r in rows),
            **{
                c: sum(r[row_key] == name and bool(r["features"].get(c)) for r in rows)
                for c in cols
            },
        }
        for name in rows_of
    }


def _pivot(
    rows: Sequence[dict[str, Any]],
    row_key: str,
    rows_of: Sequence[str],
    col_key: str,
    cols: Sequence[str],
) -> dict[str, dict[str, int]]:
    """Counts per row class (``row_key``) and column class (``col_key``), with each row's n."""
    return {
        name: {
            "n": sum(r[row_key] == name for r in rows),
            **{c: sum(r[row_key] == name and r[col_key] == c for r in rows) for c in cols},
        }
        for name in rows_of
    }


def fine_report(rows: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Counts of the finer classes of four kinds of misses."""
    ups = rows.get("updates", [])
    nolink = [similarity(r["fine"]) for r in ups if r["lost"] == "link: none" and "fine" in r]
    oldv = [r["fine_old"] for r in ups if r["lost"] == "old value" and "fine_old" in r]
    sides = [s for r in rows.get("contradictions", []) for s in r.get("fine_sides", [])]
    ranks = [r["fine"] for r in rows.get("facts", []) if "fine" in r]
    cuts = (0.4, 0.6, 0.8)

    def buckets(key: str) -> dict[str, int]:
        edges = ["< 0.4", "0.4-0.6", "0.6-0.8", ">= 0.8"]
        return {
            e: sum(sum(r[key] >= c for c in cuts) == i for r in nolink) for i, e in enumerate(edges)
        }

    return {
        "similarity": COSINE.kind or "not computed",
        "no_link_updates": {
            "n": len(nolink),
            "by_attribute": _cross(nolink, "attribute", UPDATE_ATTRIBUTE_CLASSES, UPDATE_FEATURES),
            "masked_cosine": buckets("cosine"),
            "full_cosine": buckets("cosine_full"),
            "value_kind": dict(Counter(r["kind"] for r in nolink).most_common()),
        },
        "old_value_losses": {
            "n": len(oldv),
            "by_class": _pivot(oldv, "class", OLD_VALUE_CLASSES, "position", POSITIONS),
            "value_kind": dict(Counter(r["kind"] for r in oldv).most_common()),
        },
        "contradiction_sides_without_fact": {
            "n": len(sides),
            "by_position": {
                p: {
                    "n": sum(s["position"] == p for s in sides),
                    "negated": sum(s["position"] == p and s["negated"] for s in sides),
                    "long turn": sum(
                        s["position"] == p and s["long turn (> 60 words)"] for s in sides
                    ),
                }
                for p in POSITIONS[:5]
            },
            "role": dict(Counter(s["role"] for s in sides)),
        },
        "ranking_misses": {
            "n": len(ranks),
            "by_first_result": _pivot(ranks, "first", ANSWER_FIRST_KINDS, "rank", ANSWER_RANKS),
            "per_group": {
                g: sum(r["group"] == g for r in ranks) for g in sorted({r["group"] for r in ranks})
            },
            "inactive": sum(r["layer"] == "ranking: only inactive facts" for r in ranks),
        },
    }


# --- scoring one conversation ----------------------------------------------------------------


def score_conversation(
    conv: dict[str, Any], gold: dict[str, Any], tally: Tally, counts: dict[str, Any]
) -> None:
    from provmem import Memory

    cid, genre = conv["conversation_id"], conv["genre"]
    turns = [t for s in conv["sessions"] for t in s["turns"]]
    turn_at = {t["index"]: t for t in turns}
    text_of = {i: t["content"] or "" for i, t in turn_at.items()}
    role_of = {i: t["role"] for i, t in turn_at.items()}
    session_of = {t["index"]: s["session_id"] for s in conv["sessions"] for t in s["turns"]}
    bm25 = BM25([(t["index"], t["content"]) for t in turns if t["role"] == "user" and t["content"]])

    def add(metric: str, cls: str, ok: bool) -> None:
        tally.add(metric, cid, genre, cls, ok)

    with tempfile.TemporaryDirectory(prefix="provmem-blind-") as folder:
        memory = Memory(folder)
        try:
            turn_of, evidence_of, statuses = ingest(memory, conv)
            facts = list(memory.facts(user_id=conv["user_id"]))
            by_id = {f.fact_id: f for f in facts}
            active = [f for f in facts if status_of(f) == "active"]
            cache: dict[str, Any] = {}

            def search(q: str) -> Any:
                if q not in cache:
                    cache[q] = memory.search(q, user_id=conv["user_id"], limit=K)
                return cache[q]

            def detail(fact_id: str) -> Any:
                try:
                    return memory.history(fact_id)
                except LookupError:
                    return None

            layers = Layers(memory.facts(user_id=conv["user_id"], every=True), turn_of, detail)
            rows = counts.setdefault("layers", {"updates": [], "contradictions": [], "facts": []})

            c = counts.setdefault("conversations", {})[cid] = {
                "genre": genre,
                "turns": len(turns),
                "user_turns": sum(t["role"] == "user" for t in turns),
                "statuses": statuses,
                "facts": len(facts),
                "active_facts": len(active),
            }

            # knowledge updates
            for u in gold["updates"]:
                cls, old_t, new_t = u["class"], u["original_turn"], u["updated_turn"]
                old_v, new_v = u["original_value"], u["updated_value"]
                found = search(u["question"])
                top = list(found)[:K]
                ranked = [bundle_turns(b, turn_of) for b in top]
                add("update.turn_top10.provmem", cls, any(new_t in r for r in ranked))
                add("update.turn_top10.bm25", cls, new_t in bm25.rank(u["question"], K))
                new_rank = next(
                    (
                        i
                        for i, (b, r) in enumerate(zip(top, ranked, strict=True))
                        if (b.fact is not None and states(b.fact.statement, new_v))
                        or (b.fact is None and new_t in r)
                    ),
                    None,
                )
                old_rank = next(
                    (
                        i
                        for i, (b, r) in enumerate(zip(top, ranked, strict=True))
                        if (
                            b.fact is not None
                            and old_t in r
                            and states(b.fact.statement, old_v)
                            and not states(b.fact.statement, new_v)
                        )
                        or (b.fact is None and old_t in r)
                    ),
                    None,
                )
                add(
                    "update.value_above",
                    cls,
                    new_rank is not None and (old_rank is None or new_rank < old_rank),
                )
                current = [
                    f
                    for f in active
                    if new_t in fact_turns(f, turn_of) and states(f.statement, new_v)
                ]
                add("update.current_fact", cls, bool(current))
                in_history = False
                for fact in current:
                    seen: set[str] = {fact.fact_id}
                    frontier = [fact.fact_id]
                    earlier: list[Any] = []
                    while frontier and len(seen) < 50:
                        d = detail(frontier.pop())
                        if d is None:
                            continue
                        preds = [
                            *d.supersedes,
                            *(
                                h
                                for h in d.history
                                if h.fact_id != d.fact.fact_id or h.version < d.fact.version
                            ),
                        ]
                        if d.fact.supersedes:
                            p = by_id.get(d.fact.supersedes)
                            if p is not None:
                                preds.append(p)
                        for p in preds:
                            earlier.append(p)
                            if p.fact_id not in seen:
                                seen.add(p.fact_id)
                                frontier.append(p.fact_id)
                    if any(old_t in fact_turns(p, turn_of) for p in earlier):
                        in_history = True
                        break
                add("update.history", cls, in_history)
                stale = any(
                    old_t in fact_turns(f, turn_of)
                    and states(f.statement, old_v)
                    and not states(f.statement, new_v)
                    for f in active
                )
                add("update.stale", cls, stale)
                row = update_layers(u, layers)
                row.update(
                    cls=cls,
                    genre=genre,
                    current_fact=bool(current),
                    stale=stale,
                    history=in_history,
                )
                if row["lost"] == "link: none":
                    row["fine"] = update_features(u, layers, text_of, session_of)
                elif row["lost"] == "old value":
                    row["fine_old"] = old_value_features(u, layers, text_of.get(old_t, ""))
                rows["updates"].append(row)

            # contradictions
            for p in gold["contradictions"]:
                cls, a, b = p["class"], p["turn_a"], p["turn_b"]
                of_a = [f for f in facts if a in fact_turns(f, turn_of)]
                of_b = [f for f in facts if b in fact_turns(f, turn_of)]
                linked = any(
                    y.fact_id in conflict_ids(x) or x.fact_id in conflict_ids(y)
                    for x in of_a
                    for y in of_b
                    if x.fact_id != y.fact_id
                )
                add("contradiction.flagged", cls, linked)
                ranked = [bundle_turns(bb, turn_of) for bb in list(search(p["question"]))[:K]]
                cover = set().union(*ranked) if ranked else set()
                add("contradiction.both_top10.provmem", cls, a in cover and b in cover)
                order = set(bm25.rank(p["question"], K))
                add("contradiction.both_top10.bm25", cls, a in order and b in order)
                add(
                    "contradiction.both_active",
                    cls,
                    any(status_of(f) == "active" for f in of_a)
                    and any(status_of(f) == "active" for f in of_b),
                )
                row = contradiction_layers(p, layers)
                row.update(cls=cls, genre=genre, flagged=linked, both_active=tally.rows[-1][4])
                if row["lost"] == "a side has no fact":
                    row["fine_sides"] = [
                        side_features(turn_at[t], p["matter"]) for t in (a, b) if not layers.at(t)
                    ]
                rows["contradictions"].append(row)

            # conflict links: gold (contradiction or update pairs) vs false
            gold_pairs = {(p["turn_a"], p["turn_b"]) for p in gold["contradictions"]}
            gold_pairs |= {(u["original_turn"], u["updated_turn"]) for u in gold["updates"]}
            near = {(p["turn_a"], p["turn_b"]) for p in gold.get("non_conflicts", [])}
            links: set[tuple[str, str]] = set()
            for f in facts:
                for other in conflict_ids(f):
                    if status_of(f) == "active" or status_of(by_id.get(other, f)) == "active":
                        links.add(tuple(sorted((f.fact_id, other))))  # type: ignore[arg-type]

            def pair_in(x: set[int], y: set[int], pairs: set[tuple[int, int]]) -> bool:
                return any((a in x and b in y) or (b in x and a in y) for a, b in pairs)

            false_links = near_links = 0
            for fx, fy in links:
                tx = fact_turns(by_id[fx], turn_of) if fx in by_id else set()
                ty = fact_turns(by_id[fy], turn_of) if fy in by_id else set()
                if not pair_in(tx, ty, gold_pairs):
                    false_links += 1
                    near_links += pair_in(tx, ty, near)
            c.update(
                {
                    "conflict_links": len(links),
                    "false_links": false_links,
                    "non_conflict_pairs_linked": near_links,
                    "non_conflict_pairs": len(near),
                }
            )

            # well-formedness of active statements
            problems, checker = ill_formed([f.statement for f in active])
            counts["wellformed_checker"] = checker
            c["ill_formed"] = sum(bool(p) for p in problems)
            reasons = counts.setdefault("ill_formed_reasons", Counter())
            for p in problems:
                for code in {r.split(":")[0] for r in p}:
                    reasons[code] += 1

            # single-hop facts
            for f in gold["facts"]:
                cls, gold_turns = f["class"], set(f["turns"])
                top = list(search(f["question"]))[:K]
                ranked = [bundle_turns(b, turn_of) for b in top]
                hit = any(r & gold_turns for r in ranked)
                bm = bool(set(bm25.rank(f["question"], K)) & gold_turns)
                texts = [b.fact.statement if b.fact is not None else b.statement for b in top]
                top1 = has_terms(texts[0], f["answer_terms"]) if texts else False
                group = "other" if f["other_person"] else "own"
                add("fact.r10.provmem", cls, hit)
                add("fact.r10.bm25", cls, bm)
                add(f"fact.{group}.r10.provmem", cls, hit)
                add(f"fact.{group}.r10.bm25", cls, bm)
                add("fact.answer_top1", cls, top1)
                add(
                    "fact.answer_top5", cls, any(has_terms(t, f["answer_terms"]) for t in texts[:5])
                )
                if f["other_person"]:
                    first = top[0] if top else None
                    holder_first = (
                        first is not None
                        and first.fact is not None
                        and has_terms(first.fact.statement, f["answer_terms"])
                        and any(
                            states(first.fact.statement, h)
                            for h in f["holder_terms"] or [f["holder"]]
                        )
                    )
                    add("fact.other.holder_first", cls, holder_first)
                top5 = any(has_terms(t, f["answer_terms"]) for t in texts[:5])
                fact_row = {
                    "cls": cls,
                    "genre": genre,
                    "group": group,
                    "top1": top1,
                    "top5": top5,
                    "layer": None if top1 else answer_layer(f["answer_terms"], gold_turns, layers),
                }
                if fact_row["layer"] not in (None, "extraction"):
                    answering = (i for i, t in enumerate(texts) if has_terms(t, f["answer_terms"]))
                    fact_row["fine"] = {
                        "group": group,
                        "layer": fact_row["layer"],
                        "rank": rank_bucket(next(answering, None)),
                        "first": first_result_kind(
                            top[0] if top else None,
                            ranked[0] if ranked else set(),
                            gold_turns,
                            f["answer_terms"],
                            f["holder"],
                            role_of,
                        ),
                    }
                rows["facts"].append(fact_row)

            # unanswerable
            for u in gold["unanswerable"]:
                found = search(u["question"])
                path = str(getattr(found, "path", "")).upper()
                add("unanswerable.abstained", u["class"], len(found) == 0 or path != "ANSWER")
                add(
                    "unanswerable.no_fact_top1",
                    u["class"],
                    len(found) == 0 or found[0].fact is None,
                )
                counts.setdefault("unanswerable_paths", Counter())[path or "NONE"] += 1
        finally:
            memory.close()


# --- report ----------------------------------------------------------------------------------

MAIN = [
    ("update.value_above", "updated value's fact above the original's"),
    ("update.history", "original in the current fact's history"),
    ("update.current_fact", "an active fact of the updating turn states the new value"),
    ("update.turn_top10.provmem", "updating turn in top 10 (provmem)"),
    ("update.turn_top10.bm25", "updating turn in top 10 (BM25)"),
    ("update.stale", "stale: original value still active (lower is better)"),
    ("contradiction.flagged", "contradiction pair flagged as conflict"),
    ("contradiction.both_top10.provmem", "both contradiction turns in top 10 (provmem)"),
    ("contradiction.both_top10.bm25", "both contradiction turns in top 10 (BM25)"),
    ("contradiction.both_active", "both sides still active"),
    ("fact.r10.provmem", "single-hop R@10 (provmem)"),
    ("fact.r10.bm25", "single-hop R@10 (BM25)"),
    ("fact.own.r10.provmem", "own-attribute R@10 (provmem)"),
    ("fact.own.r10.bm25", "own-attribute R@10 (BM25)"),
    ("fact.other.r10.provmem", "relative/other-person R@10 (provmem)"),
    ("fact.other.r10.bm25", "relative/other-person R@10 (BM25)"),
    ("fact.other.holder_first", "relative/other-person: holder's fact ranked first"),
    ("fact.answer_top1", "answer terms in the top-1 statement"),
    ("fact.answer_top5", "answer terms in a top-5 statement"),
    ("unanswerable.abstained", "unanswerable: escalate/insufficient path or no results"),
    ("unanswerable.no_fact_top1", "unanswerable: no fact ranked first"),
]
# the metric whose misses define a class's error rate, per kind of gold item
CLASS_METRICS = [
    "update.value_above",
    "update.history",
    "update.turn_top10.provmem",
    "update.stale",
    "contradiction.flagged",
    "fact.r10.provmem",
    "fact.answer_top1",
    "fact.other.holder_first",
    "unanswerable.abstained",
]
LOWER_IS_BETTER = {"update.stale"}


def _count(rows: Sequence[dict[str, Any]], key: str, value: Any = True) -> int:
    return sum(r[key] == value for r in rows)


def _funnel(
    rows: Sequence[dict[str, Any]], names: Sequence[str], key: str = "lost"
) -> dict[str, int]:
    found = Counter(r[key] for r in rows)
    return {name: found[name] for name in names}


def _by(rows: Sequence[dict[str, Any]], field: str) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r[field], []).append(r)
    return dict(sorted(groups.items()))


def layer_report(rows: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Aggregate counts of where each update, contradiction and answer miss is lost."""
    ups, cons, facts = (
        rows.get("updates", []),
        rows.get("contradictions", []),
        rows.get("facts", []),
    )
    both = [r for r in ups if r["holder"] is not None]
    updates = {
        "n": len(ups),
        "layers": {
            k: _count(ups, k)
            for k in ("old_any", "old_value", "old_active", "new_any", "new_value", "new_active")
        },
        "holder": {
            "of": len(both),
            **{k: _count(both, "holder", k) for k in ("same", "different", "unshown")},
        },
        "link": {k: _count(ups, "link", k) for k in LINK_KINDS},
        "lost": _funnel(ups, UPDATE_LAYERS),
        "kept": {
            k: sum(r["lost"] == "kept" and r[k] for r in ups) for k in ("new_active", "old_active")
        },
        "linked_anyway": {
            k: sum(r["lost"] == k and r["link"] == "supersession" for r in ups)
            for k in UPDATE_LAYERS[:3]
        },
        "lost_per_class": {c: _funnel(g, UPDATE_LAYERS) for c, g in _by(ups, "cls").items()},
        "lost_per_genre": {c: _funnel(g, UPDATE_LAYERS) for c, g in _by(ups, "genre").items()},
        "checks": {
            "new_active != update.current_fact": sum(
                r["new_active"] != r["current_fact"] for r in ups
            ),
            "old_active != update.stale": sum(r["old_active"] != r["stale"] for r in ups),
            "update.history without supersession link": sum(
                r["history"] and r["link"] != "supersession" for r in ups
            ),
        },
    }
    contradictions = {
        "n": len(cons),
        "sides_with_fact": {k: _count(cons, "sides_with_fact", k) for k in (0, 1, 2)},
        "sides_with_active": {k: _count(cons, "sides_with_active", k) for k in (0, 1, 2)},
        "link": {k: _count(cons, "link", k) for k in LINK_KINDS},
        "lost": _funnel(cons, CONTRADICTION_LAYERS),
        "link_of_lost": {
            name: {k: sum(r["lost"] == name and r["link"] == k for r in cons) for k in LINK_KINDS}
            for name in CONTRADICTION_LAYERS
        },
        "lost_per_class": {
            c: _funnel(g, CONTRADICTION_LAYERS) for c, g in _by(cons, "cls").items()
        },
        "checks": {
            "contradiction.flagged without conflict link": sum(
                r["flagged"] and not r["conflict"] for r in cons
            ),
            "contradiction.both_active != both sides active": sum(
                r["both_active"] != (r["sides_with_active"] == 2) for r in cons
            ),
        },
    }

    def answers(group: Sequence[dict[str, Any]]) -> dict[str, Any]:
        miss1 = [r for r in group if not r["top1"]]
        miss5 = [r for r in group if not r["top5"]]
        return {
            "n": len(group),
            "top1_misses": len(miss1),
            "top5_misses": len(miss5),
            "top1": _funnel(miss1, ANSWER_LAYERS, "layer"),
            "top5": _funnel(miss5, ANSWER_LAYERS, "layer"),
        }

    return {
        "updates": updates,
        "contradictions": contradictions,
        "answers": {
            "all": answers(facts),
            "per_group": {g: answers(r) for g, r in _by(facts, "group").items()},
            "per_class": {c: answers(r) for c, r in _by(facts, "cls").items()},
        },
    }


def report(tally: Tally, counts: dict[str, Any], seconds: float) -> dict[str, Any]:
    convs = counts.get("conversations", {})
    active = sum(c["active_facts"] for c in convs.values())
    false = sum(c["false_links"] for c in convs.values())
    out: dict[str, Any] = {
        "conversations": len(convs),
        "genres": len({c["genre"] for c in convs.values()}),
        "turns": sum(c["turns"] for c in convs.values()),
        "user_turns": sum(c["user_turns"] for c in convs.values()),
        "facts": sum(c["facts"] for c in convs.values()),
        "active_facts": active,
        "seconds": round(seconds, 1),
        "metrics": {},
        "conflicts": {
            "links": sum(c["conflict_links"] for c in convs.values()),
            "false_links": false,
            "false_links_per_100_active": round(100 * false / active, 2) if active else None,
            "non_conflict_pairs_linked": sum(
                c["non_conflict_pairs_linked"] for c in convs.values()
            ),
            "non_conflict_pairs": sum(c["non_conflict_pairs"] for c in convs.values()),
        },
        "ill_formed": {
            "checker": counts.get("wellformed_checker"),
            "count": sum(c["ill_formed"] for c in convs.values()),
            "share": round(sum(c["ill_formed"] for c in convs.values()) / active, 4)
            if active
            else None,
            "reasons": dict(Counter(counts.get("ill_formed_reasons", {})).most_common()),
        },
        "unanswerable_paths": dict(counts.get("unanswerable_paths", {})),
        "add_statuses": dict(sum((Counter(c["statuses"]) for c in convs.values()), Counter())),
    }
    for name, _ in MAIN:
        share, n = tally.share(name)
        out["metrics"][name] = {"share": None if share is None else round(share, 4), "n": n}
    genres = sorted({c["genre"] for c in convs.values()})
    out["per_genre"] = {}
    for g in genres:
        row: dict[str, Any] = {}
        for name, _ in MAIN:
            share, n = tally.share(name, genre=g)
            if n:
                row[name] = {"share": round(share, 4), "n": n}  # type: ignore[arg-type]
        gc = [c for c in convs.values() if c["genre"] == g]
        ga = sum(c["active_facts"] for c in gc)
        row["false_links_per_100_active"] = (
            round(100 * sum(c["false_links"] for c in gc) / ga, 2) if ga else None
        )
        row["ill_formed_share"] = round(sum(c["ill_formed"] for c in gc) / ga, 4) if ga else None
        out["per_genre"][g] = row
    out["per_class"] = {}
    for name in CLASS_METRICS:
        classes = sorted({r[3] for r in tally.rows if r[0] == name})
        rows = {}
        for cls in classes:
            share, n = tally.share(name, cls=cls)
            bad = n * (share if name in LOWER_IS_BETTER else 1 - share)  # type: ignore[operator]
            rows[cls] = {"n": n, "misses": round(bad), "miss_rate": round(bad / n, 4)}
        out["per_class"][name] = rows
    out["per_conversation"] = {}
    for cid, c in sorted(convs.items()):
        row = {
            "genre": c["genre"],
            "turns": c["turns"],
            "active_facts": c["active_facts"],
            "false_links": c["false_links"],
            "ill_formed": c["ill_formed"],
        }
        for name in PER_CONVERSATION:
            share, n = tally.share(name, conv=cid)
            row[name] = None if share is None else round(share, 3)
        out["per_conversation"][cid] = row
    out["layers"] = layer_report(counts.get("layers", {}))
    out["finer_classes"] = fine_report(counts.get("layers", {}))
    return out


def _fmt(v: Any) -> str:
    return "-" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


def print_text(r: dict[str, Any]) -> None:
    print(
        f"blind split: {r['conversations']} conversations, {r['genres']} genres, "
        f"{r['turns']} turns ({r['user_turns']} user), {r['facts']} facts "
        f"({r['active_facts']} active), {r['seconds']} s"
    )
    print(f"add statuses: {r['add_statuses']}")
    print("\nmetric                                                          share     n")
    for name, label in MAIN:
        m = r["metrics"][name]
        print(f"  {label:<60} {_fmt(m['share']):>7} {m['n']:>5}")
    cf = r["conflicts"]
    print(
        f"\nconflict links {cf['links']}, false {cf['false_links']} "
        f"= {_fmt(cf['false_links_per_100_active'])} per 100 active facts; "
        f"gold non-conflict pairs linked {cf['non_conflict_pairs_linked']} "
        f"of {cf['non_conflict_pairs']}"
    )
    il = r["ill_formed"]
    print(f"ill-formed active statements ({il['checker']}): {il['count']} = {_fmt(il['share'])}")
    print(f"  by reason: {il['reasons']}")
    print(f"unanswerable router paths: {r['unanswerable_paths']}")
    short = [*PER_CONVERSATION[:-1], "fact.other.holder_first", PER_CONVERSATION[-1]]
    print("\nper genre: " + " | ".join(short) + " | false/100 | ill-formed")
    for g, row in r["per_genre"].items():
        cells = [_fmt(row.get(n, {}).get("share")) for n in short]
        print(
            f"  {g:<12} "
            + " ".join(f"{c:>6}" for c in cells)
            + f" {_fmt(row['false_links_per_100_active']):>7} {_fmt(row['ill_formed_share']):>6}"
        )
    print("\nmiss rates per gold class (metric: class n misses rate)")
    for name, rows in r["per_class"].items():
        print(f"  {name}")
        for cls, v in sorted(rows.items(), key=lambda kv: -kv[1]["miss_rate"]):
            print(f"    {cls:<28} {v['n']:>4} {v['misses']:>4} {v['miss_rate']:.3f}")
    print(
        "\nper conversation: genre turns active false ill | value_above history stale flagged "
        "R@10 bm25 abstain"
    )
    for cid, row in r["per_conversation"].items():
        print(
            f"  {cid} {row['genre']:<12} {row['turns']:>4} {row['active_facts']:>4} "
            f"{row['false_links']:>3} {row['ill_formed']:>3} | "
            + " ".join(f"{_fmt(row[n]):>5}" for n in PER_CONVERSATION)
        )
    print_layers(r["layers"])
    print_fine(r["finer_classes"])


def _of(k: int, n: int) -> str:
    return f"{k:>4} of {n:<4} {k / n if n else 0:.3f}"


def print_layers(r: dict[str, Any]) -> None:
    u, c, a = r["updates"], r["contradictions"], r["answers"]["all"]
    n, ly = u["n"], u["layers"]
    print("\nwhere misses are lost (counts; 'any status': active, superseded, deleted or review)")
    print(f"  knowledge updates ({n}): count of n, share")
    for key, label in (
        ("old_any", "(a) the original turn has a fact (any status)"),
        ("old_value", "(b) a fact of it states the old value (any status)"),
        ("old_active", "(c) an active one states it, not the new (= update.stale)"),
        ("new_any", "(d) the updating turn has a fact (any status)"),
        ("new_value", "(e) a fact of it states the new value (any status)"),
        ("new_active", "(e) an active one does (= update.current_fact)"),
    ):
        print(f"    {label:<62} {_of(ly[key], n)}")
    h, lk = u["holder"], u["link"]
    print(
        f"    (f) holders of the old- and new-value facts ({h['of']} updates with both): "
        f"same {h['same']}, different {h['different']}, not shown {h['unshown']}"
    )
    print(
        f"    (g) link between the two turns' facts: supersession {lk['supersession']}, "
        f"conflict only {lk['conflict']}, none {lk['none']}"
    )
    print(
        "    first layer that loses it (kept: a supersession link; of those, new value active "
        f"{u['kept']['new_active']}, old value still active {u['kept']['old_active']})"
    )
    _layer_table(u["lost"], u["lost_per_class"], UPDATE_COLUMNS, "update class")
    print(f"    lost at an earlier layer though a supersession link exists: {u['linked_anyway']}")
    print(f"    checks (0 expected): {u['checks']}")
    sf, sa, lk = c["sides_with_fact"], c["sides_with_active"], c["link"]
    print(f"  contradiction pairs ({c['n']})")
    print(f"    sides with a fact (any status): both {sf[2]}, one {sf[1]}, none {sf[0]}")
    print(f"    sides with an active fact:      both {sa[2]}, one {sa[1]}, none {sa[0]}")
    print(
        f"    link between the two turns' facts: supersession {lk['supersession']}, "
        f"conflict only {lk['conflict']}, none {lk['none']}"
    )
    print("    first layer that loses it (flagged: a conflict link, both sides active)")
    _layer_table(c["lost"], c["lost_per_class"], CONTRADICTION_COLUMNS, "contradiction class")
    held = {k: v for k, v in c["link_of_lost"].items() if any(v.values())}
    print(f"    link kind per layer: {held}")
    print(f"    checks (0 expected): {c['checks']}")
    print(f"  single-hop answers ({a['n']}): misses of the top-1 / top-5 statements, by layer")
    print(f"    {'':<31} {'n':>4} {'misses':>7} " + " ".join(f"{h:>10}" for h in ANSWER_COLUMNS))
    rows = [("all", a), *r["answers"]["per_group"].items()]
    rows += [(f"class {k}", v) for k, v in r["answers"]["per_class"].items()]
    for top in ("top1", "top5"):
        for name, g in rows if top == "top1" else rows[:3]:
            print(
                f"    {top} {name:<26} {g['n']:>4} {g[f'{top}_misses']:>7} "
                + " ".join(f"{g[top][k]:>10}" for k in ANSWER_LAYERS)
            )


def _layer_table(
    lost: dict[str, int], per_class: dict[str, dict[str, int]], columns: Sequence[str], what: str
) -> None:
    print(f"      {what:<28} {'n':>4} " + " ".join(f"{h:>9}" for h in columns))
    rows = [("all", lost), *sorted(per_class.items(), key=lambda kv: -sum(kv[1].values()))]
    for name, counts in rows:
        print(
            f"      {name:<28} {sum(counts.values()):>4} "
            + " ".join(f"{v:>9}" for v in counts.values())
        )


def _grid(title: str, table: dict[str, dict[str, int]], heads: Sequence[str]) -> None:
    """One cross table of counts: a row per class, its n, then a column per feature."""
    print(f"    {title}")
    for i, h in enumerate(heads):
        print(f"      [{i + 1}] {h}")
    print(
        f"      {'class':<50} {'n':>4} " + " ".join(f"{f'[{i + 1}]':>5}" for i in range(len(heads)))
    )
    for name, row in table.items():
        print(f"      {name:<50} {row['n']:>4} " + " ".join(f"{row[h]:>5}" for h in heads))


def print_fine(r: dict[str, Any]) -> None:
    """The finer classes of the misses (counts; bench/blind/README.md describes them)."""
    nl, ov = r["no_link_updates"], r["old_value_losses"]
    cs, rk = r["contradiction_sides_without_fact"], r["ranking_misses"]
    print(f"\nfiner classes of the misses (counts only; similarity: {r['similarity']})")
    print(f"  (1) updates lost at 'no link' ({nl['n']}), by how alike the two value facts read")
    _grid("rows: the attribute evidence; columns: features", nl["by_attribute"], UPDATE_FEATURES)
    print(f"    masked-statement cosine: {nl['masked_cosine']}")
    print(f"    full-statement cosine:   {nl['full_cosine']}")
    print(f"    value kind: {nl['value_kind']}")
    print(f"  (2) updates lost at 'old value' ({ov['n']}), by what the original turn's facts state")
    _grid("rows: what the facts state; columns: where the value is said", ov["by_class"], POSITIONS)
    print(f"    value kind: {ov['value_kind']}")
    print(f"  (3) contradiction sides without a fact ({cs['n']}), by where the matter is said")
    _grid("rows: the sentence nearest the matter", cs["by_position"], ("negated", "long turn"))
    print(f"    role of the turn: {cs['role']}")
    print(f"  (4) top-1 answer misses at ranking ({rk['n']}), by the first result")
    _grid(
        "rows: the first result; columns: rank of the first answering statement",
        rk["by_first_result"],
        ANSWER_RANKS,
    )
    print(f"    per group: {rk['per_group']}; only inactive facts answer: {rk['inactive']}")


def load(only: str | None) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    pairs = []
    for path in sorted((HERE / "conversations").glob("*.json")):
        conv = json.loads(path.read_text(encoding="utf-8"))
        if only and only not in (conv["conversation_id"], conv["genre"]):
            continue
        gold = json.loads((HERE / "gold" / path.name).read_text(encoding="utf-8"))
        pairs.append((conv, gold))
    if not pairs:
        raise SystemExit(f"no conversation matches {only!r}")
    return pairs


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", action="store_true", help="print the aggregates as JSON")
    parser.add_argument("--only", help="one conversation id or genre")
    args = parser.parse_args(list(argv) if argv is not None else None)
    pairs = load(args.only)
    tally, counts = Tally(), {}
    started = time.perf_counter()
    for i, (conv, gold) in enumerate(pairs, 1):
        t0 = time.perf_counter()
        score_conversation(conv, gold, tally, counts)
        print(
            f"[{i}/{len(pairs)}] {conv['conversation_id']} ({conv['genre']}) "
            f"{time.perf_counter() - t0:.1f} s",
            file=sys.stderr,
            flush=True,
        )
    result = report(tally, counts, time.perf_counter() - started)
    if args.json:
        print(json.dumps(result, indent=1, sort_keys=False, default=str))
    else:
        print_text(result)


if __name__ == "__main__":
    main()
