"""Publishing many turns from the CLI: batches, progress with counts and ETA for every
stage of the derivation, and a summary (time, facts added and updated, scopes)."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import typer

from provmem.services.cli.options import console, errors

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from provmem.services.memory.loaders import TurnFileError
    from provmem.services.memory.memory import MemoryService
    from provmem.services.memory.results import PublishResult

STAGES = {
    "derive": "deriving facts",
    "materialize": "materializing views",
    "index-evidence": "indexing evidence",
    "erase": "erasing",
}


@dataclass
class Derivation:
    """What an ingest did."""

    results: list[PublishResult]
    seconds: float
    changes: Counter[str] = field(default_factory=Counter)
    scopes: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.results)

    @property
    def rejected(self) -> int:
        """Turns that did not land: rejected at the edge or in conflict with a turn id's text."""
        return self.count("rejected") + self.count("conflict")

    def summary(self) -> dict[str, Any]:
        return {
            "turns": len(self.results),
            "accepted": self.count("accepted"),
            "duplicate": self.count("duplicate"),
            "rejected": self.count("rejected"),
            "conflict": self.count("conflict"),
            "seconds": round(self.seconds, 2),
            "facts_added": self.changes["ADD"],
            "facts_updated": self.changes["UPDATE"],
            "evidence_joined": self.changes["NOOP"],
            "scopes": self.scopes,
        }


async def publish_all(
    memory: MemoryService,
    turns: Sequence[dict[str, Any]],
    published: Callable[[int], None] | None = None,
) -> list[PublishResult]:
    """Publish in batches (the service's limit), then bring the views up to date."""
    results = await _publish(memory, turns, published)
    await memory.sync()
    return results


async def _publish(
    memory: MemoryService, turns: Sequence[dict[str, Any]], published: Callable[[int], None] | None
) -> list[PublishResult]:
    from provmem.services.memory.memory import MAX_BATCH

    results: list[PublishResult] = []
    for start in range(0, len(turns), MAX_BATCH):
        batch = turns[start : start + MAX_BATCH]
        results.extend(
            r.model_copy(update={"index": r.index + start}) for r in await memory.publish(batch)
        )
        if published is not None:
            published(len(batch))
    return results


async def ingest_file(
    memory: MemoryService, turns: Sequence[dict[str, Any]], quiet: bool
) -> Derivation:
    """Publish ``turns`` and derive them, showing progress on stderr unless ``quiet``."""
    started = time.monotonic()
    before = await _ends(memory)
    with _progress(quiet) as bar:
        publishing = bar.add_task("publishing turns", total=len(turns))
        results = await _publish(memory, turns, lambda n: bar.advance(publishing, n))
        new = sum(r.status == "accepted" for r in results)
        await memory.sync(_stage_progress(bar, new))
    changes = await _changes_since(memory, before)
    scopes = sorted({str(turns[r.index]["scope"]) for r in results if r.status == "accepted"})
    return Derivation(results, time.monotonic() - started, changes, scopes)


def _stage_progress(bar: Progress, new_turns: int) -> Callable[[str, int], None]:
    """A task per stage as it starts: the turn stages know their total (the new turns),
    materializing counts the fact changes the derivation wrote."""
    tasks: dict[str, TaskID] = {}

    def advance(stage: str, handled: int) -> None:
        if stage not in tasks:
            total = new_turns if stage in ("derive", "index-evidence") else None
            tasks[stage] = bar.add_task(STAGES.get(stage, stage), total=total)
        bar.advance(tasks[stage], handled)

    return advance


@contextmanager
def _progress(quiet: bool) -> Iterator[Progress]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description:<20}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=errors.real, disable=quiet) as bar:
        yield bar


async def _ends(memory: MemoryService) -> dict[int, int]:
    c = memory.components
    topic = c.names.fact_changes
    return {p: await c.log.end_offset(topic, p) for p in range(await c.log.partitions(topic))}


async def _changes_since(memory: MemoryService, before: dict[int, int]) -> Counter[str]:
    """The ops of the fact changes written after ``before`` (per partition offsets)."""
    from provmem.streams.topics import FACT_CHANGES

    c, ops = memory.components, Counter[str]()
    for partition, offset in before.items():
        while batch := await c.log.read(c.names.fact_changes, partition, offset, 1000):
            offset = batch[-1].offset + 1
            for record in batch:
                change = FACT_CHANGES.decode(record.value) if record.value else None
                if change is not None:
                    ops[change.op.value] += 1
    return ops


def render_ingest(
    done: Derivation,
    unreadable: Sequence[TurnFileError],
    json_out: bool,
    where: Sequence[str],
) -> None:
    """The summary, and each turn's result named by its file line (``where``): every turn
    for a short file, only those that did not land for a long one."""
    from provmem.services.cli.render import shown

    failed = [r for r in done.results if r.status in ("rejected", "conflict")]
    if json_out:
        rows = [r.model_dump(mode="json") | {"where": where[r.index]} for r in done.results]
        lines = [str(error) for error in unreadable]
        summary = {**done.summary(), "results": rows, "unreadable": lines}
        typer.echo(json.dumps(summary, indent=2))
        return
    for error in unreadable:
        console.print(f"[red]rejected[/red] {shown(str(error))}", highlight=False)
    for result in done.results if len(done.results) <= SHOWN_RESULTS else failed:
        detail = shown(result.error or result.evidence_id or "")
        console.print(f"{where[result.index]}: {result.status} {detail}", highlight=False)
    s = done.summary()
    console.print(
        f"{s['accepted']} accepted, {s['duplicate']} duplicate, {s['rejected']} rejected, "
        f"{s['conflict']} conflict "
        f"in {s['seconds']:.1f} s: {s['facts_added']} facts added, {s['facts_updated']} "
        f"updated, {s['evidence_joined']} joined by new evidence; "
        f"{len(s['scopes'])} scope(s): {', '.join(s['scopes'])}",
        highlight=False,
    )


#: Up to this many turns, ingest prints every turn's result; beyond, only failures.
SHOWN_RESULTS = 20
