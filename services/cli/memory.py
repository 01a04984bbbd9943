"""Memory commands of the ``provmem`` CLI: demo, publish, ingest, query, facts, evidence."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.progress import Progress

from ...infra.settings import Settings
from ..memory.loaders import TurnFileError, detect_format, read_jsonl, read_locomo
from ..memory.memory import MAX_BATCH, Memory
from .demo import DEMO_QUESTIONS, DEMO_SCOPE, demo_turns
from .options import (
    BrokerOpt,
    DataDirOpt,
    JsonOpt,
    RuntimeOpt,
    _fail,
    _run,
    _settings,
    console,
)
from .render import render_fact, render_facts, render_publish, render_query

app = typer.Typer()
T = TypeVar("T")


@app.command()
def demo(data_dir: DataDirOpt = None, json_out: JsonOpt = False) -> None:
    """Publish a short conversation, derive facts and query them, with provenance."""
    folder = data_dir or Path(tempfile.mkdtemp(prefix="provmem-demo-"))
    settings = _settings("embedded", folder, None)

    async def work(memory: Memory) -> list[Any]:
        await memory.publish(demo_turns())
        await memory.sync()
        return [await memory.query(DEMO_SCOPE, q, limit=2) for q in DEMO_QUESTIONS]

    results = _run(settings, work)
    if json_out:
        typer.echo(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
        return
    console.print(f"[bold]provmem demo[/bold] — data in {folder}\n")
    for result in results:
        render_query(console, result)


@app.command()
def publish(
    scope: Annotated[str, typer.Option(help="org/project/user")],
    text: Annotated[str, typer.Option(help="What was said")],
    speaker: Annotated[str, typer.Option(help="Who said it")] = "user",
    turn_id: Annotated[str | None, typer.Option(help="The turn's id in its source")] = None,
    session: Annotated[str | None, typer.Option(help="Session id")] = None,
    at: Annotated[str | None, typer.Option(help="ISO-8601 time with zone (default: now)")] = None,
    runtime: RuntimeOpt = None,
    data_dir: DataDirOpt = None,
    broker: BrokerOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Publish one conversation turn as evidence."""
    turn = {
        "scope": scope,
        "text": text,
        "speaker": speaker,
        "turn_id": turn_id,
        "session": session,
        "captured_at": at or datetime.now(UTC).isoformat(),
    }
    settings = _settings(runtime, data_dir, broker)
    results = _run(settings, lambda m: _publish_and_sync(m, [turn], None))
    render_publish(console, results, json_out)
    if any(r.status == "rejected" for r in results):
        raise typer.Exit(1)


async def _publish_and_sync(
    memory: Memory, turns: list[dict[str, Any]], progress: Callable[[int], None] | None
) -> list[Any]:
    results = []
    for chunk in _chunks(turns, MAX_BATCH):
        results.extend(await memory.publish(chunk))
        if progress is not None:
            progress(len(chunk))
    await memory.sync()
    return results


def _chunks(items: list[T], size: int) -> Iterator[list[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@app.command()
def ingest(
    file: Annotated[
        Path,
        typer.Argument(
            help="JSONL turns or a LoCoMo JSON file", exists=True, dir_okay=False, readable=True
        ),
    ],
    fmt: Annotated[str, typer.Option("--format", help="auto, jsonl or locomo")] = "auto",
    runtime: RuntimeOpt = None,
    data_dir: DataDirOpt = None,
    broker: BrokerOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Publish every turn of a file, then bring the views up to date."""
    kind = detect_format(file) if fmt == "auto" else fmt
    if kind not in ("jsonl", "locomo"):
        _fail(f"--format: unknown format {fmt!r} (auto, jsonl or locomo)")
    turns, unreadable = _read_turns(file, kind)
    settings = _settings(runtime, data_dir, broker)
    with Progress(console=console, transient=True, disable=json_out) as bar:
        task = bar.add_task("publishing", total=len(turns))
        results = _run(
            settings, lambda m: _publish_and_sync(m, turns, lambda n: bar.advance(task, n))
        )
    for error in unreadable:
        console.print(f"[red]rejected[/red] {error}")
    render_publish(console, results, json_out, summary_only=len(results) > 20)
    if unreadable or any(r.status == "rejected" for r in results):
        raise typer.Exit(1)


def _read_turns(file: Path, kind: str) -> tuple[list[dict[str, Any]], list[TurnFileError]]:
    if kind == "locomo":
        try:
            return list(read_locomo(file)), []
        except (KeyError, ValueError) as error:
            _fail(f"{file}: not a LoCoMo file ({error})")
    rows: Iterable[dict[str, Any] | TurnFileError] = read_jsonl(file)
    turns, errors = [], []
    for row in rows:
        (errors if isinstance(row, TurnFileError) else turns).append(row)
    return turns, errors  # type: ignore[return-value]  # partitioned by isinstance above


@app.command()
def query(
    scope: Annotated[str, typer.Argument(help="org/project/user")],
    text: Annotated[str, typer.Argument(help="What to recall")],
    limit: Annotated[int, typer.Option(min=1, max=100, help="Facts to return")] = 5,
    runtime: RuntimeOpt = None,
    data_dir: DataDirOpt = None,
    broker: BrokerOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Recall facts of a scope, each with the evidence that supports it."""
    settings = _settings(runtime, data_dir, broker)

    async def work(memory: Memory) -> Any:
        await memory.sync()
        return await memory.query(scope, text, limit)

    result = _run(settings, work)
    if json_out:
        typer.echo(result.model_dump_json(indent=2))
    else:
        render_query(console, result)


@app.command()
def facts(
    scope: Annotated[str, typer.Argument(help="org/project/user, or a fact id (fact_...)")],
    history: Annotated[
        bool, typer.Option("--history", help="With a fact id: all versions")
    ] = False,
    runtime: RuntimeOpt = None,
    data_dir: DataDirOpt = None,
    broker: BrokerOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List the facts of a scope, or show one fact with its evidence (and --history)."""
    settings = _settings(runtime, data_dir, broker)
    if scope.startswith("fact_"):
        _show_fact(settings, scope, history, json_out)
        return

    async def work(memory: Memory) -> Any:
        await memory.sync()
        return await memory.facts(scope)

    found = _run(settings, work)
    if json_out:
        typer.echo(json.dumps([f.model_dump(mode="json") for f in found], indent=2))
    else:
        render_facts(console, scope, found)


def _show_fact(settings: Settings, fact_id: str, history: bool, json_out: bool) -> None:
    async def work(memory: Memory) -> Any:
        await memory.sync()
        return await memory.fact(fact_id)

    detail = _run(settings, work)
    if detail is None:
        _fail(f"fact {fact_id}: not found", code=1)
    if json_out:
        typer.echo(detail.model_dump_json(indent=2))
    else:
        render_fact(console, detail, history)


@app.command()
def evidence(
    evidence_id: Annotated[str, typer.Argument(help="An evidence id (ev_...)")],
    runtime: RuntimeOpt = None,
    data_dir: DataDirOpt = None,
    broker: BrokerOpt = None,
) -> None:
    """Show one piece of evidence, decrypted, with its source."""
    settings = _settings(runtime, data_dir, broker)
    quote = _run(settings, lambda m: m.evidence(evidence_id))
    if quote is None:
        _fail(f"evidence {evidence_id}: not found", code=1)
    typer.echo(quote.model_dump_json(indent=2))  # type: ignore[union-attr]  # _fail exits on None
