"""bench/gate: the write gate on a generated stream with known duplicates, paraphrases
and updates, through the real embedded pipeline (extractor, model, gate, views).

    python -m bench.gate [--scopes 40] [--seed 7]

Reports duplicate-memory rate, wrong-merge rate, UPDATE accuracy, merge-call rate and
write-side cost per turn, beside raw embedding throughput on the same texts.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from provmem.config import Settings
from provmem.core.events import Fact, FactStatus
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.services.memory.memory import MemoryService
from provmem.streams.runtime.components import build

CITIES = ["Lisbon", "Berlin", "Oslo", "Madrid", "Vienna", "Dublin", "Prague", "Warsaw"]
COMPANIES = ["Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Tidewater", "Acme"]
HOBBIES = ["hiking", "pottery", "chess", "surfing", "baking bread", "birdwatching", "salsa"]
FOODS = ["peanuts", "shellfish", "gluten", "strawberries", "sesame", "eggs"]
PETS = [("dog", "Rex"), ("cat", "Luna"), ("parrot", "Kiwi"), ("rabbit", "Clover")]

STATE = {
    "home": ("I live in {v}.", "I'm living in {v} these days.", "I moved to {v}."),
    "work": ("I work at {v}.", "I'm working at {v} at the moment.", "I now work at {v}."),
}
LIKES = ("I love {v}.", "I really love {v}!")
ALLERGY = ("I am allergic to {v}.", "I have an allergy to {v}.")


@dataclass(frozen=True)
class Turn:
    text: str
    concept: str  # what it is about, e.g. "home" or "likes:pottery"
    kind: str  # new | duplicate | paraphrase | update | related
    previous: str | None = None  # for updates: the concept value it replaces


def scope_stream(rng: random.Random) -> list[Turn]:
    """One subject's turns: facts, exact repeats, paraphrases, updates and near misses."""
    home, new_home = rng.sample(CITIES, 2)
    job, new_job = rng.sample(COMPANIES, 2)
    hobby, other_hobby = rng.sample(HOBBIES, 2)
    food, other_food = rng.sample(FOODS, 2)
    pet, name = rng.choice(PETS)
    turns = [
        Turn(STATE["home"][0].format(v=home), f"home={home}", "new"),
        Turn(STATE["work"][0].format(v=job), f"work={job}", "new"),
        Turn(LIKES[0].format(v=hobby), f"likes={hobby}", "new"),
        Turn(ALLERGY[0].format(v=food), f"allergy={food}", "new"),
        Turn(f"I have a {pet} named {name}.", f"pet={name}", "new"),
        Turn(STATE["home"][0].format(v=home), f"home={home}", "duplicate"),
        Turn(LIKES[1].format(v=hobby), f"likes={hobby}", "paraphrase"),
        Turn(ALLERGY[1].format(v=food), f"allergy={food}", "paraphrase"),
        Turn(LIKES[0].format(v=other_hobby), f"likes={other_hobby}", "related"),
        Turn(ALLERGY[0].format(v=other_food), f"allergy={other_food}", "related"),
        Turn(STATE["home"][2].format(v=new_home), f"home={new_home}", "update", f"home={home}"),
        Turn(STATE["work"][2].format(v=new_job), f"work={new_job}", "update", f"work={job}"),
        Turn(STATE["work"][1].format(v=new_job), f"work={new_job}", "paraphrase"),
    ]
    head, tail = turns[:5], turns[5:]
    rng.shuffle(head)
    return head + tail


def as_published(scope: str, turns: list[Turn]) -> list[dict[str, str]]:
    start = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    return [
        {
            "scope": scope,
            "speaker": "Sam",
            "text": t.text,
            "turn_id": f"t{i}",
            "captured_at": (start + timedelta(minutes=i)).isoformat(),
        }
        for i, t in enumerate(turns)
    ]


@dataclass
class Tally:
    active: int = 0
    duplicates: int = 0
    merges: int = 0
    wrong_merges: int = 0
    updates: int = 0
    updates_right: int = 0


def score_scope(
    facts: list[Fact],
    concept_of: dict[str, str],
    expected_updates: list[tuple[str, str]],
    tally: Tally,
) -> None:
    """Compare the scope's final facts with what the stream should have produced."""
    active = [f for f in facts if f.status is FactStatus.ACTIVE]
    seen: defaultdict[str, int] = defaultdict(int)
    for fact in active:
        concepts = {concept_of[e] for e in fact.evidence_ids}
        tally.active += 1
        if len(fact.evidence_ids) > 1:
            tally.merges += 1
            tally.wrong_merges += len(concepts) > 1
        for concept in concepts:
            seen[concept] += 1
    tally.duplicates += sum(count - 1 for count in seen.values() if count > 1)
    by_id = {f.fact_id: f for f in facts}
    for new_concept, old_concept in expected_updates:
        tally.updates += 1
        tally.updates_right += any(
            concept_of[f.evidence_ids[0]] == new_concept
            and f.supersedes
            and concept_of[by_id[f.supersedes].evidence_ids[0]] == old_concept
            for f in facts
            if f.supersedes in by_id
        )


async def run(scopes: int, seed: int, folder: Path) -> dict[str, float]:
    rng = random.Random(seed)
    streams = {f"bench/gate/s{i}": scope_stream(rng) for i in range(scopes)}
    settings = Settings(data_dir=folder, partitions=4)
    components = await build(settings)
    memory = MemoryService(components)
    concept_of: dict[str, str] = {}
    started = time.perf_counter()
    for scope, turns in streams.items():
        results = await memory.publish(as_published(scope, turns))
        concept_of.update(
            {r.evidence_id or "": t.concept for r, t in zip(results, turns, strict=True)}
        )
    handled = await memory.sync()
    elapsed = time.perf_counter() - started
    tally = Tally()
    for scope, turns in streams.items():
        updates = [(t.concept, t.previous) for t in turns if t.kind == "update" and t.previous]
        score_scope(await memory.facts(scope), concept_of, updates, tally)
    await components.close()
    total_turns = sum(len(t) for t in streams.values())
    return {
        "turns": total_turns,
        "seconds": elapsed,
        "handled": float(sum(handled.values())),
        "tally": tally,  # type: ignore[dict-item]
        "embed_per_s": embed_baseline([t.text for ts in streams.values() for t in ts]),
    }


def embed_baseline(texts: list[str]) -> float:
    """Raw embedding throughput on the same texts (fresh model, no cache)."""
    embedder = MiniLMEmbedder(cache_size=0)
    embedder.embed(texts[:8])
    started = time.perf_counter()
    embedder.embed(texts)
    return len(texts) / (time.perf_counter() - started)


def report(result: dict[str, object]) -> str:
    tally: Tally = result["tally"]  # type: ignore[assignment]
    turns, seconds = float(result["turns"]), float(result["seconds"])  # type: ignore[arg-type]
    per_turn_ms = 1000 * seconds / turns
    pipeline_rate = turns / seconds
    baseline = float(result["embed_per_s"])  # type: ignore[arg-type]
    return "\n".join(
        [
            f"turns={int(turns)} active facts={tally.active}",
            f"duplicate-memory rate: {tally.duplicates / max(1, tally.active):.2%}",
            f"wrong-merge rate: {tally.wrong_merges / max(1, tally.merges):.2%} "
            f"({tally.wrong_merges}/{tally.merges} merged facts)",
            f"UPDATE accuracy: {tally.updates_right / max(1, tally.updates):.2%} "
            f"({tally.updates_right}/{tally.updates})",
            "merge-call rate: 0.00% (no merge advisor configured; LLM calls per turn = 0)",
            f"write-side cost: {per_turn_ms:.1f} ms/turn end to end (publish, encrypt, log, "
            f"extract, embed, gate, views, vectors) = {pipeline_rate:.0f} turns/s",
            f"baseline: raw embedding {baseline:.0f} texts/s on the same texts; "
            f"ratio pipeline/raw embedding = {pipeline_rate / baseline:.2f}",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scopes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-gate-") as folder:
        result = asyncio.run(run(args.scopes, args.seed, Path(folder)))
    print(report(result))


if __name__ == "__main__":
    main()
