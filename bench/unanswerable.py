"""bench/unanswerable: does memory say it cannot answer, beside LoCoMo dev R@10?

    python -m bench.unanswerable [--data ../shared/data/locomo/locomo-dev.json]

Per LoCoMo dev conversation, a set of questions memory cannot answer: off-topic queries
("x", "What's the weather in Porto?") and questions templated about each speaker on
things the conversation never mentions (a template is dropped when its key word occurs in
the conversation). Reports the share that take the escalate path with no result (the
target: >= 90 %), LoCoMo dev R@10 of categories 1-4 in the same run, and the count of
queries where a raw turn of the assistant, system or a tool ranks above a result holding
the gold evidence (LoCoMo's speakers are all users: the count checks the ranking rule,
tests/e2e/test_prompt_fit.py checks it on a chat with those roles). The same-run
baseline: the search without a floor (``threshold=0``, every role's raw turns).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import embedded_memory
from bench.locomo import DEFAULT_DATA, coverage, ingest
from provmem.core.scope import Scope
from provmem.services.memory.memory import recall_for
from provmem.services.memory.recall import Recall
from provmem.services.memory.results import Recollection
from provmem.services.tools.evaluation_data import last_session_time, questions

OFF_TOPIC = (
    "x",
    "What's the weather in Porto?",
    "What is the capital of Australia?",
    "How do I reset my router?",
    "asdf qwerty",
    "Convert 5 miles to kilometres.",
)
# (key word that must not occur in the conversation, question about a speaker)
NEVER_SAID = (
    ("passport", "What is {name}'s passport number?"),
    ("blood type", "What is {name}'s blood type?"),
    ("submarine", "Which submarine did {name} command?"),
    ("iguana", "What is the name of {name}'s iguana?"),
    ("wi-fi password", "What is {name}'s wi-fi password?"),
    ("tax", "How much tax did {name} pay last year?"),
    ("glacier", "Which glacier did {name} climb?"),
    ("chess rating", "What is {name}'s chess rating?"),
)
# name -> the search's fit
SETTINGS: dict[str, dict[str, Any]] = {
    "default": {},
    "no floor": {"threshold": 0.0, "raw_turns_of": "all"},
}


@dataclass
class Tally:
    escalated: list[bool] = field(default_factory=list)
    adversarial: list[bool] = field(default_factory=list)  # LoCoMo category 5
    recall10: list[float] = field(default_factory=list)
    chatter_above: int = 0


def unanswerable(sample: dict[str, Any]) -> list[str]:
    """The conversation's questions memory cannot answer."""
    conversation = sample["conversation"]
    said = json.dumps(conversation).lower()
    names = [conversation["speaker_a"], conversation["speaker_b"]]
    templated = [q.format(name=n) for key, q in NEVER_SAID if key not in said for n in names]
    return [*OFF_TOPIC, *templated]


def _role(bundle: Any) -> str:
    if bundle.fact is not None:
        return "user"
    return next((e.speaker_role for e in bundle.evidence if e.role == "direct"), "user")


def chatter_above(result: Recollection, dia_of: dict[str, str], gold: Sequence[str]) -> bool:
    """Whether a raw turn of another role than the user's ranks above the first result
    holding gold evidence."""
    for bundle in result.bundles:
        if any(dia_of.get(e) in gold for e in bundle.evidence_ids):
            return False
        if _role(bundle) != "user":
            return True
    return False


async def score(
    search: Recall,
    sample: dict[str, Any],
    dia_of: dict[str, str],
    tally: dict[str, Tally],
) -> None:
    scope = Scope.parse(f"locomo/{sample['sample_id']}/dialogue").key
    now = last_session_time(sample)
    for name, fit in SETTINGS.items():
        for text in unanswerable(sample):
            found = await search.recall(scope, text, limit=10, now=now, **fit)
            tally[name].escalated.append(found.path == "ESCALATE" and not found.bundles)
        for question in questions(sample):
            found = await search.recall(scope, question.text, limit=10, now=now, **fit)
            if question.category not in (1, 2, 3, 4):
                tally[name].adversarial.append(found.path == "ESCALATE" and not found.bundles)
                continue
            ranked = [[dia_of.get(e, "") for e in b.evidence_ids] for b in found.bundles]
            tally[name].recall10.append(coverage(question.gold, ranked, 10))
            tally[name].chatter_above += chatter_above(found, dia_of, question.gold)


async def run(data: Path, folder: Path) -> dict[str, Tally]:
    tally = {name: Tally() for name in SETTINGS}
    async with embedded_memory(folder) as memory:
        search = recall_for(memory.components)
        for sample in json.loads(data.read_text()):
            await score(search, sample, await ingest(memory, sample), tally)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-unanswerable-") as folder:
        tally = asyncio.run(run(args.data, Path(folder)))
    print(
        "| search | unanswerable n | escalated, no result | LoCoMo adversarial n | escalated "
        "| LoCoMo dev n | R@10 | chatter above gold |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, t in tally.items():
        share = sum(t.escalated) / len(t.escalated)
        recall = sum(t.recall10) / len(t.recall10)
        print(
            f"| {name} | {len(t.escalated)} | {share:.0%} | {len(t.adversarial)} "
            f"| {sum(t.adversarial) / len(t.adversarial):.0%} | {len(t.recall10)} "
            f"| {recall:.3f} | {t.chatter_above} |"
        )


if __name__ == "__main__":
    main()
