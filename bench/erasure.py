"""bench/erasure: erase whole subjects with many facts on the embedded runtime.

    python -m bench.erasure [--subjects 3] [--facts 10000] [--repeats 1] [--cache DIR]
    python -m bench.erasure --one-evidence 10 1000 10000 [--repeats 3] [--cache DIR]
        [--stand-in-vectors] [--build-only] [--no-full-audit]
    python -m tests.support.testbed -- python -m bench.erasure --kafka --one-evidence 10 1000

Builds each subject through the real pipeline (publish, extract, embed, gate, views,
index), then erases it and reports the time to the receipt and the time to zero
residue (receipt plus an independent audit scan), with p50/p95 over subjects, beside
the baseline of deleting the same number of points from the vector index directly.

The residue figure adds what the receipt's own verification found (``residue_found``)
and what ``provmem audit erasure`` finds after it; both run the same scans: the erased
evidence and fact ids in each store, keyed fingerprints of the erased text's word runs
in the fact views, and the byte audit (infra/residue.py) of every file under the data
folder (the SQLite files with their WAL and free pages, the vector shard's WAL and
segments; the gate state and the ledger are files there too) and of the log's retained
records, for the erased ids, words and numbers (keyed fingerprints, never text; short
and structural numbers are no marks). 0: nothing of the subject was found anywhere.
``--one-evidence N ...``: for each folder size N (turns), a data folder of N one-sentence
turns in scopes of ten turns, built through the same pipeline. Per copy, fresh components
first erase another turn of the first scope (printed as the process's first erasure: it
loads the model, the index and the stores' baseline words), then one evidence of that
scope, timed to its receipt; on the first copy ``provmem audit erasure``'s full audit
runs after it (the residue and zero-residue figures). Printed: the time to the receipt
with its ratio to the smallest folder's (same run), the slowest steps
(``erasure.steps``) and the raw delete of one vector point beside it.

Builds go in chunks of 1,000 turns with a progress bar on stderr, into ``NAME.building``,
renamed when done. ``--stand-in-vectors``: only the erased scope is embedded by the model
(:func:`stand_in_vectors`). ``--kafka``: bench/erasure_kafka.py.

The bench's own marker file is not copied into the data folder it erases (it is no part
of a deployment's data).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import numpy.typing as npt

from provmem.config import Settings
from provmem.core.ports import VectorPoint
from provmem.core.scope import Scope
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.infra.vectors.edge import EdgeVectorIndex
from provmem.services.erasure.subject import eraser_for, erasure_request
from provmem.services.memory.memory import MemoryService
from provmem.streams.erasure.cascade import scope_log
from provmem.streams.erasure.eraser import Eraser
from provmem.streams.runtime.components import build

PLACES = ["harbour", "museum", "market", "library", "station", "garden", "bakery", "bridge"]


PER_TURN = 10  # statements per turn: a long turn yields several facts
MARKER = "bench-erasure.json"  # what a cache folder holds


def subject_turns(scope: str, facts: int) -> list[dict[str, str]]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    turns = []
    for t in range(0, facts, PER_TURN):
        text = " ".join(
            f"I met friend number {i} at the {PLACES[i % len(PLACES)]} in {1000 + i}."
            for i in range(t, min(facts, t + PER_TURN))
        )
        turns.append(
            {
                "scope": scope,
                "speaker": "Sam",
                "turn_id": f"t{t}",
                "text": text,
                "captured_at": (start + timedelta(seconds=t)).isoformat(),
            }
        )
    return turns


async def build_subject(memory: MemoryService, scope: str, facts: int) -> int:
    turns = subject_turns(scope, facts)
    for start in range(0, len(turns), 1000):
        await memory.publish(turns[start : start + 1000])
    await memory.sync()
    return len(await memory.facts(scope))


async def erase_subject(memory: MemoryService, scope: str) -> tuple[float, float, int]:
    eraser = eraser_for(memory.components)
    started = time.perf_counter()
    request = erasure_request(scope, [], None, True)
    receipt = await eraser.erase(request)
    to_receipt = time.perf_counter() - started
    residue = await eraser.audit(request.request_id)
    if residue.total:
        print(f"residue where: { ({k: v for k, v in residue.found.items() if v}) }")
    return to_receipt, time.perf_counter() - started, residue.total + receipt.residue_found


async def baseline(folder: Path, count: int) -> float:
    """Deleting ``count`` points straight from the vector index (no cascade)."""
    index = EdgeVectorIndex(folder / "baseline", 4)
    await index.upsert(
        [VectorPoint(f"f{i}", [1.0, 0, 0, 0], "o/p/u", "active", "x") for i in range(count)]
    )
    started = time.perf_counter()
    await index.delete([f"f{i}" for i in range(count)])
    elapsed = time.perf_counter() - started
    await index.close()
    return elapsed


async def run(subjects: int, facts: int, repeats: int, folder: Path, cache: Path | None) -> None:
    """Build the subjects (or copy them from ``cache``), then erase them one by one, on
    ``repeats`` fresh copies of the built data."""
    built_in = cache if cache is not None else folder / "built"
    counts = await build_all(subjects, facts, built_in)
    results = []
    for run_number in range(repeats):
        work = folder / f"work-{run_number}"
        copy_at_rest(built_in, work)
        components = await build(Settings(data_dir=work, partitions=4))
        memory = MemoryService(components)
        for n, built in enumerate(counts):
            results.append((built, *await erase_subject(memory, f"bench/erasure/subject-{n}")))
            print(
                f"run {run_number} subject {n}: {built} facts, receipt {results[-1][1]:.2f} s, "
                f"zero residue {results[-1][2]:.2f} s, residue {results[-1][3]}, "
                f"load average {load_average()}"
            )
        await components.close()
        shutil.rmtree(work)
    report(results, await baseline(folder, facts))


def load_average() -> str:
    """The host's 1, 5 and 15 minute load averages (the machine may be shared)."""
    return " / ".join(f"{value:.2f}" for value in os.getloadavg())


def copy_at_rest(source: Path, target: Path) -> None:
    """Copy the built data and flush the copy to disk: the erasure starts from data at
    rest, as in a data folder in use, not from a fresh copy the kernel is writing back."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(MARKER))
    for path in target.rglob("*"):
        if path.is_file():
            descriptor = os.open(path, os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)


async def build_all(subjects: int, facts: int, folder: Path) -> list[int]:
    """Build the subjects into ``folder`` unless an earlier run already did."""
    marker = folder / MARKER
    wanted = {"subjects": subjects, "facts": facts}
    if marker.exists():
        stored = json.loads(marker.read_text())
        if stored["wanted"] == wanted:
            return list(stored["built"])
        raise SystemExit(f"{folder} holds another build ({stored['wanted']}); use another --cache")
    components = await build(Settings(data_dir=folder, partitions=4))
    memory = MemoryService(components)
    counts = [
        await build_subject(memory, f"bench/erasure/subject-{n}", facts) for n in range(subjects)
    ]
    await components.close()
    marker.write_text(json.dumps({"wanted": wanted, "built": counts}))
    return counts


def report(results: list[tuple[int, float, float, int]], base: float) -> None:
    receipts = sorted(r[1] for r in results)
    clean = sorted(r[2] for r in results)
    p95 = clean[min(len(clean) - 1, int(0.95 * len(clean)))]
    print(f"facts per subject: {statistics.mean(r[0] for r in results):.0f}")
    print(f"time to receipt: p50 {statistics.median(receipts):.2f} s, max {receipts[-1]:.2f} s")
    print(f"time to zero residue: p50 {statistics.median(clean):.2f} s, p95 {p95:.2f} s")
    print(f"residue found: {sum(r[3] for r in results)}")
    print(
        f"baseline: raw vector delete of the same count {base:.3f} s; "
        f"ratio cascade/raw delete {statistics.median(clean) / base:.0f}x"
    )


SCOPE_TURNS = 10  # turns per scope in a --one-evidence folder


def scope_of(turn: int) -> str:
    return f"bench/erasure/scope-{turn // SCOPE_TURNS}"


def folder_turns(count: int) -> list[dict[str, str]]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        {
            "scope": scope_of(t),
            "speaker": "Sam",
            "turn_id": f"t{t}",
            "text": f"I met friend number {t} at the {PLACES[t % len(PLACES)]} in {1000 + t}.",
            "captured_at": (start + timedelta(seconds=t)).isoformat(),
        }
        for t in range(count)
    ]


async def build_folder(turns: int, folder: Path, stand_in: bool = False) -> str:
    """A data folder of ``turns`` turns (unless an earlier run built it); the evidence
    id to erase (the first scope's second turn). ``stand_in``: only the first scope (the
    one erased) is embedded by the model; see :func:`stand_in_vectors`."""
    marker = folder / MARKER
    wanted = {"turns": turns, "stand_in": stand_in}
    if marker.exists():
        stored = json.loads(marker.read_text())
        if {"turns": stored["turns"], "stand_in": stored.get("stand_in", False)} != wanted:
            raise SystemExit(f"{folder} holds another build ({stored}); use another --cache")
        return str(stored["erase"])
    building = folder.with_name(folder.name + ".building")  # a stopped build is no cache
    shutil.rmtree(building, ignore_errors=True)
    erase = await publish_folder(turns, building, stand_in)
    (building / MARKER).write_text(json.dumps({**wanted, "erase": erase}))
    building.rename(folder)
    return erase


async def publish_folder(turns: int, folder: Path, stand_in: bool) -> str:
    """Publish and derive the turns in chunks (the first scope alone first), showing
    progress; the evidence id to erase."""
    components = await build(Settings(data_dir=folder, partitions=4))
    memory = MemoryService(components)
    every = folder_turns(turns)
    chunks = [every[:SCOPE_TURNS]] + [
        every[start : start + BUILD_CHUNK] for start in range(SCOPE_TURNS, turns, BUILD_CHUNK)
    ]
    bar = ProgressBar(f"build {turns:,} turns", turns)
    try:
        first = await memory.publish(chunks[0])
        await memory.sync()
        bar.advance(len(chunks[0]))
        if stand_in:
            stand_in_vectors(components.embedder)
        for chunk in chunks[1:]:
            await memory.publish(chunk)
            await memory.sync()
            bar.advance(len(chunk))
    finally:
        bar.close()
        await components.close()
    return str(first[min(1, len(first) - 1)].evidence_id)


BUILD_CHUNK = 1000  # turns published, then derived, at a time


def stand_in_vectors(embedder: MiniLMEmbedder) -> None:
    """From now on ``embedder`` (this build's own) returns a unit vector drawn from a
    seed of each text's hash instead of running the model: the build of a 100,000-turn
    folder spends most of its time in the model, while an erasure's cost follows the
    counts of records, rows and points it touches, not the vectors' values. Distinct
    texts get nearly orthogonal vectors; the log ends alike (1,000 turns: 2,670 fact-change
    records with stand-in vectors, 2,672 with the model, 2026-12-07)."""

    def vectors(texts: list[str]) -> list[npt.NDArray[np.float32]]:
        return [unit_vector(text, embedder.dim) for text in texts]

    embedder._embed_sorted = vectors  # type: ignore[method-assign]  # bench build only
    embedder._embed_queries = vectors  # type: ignore[method-assign]  # bench build only


def unit_vector(text: str, dim: int) -> npt.NDArray[np.float32]:
    seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    vector = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return vector / np.linalg.norm(vector)


class ProgressBar:
    """A one-line progress bar on stderr: done / total, elapsed and the time left."""

    def __init__(self, label: str, total: int) -> None:
        self.label, self.total, self.done = label, total, 0
        self.started = time.perf_counter()
        self.draw()

    def advance(self, count: int) -> None:
        self.done += count
        self.draw()

    def draw(self) -> None:
        elapsed = time.perf_counter() - self.started
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        filled = round(30 * self.done / max(1, self.total))
        sys.stderr.write(
            f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {self.done:,}/"
            f"{self.total:,} {minutes(elapsed)} elapsed, {minutes(left)} left, "
            f"load {load_average()}"
        )
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")


def minutes(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


async def erase_one(
    folder: Path, evidence_id: str, audit: bool
) -> tuple[float, float, int, dict[str, float]]:
    """Erase one evidence over ``folder`` in a process that already erased another (its
    model, index and baseline loaded, as in a running deployment): seconds to the receipt,
    to zero residue (the full audit after it, when ``audit``; else 0), residue, and the
    receipt's steps."""
    components = await build(Settings(data_dir=folder, partitions=4))
    try:
        eraser = eraser_for(components)
        cold = await warm_up(eraser, evidence_id)
        print(f"first erasure of this process (another turn): receipt {cold:.2f} s")
        started = time.perf_counter()
        request = erasure_request(scope_of(0), [evidence_id], None, False)
        receipt = await eraser.erase(request)
        to_receipt = time.perf_counter() - started
        steps = dict(eraser.clock.steps)
        found = await full_audit(eraser, request.request_id) if audit else 0
        clean = time.perf_counter() - started if audit else 0.0
    finally:
        await components.close()
    return to_receipt, clean, found + receipt.residue_found, steps


async def full_audit(eraser: Eraser, request_id: str) -> int:
    """``provmem audit erasure``: every byte of the folder and the log; what it found."""
    residue = await eraser.audit(request_id)
    if residue.total:
        print(f"residue where: { ({k: v for k, v in residue.found.items() if v}) }")
    return residue.total


async def warm_up(eraser: Eraser, evidence_id: str) -> float:
    """Erase another turn of the same scope first; its seconds to the receipt."""
    scope = await scope_log(eraser.deps, Scope.parse(scope_of(0)).key, None)
    other = next(t.evidence_id for t in scope.turns if t.evidence_id != evidence_id)
    started = time.perf_counter()
    await eraser.erase(erasure_request(scope_of(0), [other], None, False))
    return time.perf_counter() - started


async def run_one_evidence(
    sizes: list[int],
    repeats: int,
    folder: Path,
    cache: Path | None,
    full_audit: bool = True,
    stand_in: bool = False,
) -> None:
    """Per folder size: build (or reuse), erase one evidence on ``repeats`` copies (the
    first followed by the full audit unless ``full_audit`` is off)."""
    built_in = cache if cache is not None else folder / "built"
    receipts: dict[int, list[float]] = {}
    for size in sizes:
        source = built_in / f"one-evidence-{size}{'-stand-in' if stand_in else ''}"
        evidence_id = await build_folder(size, source, stand_in)
        for repeat in range(repeats):
            work = folder / f"work-{size}-{repeat}"
            copy_at_rest(source, work)
            audit = full_audit and repeat == 0
            to_receipt, clean, residue, steps = await erase_one(work, evidence_id, audit)
            shutil.rmtree(work)
            receipts.setdefault(size, []).append(to_receipt)
            slow = {k: round(v, 2) for k, v in sorted(steps.items(), key=lambda i: -i[1])[:5]}
            print(
                f"{size} turns, copy {repeat}: receipt {to_receipt:.2f} s, zero residue "
                f"{clean:.2f} s, residue {residue}, load {load_average()}, slowest {slow}"
            )
    if receipts:
        report_sizes(receipts, await baseline(folder, 1))


async def run_kafka(sizes: list[int], repeats: int, folder: Path) -> None:
    """bench/erasure_kafka.py: per folder size, fresh topics and a worker, then one
    evidence erased ``repeats`` times, each to its receipt."""
    from bench.erasure_kafka import erase_on_kafka

    receipts: dict[int, list[float]] = {}
    for size in sizes:
        times, steps = await erase_on_kafka(folder_turns(size), repeats, folder, ProgressBar)
        receipts[size] = times
        padded = (steps + [{}] * len(times))[: len(times)]  # a step line may be missing
        for copy, (seconds, step) in enumerate(zip(times, padded, strict=True)):
            slow = {k: round(v, 2) for k, v in sorted(step.items(), key=lambda i: -i[1])[:5]}
            print(
                f"kafka {size} turns, erasure {copy}: receipt {seconds:.2f} s, "
                f"load {load_average()}, slowest {slow}"
            )
    report_sizes(receipts, await baseline(folder, 1))


def report_sizes(receipts: dict[int, list[float]], base: float) -> None:
    smallest = statistics.median(receipts[min(receipts)])
    print("turns | time to receipt p50 | min | max | ratio to smallest")
    for size in sorted(receipts):
        times = sorted(receipts[size])
        p50 = statistics.median(times)
        print(
            f"{size} | {p50:.2f} s | {times[0]:.2f} s | {times[-1]:.2f} s | {p50 / smallest:.2f}x"
        )
    print(f"baseline: raw delete of one vector point {base * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--subjects", type=int, default=3)
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument(
        "--repeats", type=int, default=1, help="erase every subject on this many copies"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep the built subjects in this folder and reuse them in later runs "
        "(each run erases a copy)",
    )
    parser.add_argument(
        "--one-evidence",
        type=int,
        nargs="+",
        metavar="TURNS",
        help="erase one evidence in folders of these many turns instead of whole subjects",
    )
    parser.add_argument(
        "--no-full-audit",
        action="store_true",
        help="--one-evidence: skip `provmem audit erasure`'s full audit after the first "
        "copy's erasure (it reads every byte of the folder: ~25 min at 100,000 turns)",
    )
    parser.add_argument(
        "--stand-in-vectors",
        action="store_true",
        help="--one-evidence: build with the model only for the erased scope, stand-in "
        "vectors for the others (a 100,000-turn build in a fraction of the time)",
    )
    parser.add_argument("--build-only", action="store_true", help="build the folders, erase none")
    parser.add_argument(
        "--kafka",
        action="store_true",
        help="--one-evidence on the Kafka runtime (under `python -m tests.support.testbed --`)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-erasure-") as folder:
        if args.one_evidence and args.kafka:
            work = run_kafka(args.one_evidence, args.repeats, Path(folder))
        elif args.one_evidence:
            work = run_one_evidence(
                args.one_evidence,
                0 if args.build_only else args.repeats,
                Path(folder),
                args.cache,
                not args.no_full_audit,
                args.stand_in_vectors,
            )
        else:
            work = run(args.subjects, args.facts, args.repeats, Path(folder), args.cache)
        asyncio.run(work)


if __name__ == "__main__":
    main()
