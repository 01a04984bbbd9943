"""bench/techbench: provmem on technical-project chats (bench/data, made by bench/techgen).

    python -m bench.techbench [--data bench/data] [--json]

Ingests every conversation through the real embedded pipeline, then reports:

- claims from code or markup: active facts whose support span overlaps a gold fenced
  block, table row or command line, or lies mostly (>= half) inside inline code (target 0);
- claims per user turn (active facts citing a user turn) and per assistant turn (active
  facts citing only the assistant's turns);
- knowledge updates: the updating turn in the top 10 for the question (provmem vs raw BM25
  over the same turns); the updating turn ranked above the original one (both); the updated
  value's fact ranked above the original value's; the original fact in the current fact's
  history (`Memory.fact`: earlier versions and superseded predecessors); the original value
  still active (a lost update);
- contradictions: both turns in the top 10 (provmem vs BM25); the conflict flagged (a fact
  of one turn lists a fact of the other in `conflicts_with`; 0 while no such field exists);
  both facts still active;
- the share of active statements that fail bench/wellformed;
- ingest throughput (publish + derive, turns/s) against the raw embedding throughput of
  the same turn texts (MiniLM alone, batches of 64), measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.common import (
    active,
    covered,
    embedded_memory,
    first_rank,
    mean,
    publish_turns,
    ranked_turns,
    raw_embedding_rate,
)
from bench.techgen import ASSISTANT, BLOCK_KINDS, DATA, load
from bench.techlinks import links_report
from bench.techreport import print_misses, table
from bench.wellformed import problems_many, share_ill_formed
from provmem.core.events import Fact, FactStatus
from provmem.services.memory.logs import configure_logging
from provmem.services.memory.memory import MemoryService
from provmem.services.memory.results import BundleView
from provmem.services.tools.evaluation_data import RawBM25

K = 10
MISSES_OF = ("provmem", "history", "flagged")  # metrics whose misses are listed
MONTHS = "January February March April May June July August September October November December"


@dataclass
class Corpus:
    """The conversations, their turns, and how evidence ids map to them after ingest."""

    conversations: list[dict[str, Any]]
    turn_of: dict[str, str] = field(default_factory=dict)  # evidence id -> turn id
    facts: dict[str, list[Fact]] = field(default_factory=dict)  # scope -> all facts

    @property
    def turns(self) -> list[dict[str, Any]]:
        return [t for c in self.conversations for t in c["turns"]]

    def evidence_of(self) -> dict[str, str]:
        return {turn: evidence for evidence, turn in self.turn_of.items()}


# --- claims from code or markup ----------------------------------------------------------


def span_from_code(start: int, end: int, ranges: Sequence[Sequence[Any]]) -> bool:
    """A support span overlaps a code block, table or command line, or is mostly inline code."""
    inline = 0
    for s, e, kind in ranges:
        overlap = max(0, min(end, e) - max(start, s))
        if kind in BLOCK_KINDS and overlap > 0:
            return True
        if kind == "inline":
            inline += overlap
    return end > start and inline * 2 >= end - start


def fact_from_code(fact: Fact, turn_of: Mapping[str, str], markup: Mapping[str, Any]) -> bool:
    return any(
        span_from_code(span.start, span.end, markup.get(turn_of.get(span.evidence_id, ""), []))
        for span in fact.support
    )


# --- values in statements ----------------------------------------------------------------


def value_forms(value: str) -> set[str]:
    """Normalized spellings of a gold value: "1,200" ~ "1200", "250ms" ~ "250 ms", dates."""
    base = _squash(value)
    forms = {base, base.replace("%", "percent")}
    month_day = re.fullmatch(r"([A-Za-z]+) (\d+)", value)
    if month_day and month_day.group(1) in MONTHS.split():
        forms.add(_squash(f"{month_day.group(2)} {month_day.group(1)}"))
    return forms


def _squash(text: str) -> str:
    return re.sub(r"[\s,]", "", text.lower())


def states(statement: str, value: str) -> bool:
    text = _squash(statement)
    return any(_bounded(form, text) for form in value_forms(value))


def _bounded(form: str, text: str) -> bool:
    """`form` occurs in `text` not as part of a longer number ("25" is not in "250")."""
    after = r"(?![0-9]|\.[0-9])" if form[-1:].isdigit() else ""  # "27august" in "27august2026"
    return re.search(rf"(?<![0-9.]){re.escape(form)}{after}", text) is not None


# --- knowledge updates ---------------------------------------------------------------------


@dataclass
class Tally:
    counts: dict[str, list[bool]] = field(default_factory=dict)
    misses: dict[str, list[str]] = field(default_factory=dict)
    item: str = ""  # the gold item being scored, named in its misses

    def add(self, name: str, ok: bool) -> None:
        self.counts.setdefault(name, []).append(ok)
        if not ok and name.endswith(MISSES_OF):
            self.misses.setdefault(name, []).append(self.item)

    def share(self, name: str) -> float:
        return mean([float(v) for v in self.counts.get(name, [])])

    def n(self, name: str) -> int:
        return len(self.counts.get(name, []))


def above(new: int | None, old: int | None) -> bool:
    return new is not None and (old is None or new < old)


def bundle_value_rank(bundles: Sequence[BundleView], value: str, other: str | None) -> int | None:
    """First bundle whose fact states `value` (and, if given, not `other`)."""
    for i, bundle in enumerate(bundles[:K]):
        statement = bundle.fact.statement if bundle.fact is not None else ""
        if states(statement, value) and not (other and states(statement, other)):
            return i
    return None


def raw_value_rank(
    ranked: Sequence[Sequence[str]], bundles: Sequence[BundleView], turn: str
) -> int | None:
    """First raw-turn bundle (no fact) of `turn`: a raw turn states its own value."""
    for i, (bundle, item) in enumerate(zip(bundles[:K], ranked[:K], strict=False)):
        if bundle.fact is None and turn in item:
            return i
    return None


def _min(*ranks: int | None) -> int | None:
    present = [r for r in ranks if r is not None]
    return min(present) if present else None


async def score_update(
    memory: MemoryService, corpus: Corpus, conv: dict[str, Any], update: dict[str, Any],
    bm25: Callable[[str, int], list[str]], now: datetime, tally: Tally,
) -> None:  # fmt: skip
    old, new = update["original"], update["updated"]
    tally.item = f"{conv['conversation_id']} {update['key']} ({update['style']}): "
    tally.item += f"{old['text']!r} -> {new['text']!r}"
    result = await memory.query(conv["scope"], update["question"], limit=K, now=now)
    ranked = ranked_turns(result, corpus.turn_of)
    tally.add("update.top10.provmem", new["turn_id"] in covered(ranked, K))
    order = bm25(update["question"], K)
    tally.add("update.top10.bm25", new["turn_id"] in order)
    tally.add(
        "update.turn_above.provmem",
        above(first_rank(ranked, new["turn_id"]), first_rank(ranked, old["turn_id"])),
    )
    tally.add(
        "update.turn_above.bm25",
        above(_index(order, new["turn_id"]), _index(order, old["turn_id"])),
    )
    bundles = result.bundles
    new_rank = _min(
        bundle_value_rank(bundles, new["value"], None),
        raw_value_rank(ranked, bundles, new["turn_id"]),
    )
    old_rank = _min(
        bundle_value_rank(bundles, old["value"], new["value"]),
        raw_value_rank(ranked, bundles, old["turn_id"]),
    )
    tally.add("update.value_above.provmem", above(new_rank, old_rank))
    await score_history(memory, corpus, conv, update, tally)


def _index(order: Sequence[str], turn: str) -> int | None:
    return order.index(turn) if turn in order else None


async def score_history(
    memory: MemoryService,
    corpus: Corpus,
    conv: dict[str, Any],
    update: dict[str, Any],
    tally: Tally,
) -> None:
    evidence = corpus.evidence_of()
    old, new = update["original"], update["updated"]
    old_id, new_id = evidence[old["turn_id"]], evidence[new["turn_id"]]
    facts = corpus.facts[conv["scope"]]
    current = [
        f for f in active(facts) if new_id in f.evidence_ids and states(f.statement, new["value"])
    ]
    found = False
    for fact in current:
        detail = await memory.fact(fact.fact_id)
        if detail is None:
            continue
        earlier = [*detail.supersedes, *(h for h in detail.history if h.version < fact.version)]
        found = found or any(old_id in f.evidence_ids for f in earlier)
    tally.add("update.current_fact", bool(current))
    tally.add("update.history", found)
    stale = [
        f for f in active(facts)
        if old_id in f.evidence_ids and states(f.statement, old["value"])
        and not states(f.statement, new["value"])
    ]  # fmt: skip
    tally.add("update.stale_active", bool(stale))
    if stale:
        tally.misses.setdefault("update.stale_active", []).append(tally.item)


# --- contradictions ------------------------------------------------------------------------


def conflicts_of(fact: Fact) -> set[str]:
    """Fact ids a fact says it conflicts with (FactChanged v2's `conflicts_with`), if any."""
    raw = getattr(fact, "conflicts_with", None) or ()
    ids: set[str] = set()
    for item in raw if isinstance(raw, (list, tuple, set)) else (raw,):
        if isinstance(item, str):
            ids.add(item)
        elif isinstance(item, Mapping) and "fact_id" in item:
            ids.add(str(item["fact_id"]))
        elif hasattr(item, "fact_id"):
            ids.add(str(item.fact_id))
    return ids


async def score_contradiction(
    memory: MemoryService, corpus: Corpus, conv: dict[str, Any], pair: dict[str, Any],
    bm25: Callable[[str, int], list[str]], now: datetime, tally: Tally,
) -> None:  # fmt: skip
    first, second = pair["first"]["turn_id"], pair["second"]["turn_id"]
    tally.item = f"{conv['conversation_id']} {pair['key']} ({pair['kind']}): "
    tally.item += f"{pair['first']['text']!r} / {pair['second']['text']!r}"
    result = await memory.query(conv["scope"], pair["question"], limit=K, now=now)
    top = covered(ranked_turns(result, corpus.turn_of), K)
    tally.add("contradiction.both_top10.provmem", first in top and second in top)
    order = set(bm25(pair["question"], K))
    tally.add("contradiction.both_top10.bm25", first in order and second in order)
    evidence = corpus.evidence_of()
    facts = corpus.facts[conv["scope"]]
    of_first = [f for f in facts if evidence[first] in f.evidence_ids]
    of_second = [f for f in facts if evidence[second] in f.evidence_ids]
    linked = any(
        b.fact_id in conflicts_of(a) or a.fact_id in conflicts_of(b)
        for a in of_first
        for b in of_second
        if a.fact_id != b.fact_id
    )
    tally.add("contradiction.flagged", linked)
    both_active = any(f.status == FactStatus.ACTIVE for f in of_first) and any(
        f.status == FactStatus.ACTIVE for f in of_second
    )
    tally.add("contradiction.both_active", both_active)


# --- the run -------------------------------------------------------------------------------


async def run(data: Path, folder: Path, facts_out: Path | None = None) -> dict[str, Any]:
    corpus = Corpus(load(data))
    turns = corpus.turns
    texts = [t["text"] for t in turns]
    async with embedded_memory(folder) as memory:
        embed_rate = raw_embedding_rate(texts)
        started = time.perf_counter()
        corpus.turn_of = await publish_turns(memory, turns)
        ingest_s = time.perf_counter() - started
        for conv in corpus.conversations:
            corpus.facts[conv["scope"]] = await memory.facts(conv["scope"])
        tally = Tally()
        for conv in corpus.conversations:
            await score_conversation(memory, corpus, conv, tally)
    report = claims_report(corpus)
    if facts_out is not None:
        write_facts(corpus, facts_out)
    report.update({name: {"share": tally.share(name), "n": tally.n(name)} for name in tally.counts})
    report["misses"] = tally.misses
    report["links"] = links_report(corpus.conversations, corpus.facts, corpus.turn_of)
    report["throughput"] = {
        "turns": len(turns),
        "ingest_s": ingest_s,
        "ingest_turns_per_s": len(turns) / ingest_s,
        "raw_embedding_texts_per_s": embed_rate,
        "ratio": len(turns) / ingest_s / embed_rate,
    }
    return report


async def score_conversation(
    memory: MemoryService, corpus: Corpus, conv: dict[str, Any], tally: Tally
) -> None:
    turns = conv["turns"]
    index = RawBM25([t["text"] for t in turns])

    def bm25(query: str, k: int) -> list[str]:
        return [turns[i]["turn_id"] for i in index.rank(query, k)]

    now = datetime.fromisoformat(turns[-1]["captured_at"])
    for update in conv["updates"]:
        await score_update(memory, corpus, conv, update, bm25, now, tally)
    for pair in conv["contradictions"]:
        await score_contradiction(memory, corpus, conv, pair, bm25, now, tally)


def claims_report(corpus: Corpus) -> dict[str, Any]:
    speaker = {t["turn_id"]: t["speaker"] for t in corpus.turns}
    markup = {k: v for c in corpus.conversations for k, v in c["markup"].items()}
    facts = [f for scope in corpus.facts.values() for f in active(scope)]
    from_code = [f for f in facts if fact_from_code(f, corpus.turn_of, markup)]

    def cites(f: Fact, assistant: bool) -> bool:
        return any(
            (speaker.get(corpus.turn_of.get(e, "")) == ASSISTANT) == assistant
            for e in f.evidence_ids
        )

    user_turns = sum(t["speaker"] != ASSISTANT for t in corpus.turns)
    share, bad = share_ill_formed([f.statement for f in facts])
    reasons = Counter(r.split(":")[0] for _, found in bad for r in found)
    return {
        "active_facts": len(facts),
        "claims_from_code": {"count": len(from_code), "share": len(from_code) / max(1, len(facts)),
                             "examples": [f.statement for f in from_code[:5]]},
        "facts_without_support_span": sum(not f.support for f in facts),
        "claims_per_user_turn": sum(cites(f, False) for f in facts) / max(1, user_turns),
        "claims_per_assistant_turn": sum(not cites(f, False) for f in facts)
        / max(1, len(corpus.turns) - user_turns),
        "ill_formed": {"share": share, "count": len(bad), "reasons": dict(reasons.most_common()),
                       "examples": [f"{t} <- {'; '.join(p)}" for t, p in bad[:8]]},
    }  # fmt: skip


def write_facts(corpus: Corpus, path: Path) -> None:
    """Every active fact as a JSON line: statement, source turns, from code, problems."""
    markup = {k: v for c in corpus.conversations for k, v in c["markup"].items()}
    facts = [f for scope in corpus.facts.values() for f in active(scope)]
    found = problems_many([f.statement for f in facts])
    with path.open("w", encoding="utf-8") as handle:
        for fact, problems in zip(facts, found, strict=True):
            row = {
                "fact_id": fact.fact_id,
                "statement": fact.statement,
                "turns": [corpus.turn_of.get(e, "") for e in fact.evidence_ids],
                "from_code": fact_from_code(fact, corpus.turn_of, markup),
                "problems": problems,
            }
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--facts-out", type=Path, help="write every active fact here (JSONL)")
    parser.add_argument("--misses", action="store_true", help="list the missed items and links")
    args = parser.parse_args()
    configure_logging()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-tech-") as folder:
        report = asyncio.run(run(args.data, Path(folder), args.facts_out))
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(table(report))
    for example in report["claims_from_code"]["examples"]:
        print(f"from code: {example}")
    print(f"ill-formed by reason: {report['ill_formed']['reasons']}")
    for example in report["ill_formed"]["examples"]:
        print(f"ill-formed: {example}")
    if args.misses:
        print_misses(report)


if __name__ == "__main__":
    main()
