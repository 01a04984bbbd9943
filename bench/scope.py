"""bench/scope: one scope growing, through the real embedded pipeline (extractor, model,
gate, views, vectors): does a turn cost more when its scope holds more facts?

    python -m bench.scope --sizes 1000,10000 [--window 100] [--profile FILE]

Fills one scope with distinct generated statements (each turn one new fact), in
batches, up to each size; then publishes ``--window`` more turns one at a time, each
followed by a sync (what ``add`` then a deriving search costs), and reports the mean
per-turn cost beside raw embedding of the same texts one at a time (the model alone,
no cache) in the same run, and each size's cost over the smallest size's.
``--profile`` writes a cProfile of the largest size's window.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import itertools
import random
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.common import active, embedded_memory
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.services.memory.memory import MAX_BATCH, MemoryService

SCOPE = "bench/scope/u1"
WARM_UP = 10  # one-at-a-time turns before each window, not measured
PEOPLE = ["Ana", "Bruno", "Chen", "Dara", "Elif", "Femi", "Goran", "Hana", "Ivo", "Jun"]
PLACES = ["the harbour", "the old mill", "the library", "the station", "the market hall"]
THINGS = [
    "a brass compass", "a linen map", "a clay teapot", "a wool scarf", "a chess clock",
    "a glass lantern", "a cedar box", "a tin whistle", "a silk kite", "a copper kettle",
]  # fmt: skip
COLOURS = ["amber", "teal", "crimson", "ivory", "olive", "slate", "coral", "indigo"]


def statements(seed: int) -> Iterator[str]:
    """Distinct statements, each a new fact: who found what, of which colour, where, when."""
    combos = list(itertools.product(PEOPLE, THINGS, COLOURS, PLACES, range(1, 29)))
    random.Random(seed).shuffle(combos)
    for person, thing, colour, place, day in combos:
        article, noun = thing.split(" ", 1)
        yield f"{person} found {article} {colour} {noun} near {place} on March {day}."


@dataclass
class Window:
    size: int
    facts: int
    per_turn_ms: float
    embed_ms: float


class Feed:
    """Turns of the one scope, a minute apart, numbered from the first."""

    def __init__(self, seed: int) -> None:
        self._texts = statements(seed)
        self._count = 0
        self._start = datetime(2026, 1, 1, tzinfo=UTC)

    def take(self, n: int) -> list[dict[str, str]]:
        return [self._turn(next(self._texts)) for _ in range(n)]

    def _turn(self, text: str) -> dict[str, str]:
        self._count += 1
        at = self._start + timedelta(minutes=self._count)
        return {"scope": SCOPE, "speaker": "Sam", "text": text, "captured_at": at.isoformat()}


async def grow_to(memory: MemoryService, feed: Feed, turns: int) -> None:
    """Publish ``turns`` turns in the largest batches, then derive."""
    while turns > 0:
        batch = min(turns, MAX_BATCH)
        await memory.publish(feed.take(batch))
        await memory.sync()
        turns -= batch


async def window(memory: MemoryService, turns: Sequence[dict[str, str]]) -> float:
    """Seconds to publish and derive these turns one at a time."""
    started = time.perf_counter()
    for turn in turns:
        await memory.publish([turn])
        await memory.sync()
    return time.perf_counter() - started


def embed_seconds(embedder: MiniLMEmbedder, texts: Sequence[str]) -> float:
    """Seconds to embed these texts one at a time (the model alone, no cache)."""
    started = time.perf_counter()
    for text in texts:
        embedder.embed_transient([text])
    return time.perf_counter() - started


async def run(
    sizes: Sequence[int], window_turns: int, seed: int, folder: Path, profile: Path | None
) -> list[Window]:
    """Each size's window, printed as it is measured (a large size takes a while)."""
    feed, embedder, found = Feed(seed), MiniLMEmbedder(cache_size=0), []
    embedder.embed_transient(["warm up"])
    published = 0
    async with embedded_memory(folder) as memory:
        for size in sorted(sizes):
            await grow_to(memory, feed, size - published)
            await window(memory, feed.take(WARM_UP))  # not measured: caches, allocations
            embed_seconds(embedder, ["warm up"] * WARM_UP)
            turns = feed.take(window_turns)
            profiler = cProfile.Profile() if profile and size == max(sizes) else None
            if profiler:
                profiler.enable()
            seconds = await window(memory, turns)
            if profiler and profile:
                profiler.disable()
                profiler.dump_stats(profile)
            published = size + WARM_UP + window_turns
            facts = len(active(await memory.facts(SCOPE)))
            embed = embed_seconds(embedder, [t["text"] for t in turns])
            n = len(turns)
            found.append(Window(size, facts, 1000 * seconds / n, 1000 * embed / n))
            print(report(found).splitlines()[-1], flush=True)
    return found


def report(windows: Sequence[Window]) -> str:
    first = windows[0].per_turn_ms
    rows = [
        f"size {w.size:>6} (active facts after: {w.facts:>6}): {w.per_turn_ms:6.1f} ms/turn, "
        f"raw embedding {w.embed_ms:4.1f} ms/turn, ratio to {windows[0].size}: "
        f"{w.per_turn_ms / first:.2f}"
        for w in windows
    ]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", type=Path, default=None)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="provmem-bench-scope-") as folder:
        windows = asyncio.run(run(sizes, args.window, args.seed, Path(folder), args.profile))
    print(f"\n{report(windows)}")


if __name__ == "__main__":
    main()
