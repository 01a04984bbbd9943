"""Memory commands of the ``provmem`` CLI: demo, publish, ingest, query, facts, scopes,
evidence. Heavy modules are imported inside the commands (start-up time, bench/cli.py)."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from provmem.services.cli.demo import DEMO_QUESTIONS, DEMO_SCOPE, demo_turns
from provmem.services.cli.options import (
    DataDirOpt,
    JsonOpt,
    Target,
    _fail,
    _run,
    _settings,
    console,
    shared_options,
)

if TYPE_CHECKING:
    from provmem.config import Settings
    from provmem.services.cli.ingest import Derivation
    from provmem.services.memory.memory import MemoryService

app = typer.Typer(pretty_exceptions_show_locals=False)


@app.command()
def demo(data_dir: DataDirOpt = None, json_out: JsonOpt = False) -> None:
    """Publish a short conversation, derive facts and query them, with provenance."""
    settings = _settings("embedded", data_dir, None)
    if data_dir is None and "data_dir" not in settings.model_fields_set:
        settings = _settings("embedded", Path(tempfile.mkdtemp(prefix="provmem-demo-")), None)
    folder = settings.data_dir

    async def work(memory: MemoryService) -> list[Any]:
        await memory.publish(demo_turns())
        await memory.sync()
        return [await memory.query(DEMO_SCOPE, q, limit=2) for q in DEMO_QUESTIONS]

    results = _run(settings, work)
    if json_out:
        typer.echo(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
        return
    from provmem.services.cli.render import render_query

    console.print(f"[bold]provmem demo[/bold] — data in {folder}\n")
    for result in results:
        render_query(console, result)


@app.command()
@shared_options
def publish(
    scope: Annotated[str, typer.Option(help="org/project/user")],
    text: Annotated[str, typer.Option(help="What was said")],
    speaker: Annotated[str, typer.Option(help="Who said it")] = "user",
    turn_id: Annotated[str | None, typer.Option(help="The turn's id in its source")] = None,
    session: Annotated[str | None, typer.Option(help="Session id")] = None,
    at: Annotated[str | None, typer.Option(help="ISO-8601 time with zone (default: now)")] = None,
    *,
    target: Target,
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
    from provmem.services.cli.ingest import publish_all
    from provmem.services.cli.render import render_publish

    settings = target.settings()
    results = _run(settings, lambda m: publish_all(m, [turn]))
    render_publish(console, results, target.json)
    if any(r.status in ("rejected", "conflict") for r in results):
        raise typer.Exit(1)


@app.command()
@shared_options
def ingest(
    file: Annotated[
        Path,
        typer.Argument(
            help="JSONL turns, a JSON array of turns or a LoCoMo JSON file",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ],
    fmt: Annotated[str, typer.Option("--format", help="auto, jsonl, json or locomo")] = "auto",
    *,
    target: Target,
) -> None:
    """Publish every turn of a file, then bring the views up to date, with progress
    (counts and ETA) and a summary: time, facts added and updated, scopes. Every result
    names the file line (or item) it came from; exit 1 when any turn was rejected or
    conflicted."""
    from provmem.services.cli.ingest import ingest_file, render_ingest
    from provmem.services.memory.loaders import (
        FORMATS,
        FileTurn,
        TurnFileError,
        detect_format,
        read_turn_file,
    )

    if fmt not in FORMATS:
        _fail(f"--format: unknown format {fmt!r} (auto, jsonl, json or locomo)")
    kind = detect_format(file) if fmt == "auto" else fmt
    found = list(read_turn_file(file, kind))
    located = [f for f in found if isinstance(f, FileTurn)]
    unreadable = [f for f in found if isinstance(f, TurnFileError)]
    settings = target.settings()
    turns = [f.turn for f in located]
    derivation: Derivation = _run(settings, lambda m: ingest_file(m, turns, quiet=target.json))
    render_ingest(derivation, unreadable, target.json, [f.where for f in located])
    if unreadable or derivation.rejected:
        raise typer.Exit(1)


@app.command()
@shared_options
def query(
    scope: Annotated[str, typer.Argument(help="org/project/user")],
    text: Annotated[str, typer.Argument(help="What to recall")],
    limit: Annotated[int, typer.Option(min=1, max=100, help="Facts to return")] = 5,
    *,
    target: Target,
) -> None:
    """Recall facts of a scope, each with the evidence that supports it."""
    settings = target.reading()

    async def work(memory: MemoryService) -> Any:
        await memory.sync()
        return await memory.query(scope, text, limit)

    result = _run(settings, work)
    if target.json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        from provmem.services.cli.render import render_query

        render_query(console, result)


@app.command()
@shared_options
def facts(
    scope: Annotated[
        str | None, typer.Argument(help="org/project/user, or a fact id (fact_...)")
    ] = None,
    history: Annotated[
        bool, typer.Option("--history", help="With a fact id: all versions")
    ] = False,
    explain: Annotated[
        str | None,
        typer.Option(
            "--explain",
            metavar="TURN",
            help="A turn's evidence id (ev_...): each clause kept as a claim, or why dropped",
        ),
    ] = None,
    *,
    target: Target,
) -> None:
    """List the facts of a scope, show one fact with its evidence (and --history), or
    explain what the extractor made of each clause of a turn (--explain)."""
    if explain is not None:
        _explain(target, explain)
        return
    if scope is None:
        _fail("facts: give a scope (org/project/user), a fact id, or --explain TURN")
    settings = target.reading()
    if scope.startswith("fact_"):
        _show_fact(settings, scope, history, target.json)
        return

    async def work(memory: MemoryService) -> Any:
        await memory.sync()
        return await memory.facts(scope)

    found = _run(settings, work)
    if target.json:
        typer.echo(json.dumps([f.model_dump(mode="json") for f in found], indent=2))
    else:
        from provmem.services.cli.render import render_facts

        render_facts(console, scope, found)


def _show_fact(settings: Settings, fact_id: str, history: bool, json_out: bool) -> None:
    async def work(memory: MemoryService) -> Any:
        await memory.sync()
        return await memory.fact(fact_id)

    detail = _run(settings, work)
    if detail is None:
        _fail(f"fact {fact_id}: not found", code=1)
    if json_out:
        typer.echo(detail.model_dump_json(indent=2))
    else:
        from provmem.services.cli.render import render_fact

        render_fact(console, detail, history)


def _explain(target: Target, evidence_id: str) -> None:
    async def work(memory: MemoryService) -> Any:
        await memory.sync()  # the views name the facts each kept claim became
        return await memory.explain(evidence_id)

    found = target.read(work)
    if found is None:
        _fail(f"turn {evidence_id}: no evidence recorded under this id (see provmem scopes/facts)")
    if target.json:
        typer.echo(found.model_dump_json(indent=2))
    else:
        from provmem.services.cli.render import render_explanation

        render_explanation(console, found)


@app.command()
@shared_options
def evidence(
    evidence_id: Annotated[str, typer.Argument(help="An evidence id (ev_...)")],
    *,
    target: Target,
) -> None:
    """Show one piece of evidence, decrypted, with its source (as JSON)."""
    settings = target.reading()
    quote = _run(settings, lambda m: m.evidence(evidence_id))
    if quote is None:
        _fail(f"evidence {evidence_id}: not found", code=1)
    typer.echo(quote.model_dump_json(indent=2))  # JSON either way: --json for symmetry


@app.command()
@shared_options
def scopes(
    prefix: Annotated[str | None, typer.Argument(help="Only under org or org/project")] = None,
    *,
    target: Target,
) -> None:
    """List the user scopes that have evidence or facts."""
    from provmem.services.api.auth import within
    from provmem.services.replay.checksum import scopes_on_log

    settings = target.reading()

    async def work(memory: MemoryService) -> list[str]:
        c = memory.components
        return await scopes_on_log(c.log, [c.names.turns, c.names.fact_changes])

    found = [s for s in _run(settings, work) if prefix is None or within(s, prefix)]
    if target.json:
        typer.echo(json.dumps(found, indent=2))
        return
    for scope in found:
        typer.echo(scope)
    if not found:
        console.print("[dim]no scopes yet[/dim]")
