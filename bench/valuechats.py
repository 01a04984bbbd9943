"""bench/valuechats: two long assistant-help chats written for the value reader's diagnosis
(issue 27), in the blind split's format and scored by its scorer, with the misses named.

    python -m bench.valuechats [--misses]

The chats (bench/data/valuechats: a home bakery, marathon training) carry values inside
questions and requests, updates across sessions, relatives' values and numbers of unrelated
attributes side by side (2 kids, 12 loaves). They are development data: the rules may be
read against them, unlike the blind split's.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bench.blind.score import Tally, print_text, report, score_conversation

DATA = Path(__file__).parent / "data" / "valuechats"
#: The metrics whose misses ``--misses`` names, each with the gold list it runs over.
NAMED = (
    ("fact.r10.provmem", "facts"),
    ("fact.answer_top5", "facts"),
    ("update.history", "updates"),
    ("update.value_above", "updates"),
    ("update.turn_top10.provmem", "updates"),
    ("update.stale", "updates"),  # a success here is a stale value
)


def load(data: Path = DATA) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [
        (json.loads(path.read_text()), json.loads((data / "gold" / path.name).read_text()))
        for path in sorted(data.glob("*.json"))
    ]


def misses(tally: Tally, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[str]:
    """Each missed question as "metric: question" (rows follow the gold lists' order)."""
    found = []
    for conv, gold in pairs:
        for metric, items in NAMED:
            rows = [r for r in tally.rows if r[0] == metric and r[1] == conv["conversation_id"]]
            for item, row in zip(gold[items], rows, strict=True):
                if row[4] == (metric == "update.stale"):
                    found.append(f"{metric}: {item['question']}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--misses", action="store_true", help="name every missed question")
    args = parser.parse_args()
    pairs, tally, counts = load(), Tally(), {}
    for conv, gold in pairs:
        score_conversation(conv, gold, tally, counts)
    print_text(report(tally, counts, 0.0))
    for line in misses(tally, pairs) if args.misses else ():
        print("MISS", line)


if __name__ == "__main__":
    main()
