"""bench/chatbench: provmem on short ordinary personal chats (bench/data, made by bench/chatgen).

    python -m bench.chatbench [--data bench/data] [--chats N] [--json] [--facts-out FILE]

Ingests every chat through the real embedded pipeline (one scope each), asks every gold
question with `Memory.query(limit=10)` at the time of the chat's last turn, ranks the same
chat's raw turns with BM25 for the same question, and reports:

- R@1, R@5, R@10 of the answering turn: a top-k bundle's provenance cites a gold evidence
  turn (provmem) / a gold evidence turn is among BM25's top k (baseline);
- current above superseded: for a changed value, the current turn's first citing bundle
  comes before the superseded turn's (ties fail; both systems), and the first bundle whose
  fact states the current value comes before the first that states the old one (provmem);
- superseded value still current: an active fact of the superseded turn states the old
  value with no end (`valid_to`) and no negation (the old employer beside the new one);
- non-assertion became a fact: a fact's support span covers (half of either) a gold
  greeting, thanks, question, request, or an assistant welcome, congratulation, question
  or acknowledgement;
- assistant's words presented as the user's fact: a fact citing only assistant turns that
  is not labelled the assistant's (`asserted_by`) or does not name the assistant;
- statements failing bench/wellformed (active facts);
- dates: each date said in a user sentence, looked up in the facts of that sentence (their
  `time_expressions` and the years their statements write): kept; a year invented where
  none was said or implied (a birthday "on 3 March", also "I was born on 3 March"); a
  wrong year where the time of a one-off event implies one ("in October" said in April of
  a coming trip is this October, of a past one last October; "Our flight is on 19
  November" is a coming one); a year dropped where one is implied.

The run takes about a minute (621 turns, 364 questions) on 2 shared cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bench.chatgen import ASSISTANT, DATA, load
from bench.common import covered, embedded_memory, first_rank, publish_turns, ranked_turns
from bench.techbench import Tally, above, bundle_value_rank, raw_value_rank, states
from bench.wellformed import problems_many, share_ill_formed
from provmem.core.events import Fact, FactStatus
from provmem.core.language.lexicon import MONTHS
from provmem.services.memory.logs import configure_logging
from provmem.services.memory.memory import MemoryService
from provmem.services.tools.evaluation_data import RawBM25

K = 10

# --- recall and order ------------------------------------------------------------------------


def recalled(ranked: Sequence[Sequence[str]], evidence: Iterable[str], k: int) -> bool:
    """A gold evidence turn is cited by one of the top k items."""
    return bool(covered(ranked, k) & set(evidence))


def current_above(
    ranked: Sequence[Sequence[str]], evidence: Sequence[str], superseded: Sequence[str]
) -> bool:
    """The current value's turn comes first: before any superseded turn (ties fail)."""
    now = [r for r in (first_rank(ranked, t) for t in evidence) if r is not None]
    old = [r for r in (first_rank(ranked, t) for t in superseded) if r is not None]
    return above(min(now, default=None), min(old, default=None))


def says(statement: str, value: str) -> bool:
    """A word value as whole words; else `states`, for either order of a day and month
    ("3 March" ~ "March 3")."""
    if not any(c.isdigit() for c in value):
        return re.search(rf"(?i)\b{re.escape(value)}\b", statement) is not None
    swapped = re.sub(r"^(\d{1,2}) ([A-Za-z]+)", r"\2 \1", value)
    return states(statement, value) or states(statement, swapped)


def stale(facts: Iterable[Any], superseded_ids: set[str], old: str, new: str) -> list[Any]:
    """Active facts of a superseded turn that still state the old value as current."""
    return [
        f for f in facts
        if f.status == FactStatus.ACTIVE and superseded_ids & set(f.evidence_ids)
        and says(f.statement, old) and not says(f.statement, new)
        and f.valid_to is None and not f.negated
    ]  # fmt: skip


# --- what must not become a fact, and who said it -------------------------------------------


def covers(fact: Any, evidence_id: str, start: int, end: int) -> bool:
    """A support span of `fact` in `evidence_id` overlaps [start, end) by half of either."""
    for span in fact.support:
        if span.evidence_id != evidence_id:
            continue
        overlap = min(end, span.end) - max(start, span.start)
        if overlap > 0 and 2 * overlap >= min(end - start, span.end - span.start):
            return True
    return False


def facts_from_span(facts: Iterable[Any], evidence_id: str, start: int, end: int) -> list[Any]:
    return [f for f in facts if covers(f, evidence_id, start, end)]


def assistant_as_user(facts: Iterable[Any], assistant_ids: set[str]) -> list[Any]:
    """Facts citing only assistant turns that read as the user's, not the assistant's."""
    return [
        f for f in facts
        if set(f.evidence_ids) <= assistant_ids
        and (f.asserted_by != ASSISTANT or ASSISTANT not in f.statement.lower())
    ]  # fmt: skip


# --- dates -----------------------------------------------------------------------------------


def same_date(said: str, gold: str) -> bool:
    """The same month (and day, if both say one), whatever the order and preposition."""
    (month, day), (gold_month, gold_day) = _month_day(said), _month_day(gold)
    return (
        month is not None and month == gold_month and (day == gold_day or None in (day, gold_day))
    )


def _month_day(text: str) -> tuple[int | None, int | None]:
    words = re.findall(r"[a-z]+|\d+", text.lower())
    month = next((MONTHS.index(w) + 1 for w in words if w in MONTHS), None)
    day = next((int(w) for w in words if w.isdigit() and int(w) <= 31), None)
    return month, day


def date_outcome(gold: Mapping[str, Any], facts: Sequence[Any]) -> str:
    """ok, missing, invented (a year where none was said or implied), wrong or dropped.

    A fact's resolved value of the same date counts; so does a year its statement writes
    right after the date ("in October 2026")."""
    month = MONTHS[(_month_day(gold["said"])[0] or 1) - 1].capitalize()  # "May", not "may"
    named = re.compile(rf"\b{month}\b")
    written = re.compile(rf"\b{month}\b(?: \d{{1,2}}(?:st|nd|rd|th)?)?,? ((?:19|20)\d\d)\b")
    years: set[int] = set()
    kept = False
    for fact in facts:
        for said, value in fact.time_expressions:
            if same_date(said, gold["said"]):
                kept = True
                years |= {int(value[:4])} if value[:4].isdigit() else set()
        if named.search(fact.statement):
            kept = True
            years |= {int(y) for y in written.findall(fact.statement)}
    if not kept:
        return "missing"
    if gold["year"] is None:
        return "invented" if years else "ok"
    if years - {gold["year"]}:
        return "wrong"
    return "ok" if years else "dropped"


# --- the run ---------------------------------------------------------------------------------


class Chat:
    """One chat's turns and gold, with the facts the memory made of it."""

    def __init__(self, gold: dict[str, Any], evidence: dict[str, str], facts: list[Fact]):
        self.gold = gold
        self.evidence = evidence  # turn id -> evidence id
        self.facts = [f for f in facts if f.status != FactStatus.DELETED]
        turns = gold["turns"]
        self.assistant = {evidence[t["turn_id"]] for t in turns if t["speaker"] == ASSISTANT}
        self.now = datetime.fromisoformat(turns[-1]["captured_at"]) + timedelta(minutes=1)
        index = RawBM25([t["text"] for t in turns])
        self.bm25: Callable[[str], list[list[str]]] = lambda q: [
            [turns[i]["turn_id"]] for i in index.rank(q, K)
        ]

    def of_sentence(self, turn_id: str, start: int, end: int) -> list[Fact]:
        return facts_from_span(self.facts, self.evidence[turn_id], start, end)


async def score_question(
    memory: MemoryService,
    chat: Chat,
    q: dict[str, Any],
    turn_of: dict[str, str],
    tally: Tally,
    examples: dict[str, list[str]],
) -> None:
    result = await memory.query(chat.gold["scope"], q["question"], limit=K, now=chat.now)
    systems = {"provmem": ranked_turns(result, turn_of), "bm25": chat.bm25(q["question"])}
    for name, ranked in systems.items():
        for k in (1, 5, 10):
            hit = recalled(ranked, q["evidence"], k)
            tally.add(f"recall.{k}.{name}", hit)
            tally.add(f"topic.{q['topic']}.{k}.{name}", hit)
        if q["superseded"]:
            tally.add(f"order.turn.{name}", current_above(ranked, q["evidence"], q["superseded"]))
    if not recalled(systems["provmem"], q["evidence"], 5):
        top = [b.fact.statement if b.fact else "(raw turn)" for b in result.bundles[:1]]
        examples["recall_miss"].append(f"{q['question']} -> top 1: {top}")
    if not q["superseded"]:
        return
    new, old = q["answer"], q["superseded_answer"]
    tally.add("order.value.provmem", value_above(result.bundles, systems["provmem"], q))
    old_ids = {chat.evidence[t] for t in q["superseded"]}
    found = stale(chat.facts, old_ids, old, new)
    tally.add("stale.provmem", bool(found))
    examples["stale"] += [f"{f.statement!r} beside the current {new!r}" for f in found]


def value_above(
    bundles: Sequence[Any], ranked: Sequence[Sequence[str]], q: Mapping[str, Any]
) -> bool:
    """The first item stating the current value (a fact, or its raw turn) comes before the
    first stating the old one without the current."""
    new, old = q["answer"], q["superseded_answer"]
    new_rank = _first(
        bundle_value_rank(bundles, new, old),
        *(raw_value_rank(ranked, bundles, t) for t in q["evidence"]),
    )
    old_rank = _first(
        bundle_value_rank(bundles, old, new),
        *(raw_value_rank(ranked, bundles, t) for t in q["superseded"]),
    )
    return above(new_rank, old_rank)


def _first(*ranks: int | None) -> int | None:
    return min((r for r in ranks if r is not None), default=None)


def score_statements(chat: Chat, tally: Tally, examples: dict[str, list[str]]) -> None:
    for span in chat.gold["not_facts"]:
        made = chat.of_sentence(span["turn_id"], span["start"], span["end"])
        tally.add("not_fact.provmem", bool(made))
        tally.add(f"not_fact.{span['kind']}.provmem", bool(made))
        examples["not_fact"] += [f"{span['text']!r} -> {f.statement!r}" for f in made]
    turns = [t for t in chat.gold["turns"] if t["speaker"] == ASSISTANT]
    taken = assistant_as_user(chat.facts, chat.assistant)
    examples["assistant"] += [f.statement for f in taken]
    cited = {e for f in taken for e in f.evidence_ids}
    for turn in turns:
        tally.add("assistant.provmem", chat.evidence[turn["turn_id"]] in cited)
    for gold in chat.gold["dates"]:
        outcome = date_outcome(gold, chat.of_sentence(gold["turn_id"], gold["start"], gold["end"]))
        tally.add("date.kept.provmem", outcome != "missing")
        if outcome != "missing":
            expected = "none" if gold["year"] is None else "year"
            for error in ("invented", "wrong", "dropped"):
                if (error == "invented") == (expected == "none"):
                    tally.add(f"date.{error}.provmem", outcome == error)
            if outcome != "ok":
                said = f"{gold['said']!r} ({gold['tense']}, {gold['captured_at'][:10]})"
                examples["date"].append(f"{said}, want {gold['expected']}: {outcome}")


async def run(
    data: Path, folder: Path, count: int | None, facts_out: Path | None
) -> dict[str, Any]:
    chats = load(data)[:count]
    turns = [t for c in chats for t in c["turns"]]
    tally = Tally()
    examples: dict[str, list[str]] = {
        k: [] for k in ("recall_miss", "stale", "not_fact", "assistant", "date")
    }
    async with embedded_memory(folder) as memory:
        started = time.perf_counter()
        turn_of = await publish_turns(memory, turns)
        ingest_s = time.perf_counter() - started
        evidence = {t: e for e, t in turn_of.items()}
        scored = []
        for gold in chats:
            chat = Chat(gold, evidence, await memory.facts(gold["scope"]))
            for q in gold["questions"]:
                await score_question(memory, chat, q, turn_of, tally, examples)
            score_statements(chat, tally, examples)
            scored.append(chat)
    statements = [f.statement for c in scored for f in c.facts if f.status == FactStatus.ACTIVE]
    share, bad = share_ill_formed(statements)
    report: dict[str, Any] = {
        name: {"share": tally.share(name), "n": tally.n(name)} for name in tally.counts
    }
    reasons = Counter(r.split(":")[0] for _, found in bad for r in found)
    report["ill_formed"] = {"share": share, "n": len(statements),
                            "reasons": dict(reasons.most_common()),
                            "examples": [f"{t} <- {'; '.join(p)}" for t, p in bad[:8]]}  # fmt: skip
    report["examples"] = {k: v[:8] for k, v in examples.items()}
    facts = [f for c in scored for f in c.facts]
    unsupported = sum(not f.support for f in facts)  # invisible to the span rows
    report["run"] = {"chats": len(chats), "turns": len(turns), "ingest_s": ingest_s,
                     "facts": len(facts), "unsupported": unsupported}  # fmt: skip
    if facts_out is not None:
        write_facts(scored, turn_of, facts_out)
    return report


def write_facts(chats: Sequence[Chat], turn_of: Mapping[str, str], path: Path) -> None:
    """Every fact as a JSON line: status, statement, source turns, dates, problems."""
    facts = [f for c in chats for f in c.facts]
    with path.open("w", encoding="utf-8") as handle:
        for fact, problems in zip(facts, problems_many([f.statement for f in facts]), strict=True):
            row = {"status": fact.status.value, "asserted_by": fact.asserted_by,
                   "statement": fact.statement,
                   "turns": [turn_of.get(e, "") for e in fact.evidence_ids],
                   "dates": fact.time_expressions, "valid_to": str(fact.valid_to or ""),
                   "problems": problems}  # fmt: skip
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


ROWS = [
    ("answering turn R@1", "recall.1", ""),
    ("answering turn R@5", "recall.5", ">= BM25"),
    ("answering turn R@10", "recall.10", ">= BM25"),
    ("changed value: current turn ranked above the superseded", "order.turn", ""),
    ("changed value: current value's fact ranked above the old", "order.value", ">= 0.90"),
    ("changed value: superseded value still current", "stale", "0"),
    ("non-assertion span became a fact", "not_fact", "0"),
    ("assistant turn whose words became the user's fact", "assistant", "0"),
    ("dates kept in a fact", "date.kept", ""),
    ("date: year invented (none said or implied)", "date.invented", "0"),
    ("date: wrong year (by tense or as said)", "date.wrong", "0"),
    ("date: year dropped (a one-off event: a trip, a move)", "date.dropped", "0"),
]


def table(report: dict[str, Any]) -> str:
    lines = ["| metric | n | provmem | raw BM25 | target |", "|---|---|---|---|---|"]
    for label, key, target in ROWS:
        ours = report.get(f"{key}.provmem", {"share": 0.0, "n": 0})
        bm25 = report.get(f"{key}.bm25")
        raw = f"{bm25['share']:.2f}" if bm25 else ""
        lines.append(f"| {label} | {ours['n']} | {ours['share']:.2f} | {raw} | {target} |")
    ill = report["ill_formed"]
    lines.append(
        f"| active statements failing bench/wellformed | {ill['n']} | {ill['share']:.2f} | | 0 |"
    )
    return "\n".join(lines)


def by_topic(report: dict[str, Any]) -> str:
    """R@5 per question topic, provmem / BM25."""
    topics = sorted({k.split(".")[1] for k in report if k.startswith("topic.")})
    cells = []
    for topic in topics:
        ours, bm25 = (report[f"topic.{topic}.5.{name}"] for name in ("provmem", "bm25"))
        cells.append(f"{topic} {ours['share']:.2f}/{bm25['share']:.2f} (n={ours['n']})")
    return "R@5 by topic, provmem/BM25: " + ", ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--chats", type=int, help="only the first N chats")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--facts-out", type=Path, help="write every fact here (JSONL)")
    args = parser.parse_args()
    configure_logging()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-chat-") as folder:
        report = asyncio.run(run(args.data, Path(folder), args.chats, args.facts_out))
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(table(report))
    print(by_topic(report))
    for kind, found in report["examples"].items():
        for example in found:
            print(f"{kind}: {example}")
    print(f"ill-formed by reason: {report['ill_formed']['reasons']}")
    for example in report["ill_formed"]["examples"]:
        print(f"ill-formed: {example}")
    done = report["run"] | {"total_s": time.perf_counter() - started}
    print(
        "{chats} chats, {turns} turns, {facts} facts ({unsupported} without a support span): "
        "ingest {ingest_s:.0f} s, total {total_s:.0f} s".format(**done)
    )


if __name__ == "__main__":
    main()
