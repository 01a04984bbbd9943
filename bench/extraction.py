"""bench/extraction: what the extractor keeps, against gold observations with turn ids.

    python -m bench.extraction [--locomo ../shared/data/locomo/locomo-dev.json]
                               [--tech bench/data] [--json]

Ingests each data set through the real embedded pipeline and reads the active facts back
(`Memory.facts`). Per data set (LoCoMo dev: `observation`; the technical set: its gold
observations):

- fact recall: share of gold observations matched by an active fact whose evidence includes
  the observation's turn: MiniLM cosine >= 0.6, token F1 >= 0.5, and either;
- claims per turn (active facts citing a turn / turns), per speaker role on the technical set;
- share of claims from code or markup (support span touching a fenced block, table row or
  command line, or mostly inside inline code; LoCoMo turns have none);
- share of statements failing bench/wellformed;
- wrong speaker: share of facts whose statement's subject names a participant who did not
  speak any of its evidence turns, or (technical set) that stem only from the assistant's
  turns yet are not marked as the assistant's (the statement names the assistant, or a fact
  field such as `speaker` says so). This counts a speaker's assertion about the listener
  ("Jon's passion is awesome" said by Gina to Jon) as wrong speaker;
- misattributed: the same, but a subject who did not speak counts only when the support
  neither names them nor addresses the listener ("you", "your"): a statement put on the
  wrong person, not a statement about the other person.

The same well-formedness and speaker checks run on the gold observations as a reference
for what the checks themselves flag.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import active, embedded_memory, evidence_turns, mean, token_f1
from bench.techbench import fact_from_code
from bench.techgen import ASSISTANT, markup_ranges
from bench.techgen import DATA as TECH_DATA
from bench.techgen import load as load_tech
from bench.wellformed import problems_many, share_ill_formed, subject_phrases
from provmem.core.events import Fact
from provmem.services.memory.loaders import locomo_turns
from provmem.services.memory.logs import configure_logging
from provmem.services.memory.memory import MemoryService
from provmem.services.tools.evaluation_data import normalize_ids, turn_ids

LOCOMO = Path(__file__).resolve().parents[2] / "shared/data/locomo/locomo-dev.json"
COSINE, F1 = 0.6, 0.5
ATTRIBUTION_FIELDS = ("speaker", "speaker_role", "asserted_by", "attributed_to", "source_role")


def turn_key(turn: Mapping[str, Any]) -> str:
    """A turn id unique across conversations (LoCoMo's dia ids repeat in every sample)."""
    return f"{turn['scope']}|{turn['turn_id']}"


@dataclass
class Conversation:
    """One scope's turns, its participants and its gold observations (text, turn id)."""

    scope: str
    turns: list[dict[str, Any]]
    observations: list[tuple[str, str]]

    @property
    def participants(self) -> set[str]:
        return {t["speaker"] for t in self.turns}


def locomo_conversations(path: Path) -> list[Conversation]:
    found = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        known = turn_ids(sample)
        observations = [
            (fact, dia_id)
            for session in sample.get("observation", {}).values()
            for facts in session.values()
            for fact, raw in facts
            for dia_id in normalize_ids([raw] if isinstance(raw, str) else raw, known)
        ]
        turns = list(locomo_turns(sample))
        scope = turns[0]["scope"]
        found.append(Conversation(scope, turns, [(o, f"{scope}|{t}") for o, t in observations]))
    return found


def tech_conversations(folder: Path) -> list[Conversation]:
    return [
        Conversation(
            c["scope"], c["turns"], [(o, f"{c['scope']}|{t}") for o, t in c["observations"]]
        )
        for c in load_tech(folder)
    ]


# --- wrong speaker -------------------------------------------------------------------------


def names_in(phrase: str, participants: set[str]) -> set[str]:
    return {p for p in participants if re.search(rf"\b{re.escape(p)}\b", phrase, re.IGNORECASE)}


def marked_as_assistant(fact: Fact, statement_subject: str) -> bool:
    if re.search(r"\bassistant\b", fact.statement, re.IGNORECASE):
        return True
    for name in ATTRIBUTION_FIELDS:
        value = getattr(fact, name, None)
        if isinstance(value, str) and value.lower() in (ASSISTANT, "agent"):
            return True
    return "assistant" in statement_subject.lower()


def wrong_speaker(fact: Fact, subject: str, speakers: set[str], participants: set[str]) -> bool:
    """The subject names someone who did not speak the evidence, or the assistant's words
    are presented as a user's fact."""
    named = names_in(subject, participants - {ASSISTANT})
    if named and not named & speakers:
        return True
    return speakers == {ASSISTANT} and not marked_as_assistant(fact, subject)


_ADDRESSED = re.compile(r"\b(?:you|your|yours|yourself|u)\b", re.IGNORECASE)


def misattributed(
    fact: Fact, subject: str, speakers: set[str], participants: set[str], support: Sequence[str]
) -> bool:
    """The statement is put on someone its support does not speak of: its subject names a
    participant who did not speak it and whom the supporting text neither names nor
    addresses, or the assistant's words are presented as a user's fact."""
    others = names_in(subject, participants - {ASSISTANT}) - speakers
    if any(not _spoken_of(name, support) for name in others):
        return True
    return speakers == {ASSISTANT} and not marked_as_assistant(fact, subject)


def _spoken_of(name: str, support: Sequence[str]) -> bool:
    named = re.compile(rf"\b{re.escape(name)}\b", re.IGNORECASE)
    return any(named.search(text) or _ADDRESSED.search(text) for text in support)


def support_texts(fact: Fact, text_of: Mapping[str, str]) -> list[str]:
    """The supporting characters of each evidence (its whole text when no span is kept)."""
    spans = [text_of.get(s.evidence_id, "")[s.start : s.end] for s in fact.support]
    return [t for t in spans if t] or [text_of.get(e, "") for e in fact.evidence_ids]


# --- scoring -------------------------------------------------------------------------------


def recall(
    conv: Conversation,
    facts: Sequence[Fact],
    turn_of: Mapping[str, str],
    vectors: Mapping[str, np.ndarray],
) -> dict[str, list[bool]]:
    by_turn: dict[str, list[Fact]] = {}
    for fact in facts:
        for evidence in fact.evidence_ids:
            by_turn.setdefault(turn_of.get(evidence, ""), []).append(fact)
    hits: dict[str, list[bool]] = {"cosine": [], "f1": [], "either": []}
    for text, turn in conv.observations:
        candidates = by_turn.get(turn, [])
        cos = any(float(vectors[text] @ vectors[f.statement]) >= COSINE for f in candidates)
        f1 = any(token_f1(text, f.statement) >= F1 for f in candidates)
        hits["cosine"].append(cos)
        hits["f1"].append(f1)
        hits["either"].append(cos or f1)
    return hits


async def score(
    memory: MemoryService,
    conversations: list[Conversation],
    tech: bool,
    facts_out: Path | None = None,
) -> dict[str, Any]:
    turns = [t for c in conversations for t in c.turns]
    published = await evidence_turns(memory, turns)
    turn_of = {evidence: turn_key(t) for evidence, t in published.items()}  # unique across scopes
    speaker_of = {turn_key(t): t["speaker"] for t in turns}
    text_of = {evidence: t["text"] for evidence, t in published.items()}
    markup = {turn_key(t): markup_ranges(t["text"]) for t in turns}
    per_conv = [(c, active(await memory.facts(c.scope))) for c in conversations]
    facts = [f for _, fs in per_conv for f in fs]
    texts = list(
        {*(f.statement for f in facts), *(o for c in conversations for o, _ in c.observations)}
    )
    matrix = np.asarray(memory.components.embedder.embed(texts), dtype=np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    vectors = dict(zip(texts, matrix, strict=True))
    hits: dict[str, list[bool]] = {"cosine": [], "f1": [], "either": []}
    wrong: list[bool] = []
    moved: list[bool] = []
    subjects = subject_phrases([f.statement for f in facts])
    position = 0
    for conv, conv_facts in per_conv:
        for name, found in recall(conv, conv_facts, turn_of, vectors).items():
            hits[name] += found
        for fact in conv_facts:
            spoken = {speaker_of.get(turn_of.get(e, ""), "") for e in fact.evidence_ids}
            wrong.append(wrong_speaker(fact, subjects[position], spoken, conv.participants))
            support = support_texts(fact, text_of)
            moved.append(
                misattributed(fact, subjects[position], spoken, conv.participants, support)
            )
            position += 1
    if facts_out is not None:
        write_facts(facts_out, facts, wrong, subjects, turn_of)
    report = summarize(conversations, turns, facts, hits, wrong, turn_of, markup, speaker_of, tech)
    report["misattributed"] = {
        "share": mean([float(m) for m in moved]),
        "count": sum(moved),
        "gold_share": gold_misattributed_share(conversations),
    }
    return report


def write_facts(
    path: Path,
    facts: list[Fact],
    wrong: list[bool],
    subjects: list[str],
    turn_of: Mapping[str, str],
) -> None:
    """Every active fact as a JSON line, with its source turns and what the checks found."""
    found = problems_many([f.statement for f in facts])
    with path.open("w", encoding="utf-8") as handle:
        for fact, bad, subject, problems in zip(facts, wrong, subjects, found, strict=True):
            row = {
                "statement": fact.statement,
                "turns": [turn_of.get(e, "") for e in fact.evidence_ids],
                "subject": subject,
                "wrong_speaker": bad,
                "problems": problems,
            }
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def summarize(
    conversations: list[Conversation], turns: list[dict[str, Any]], facts: list[Fact],
    hits: dict[str, list[bool]], wrong: list[bool], turn_of: Mapping[str, str],
    markup: Mapping[str, Any], speaker_of: Mapping[str, str], tech: bool,
) -> dict[str, Any]:  # fmt: skip
    from_code = [f for f in facts if fact_from_code(f, turn_of, markup)]
    ill, bad = share_ill_formed([f.statement for f in facts])
    gold = [(o, t) for c in conversations for o, t in c.observations]
    gold_ill, _ = share_ill_formed([o for o, _ in gold])
    report: dict[str, Any] = {
        "turns": len(turns),
        "observations": len(gold),
        "active_facts": len(facts),
        "recall": {name: mean([float(v) for v in values]) for name, values in hits.items()},
        "claims_per_turn": len(facts) / max(1, len(turns)),
        "from_code": {"count": len(from_code), "share": len(from_code) / max(1, len(facts))},
        "ill_formed": {"share": ill, "count": len(bad), "gold_share": gold_ill},
        "wrong_speaker": {
            "share": mean([float(w) for w in wrong]),
            "count": sum(wrong),
            "gold_share": gold_speaker_share(conversations),
        },
    }
    if tech:
        user_turns = [t for t in turns if t["speaker"] != ASSISTANT]
        from_user = [
            f for f in facts
            if any(speaker_of.get(turn_of.get(e, "")) != ASSISTANT for e in f.evidence_ids)
        ]  # fmt: skip
        report["claims_per_user_turn"] = len(from_user) / max(1, len(user_turns))
        report["claims_per_assistant_turn"] = (len(facts) - len(from_user)) / max(
            1, len(turns) - len(user_turns)
        )
    return report


def gold_speaker_share(conversations: list[Conversation]) -> float:
    """How often a gold observation's subject names someone other than its turn's speaker."""
    flagged: list[bool] = []
    for conv in conversations:
        speaker = {turn_key(t): t["speaker"] for t in conv.turns}
        subjects = subject_phrases([o for o, _ in conv.observations])
        for (_, turn), subject in zip(conv.observations, subjects, strict=True):
            named = names_in(subject, conv.participants - {ASSISTANT})
            flagged.append(bool(named) and speaker.get(turn) not in named)
    return mean([float(f) for f in flagged])


def gold_misattributed_share(conversations: list[Conversation]) -> float:
    """How often a gold observation is put on someone its own turn neither names nor
    addresses (the refined wrong-speaker check, on the gold)."""
    flagged: list[bool] = []
    for conv in conversations:
        turn = {turn_key(t): t for t in conv.turns}
        subjects = subject_phrases([o for o, _ in conv.observations])
        for (_, key), subject in zip(conv.observations, subjects, strict=True):
            said = turn.get(key, {"speaker": "", "text": ""})
            others = names_in(subject, conv.participants - {ASSISTANT}) - {said["speaker"]}
            flagged.append(any(not _spoken_of(name, [said["text"]]) for name in others))
    return mean([float(f) for f in flagged])


async def run(
    locomo: Path | None, tech: Path | None, folder: Path, facts_out: Path | None = None
) -> dict[str, Any]:
    report: dict[str, Any] = {}
    async with embedded_memory(folder) as memory:
        if locomo is not None:
            out = facts_out and facts_out.with_suffix(".locomo.jsonl")
            report["locomo"] = await score(memory, locomo_conversations(locomo), False, out)
        if tech is not None:
            out = facts_out and facts_out.with_suffix(".tech.jsonl")
            report["tech"] = await score(memory, tech_conversations(tech), True, out)
    return report


ROWS = [
    ("turns", lambda r: f"{r['turns']}"),
    ("gold observations", lambda r: f"{r['observations']}"),
    ("active facts", lambda r: f"{r['active_facts']}"),
    ("fact recall, cosine >= 0.6", lambda r: f"{r['recall']['cosine']:.3f}"),
    ("fact recall, token F1 >= 0.5", lambda r: f"{r['recall']['f1']:.3f}"),
    ("fact recall, either", lambda r: f"{r['recall']['either']:.3f}"),
    ("claims per turn", lambda r: f"{r['claims_per_turn']:.2f}"),
    ("claims per user / assistant turn", lambda r: _roles(r)),
    ("claims from code or markup", lambda r: _count_share(r["from_code"])),
    ("ill-formed statements (gold observations)", lambda r: _with_gold(r, "ill_formed")),
    ("wrong speaker (gold observations)", lambda r: _with_gold(r, "wrong_speaker")),
    ("misattributed (gold observations)", lambda r: _with_gold(r, "misattributed")),
]  # fmt: skip


def _count_share(part: dict[str, Any]) -> str:
    return f"{part['count']} ({part['share']:.1%})"


def _with_gold(r: dict[str, Any], key: str) -> str:
    gold = r[key]["gold_share"]
    return f"{r[key]['share']:.1%} ({gold:.1%})"


def _roles(r: dict[str, Any]) -> str:
    if "claims_per_user_turn" not in r:
        return ""
    return f"{r['claims_per_user_turn']:.2f} / {r['claims_per_assistant_turn']:.2f}"


def table(report: dict[str, Any]) -> str:
    sets = list(report)
    lines = ["| metric | " + " | ".join(sets) + " |", "|---|" + "---|" * len(sets)]
    for label, cell in ROWS:
        lines.append(f"| {label} | " + " | ".join(cell(report[s]) for s in sets) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--tech", type=Path, default=TECH_DATA)
    parser.add_argument("--only", choices=("locomo", "tech"), help="score one data set")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--facts-out", type=Path, help="write the active facts to FILE.locomo.jsonl / .tech.jsonl"
    )
    args = parser.parse_args()
    configure_logging()
    locomo = None if args.only == "tech" else args.locomo
    tech = None if args.only == "locomo" else args.tech
    with tempfile.TemporaryDirectory(prefix="provmem-bench-extraction-") as folder:
        report = asyncio.run(run(locomo, tech, Path(folder), args.facts_out))
    print(json.dumps(report, indent=1) if args.json else table(report))


if __name__ == "__main__":
    main()
