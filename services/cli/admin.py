"""Operator commands of the ``provmem`` CLI: worker, api, calibrate, erase, audit, eval."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from provmem.services.cli.options import (
    BrokerOpt,
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
    from provmem.services.memory.memory import MemoryService
    from provmem.streams.erasure.audit import Residue

app = typer.Typer(pretty_exceptions_show_locals=False)


def _dependencies(settings: Settings) -> list[tuple[str, Callable[[], Awaitable[object]]]]:
    """What a worker needs, each with a check: the broker (its topics), Redis, Qdrant."""
    from provmem.streams.runtime.dependencies import dependency_checks

    return list(dependency_checks(settings, create_topics=True).values())


@app.command()
def worker(
    broker: BrokerOpt = None,
    loglevel: Annotated[str, typer.Option(help="faust log level")] = "warning",
) -> None:
    """Start a faust worker of the distributed runtime (Kafka, Redis, Qdrant). It creates
    its data folder, checks every dependency first (one line naming the one it cannot
    reach) and logs ``worker.ready`` with its partitions once they are assigned."""
    import asyncio
    import logging

    from provmem.services.memory.logs import configure_logging
    from provmem.streams.faust.app import run_worker

    settings = _settings("kafka", None, broker)
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        _fail(f"data folder {settings.data_dir}: cannot create it ({error.strerror})")
    for name, check in _dependencies(settings):
        try:
            asyncio.run(asyncio.wait_for(check(), 30))
        except Exception as error:  # noqa: BLE001 - any failure of a dependency, one line
            _fail(f"{name}: unreachable ({str(error) or type(error).__name__})")
    if logging.getLevelName(settings.log_level.upper()) > logging.INFO:
        configure_logging("INFO")  # the ready line and the worker's progress are info
    run_worker(settings, loglevel)


@app.command()
def calibrate(
    split: Annotated[
        Path,
        typer.Argument(
            help="Labelled JSONL: store, candidate, duplicate", exists=True, dir_okay=False
        ),
    ],
    env_file: Annotated[Path, typer.Option("--env-file", help="Settings file to write")] = Path(
        ".env"
    ),
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report without writing")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Fit the gate's κ, threshold and margin on a labelled deployment split.

    Never calibrate on an evaluation split: the numbers it reports would flatter you.
    """
    from provmem.infra.models.embedding import MiniLMEmbedder
    from provmem.services.memory.logs import configure_logging
    from provmem.services.tools.calibrate import calibrate as fit_gate
    from provmem.services.tools.calibrate import write_settings

    configure_logging()  # logs on stderr: stdout is the result

    try:
        result = fit_gate(split, MiniLMEmbedder())
    except (ValueError, KeyError) as error:
        _fail(f"{split}: {error}")
    config = result.config
    if json_out:
        fitted = {"kappa": config.kappa, "threshold": config.threshold, "margin": config.margin}
        shares = {"uncertain_share": result.uncertain_share, "items": result.items}
        quality = {"balanced_accuracy": result.balanced_accuracy, **shares}
        typer.echo(json.dumps({**fitted, **quality, "written": not dry_run}, indent=2))
    else:
        console.print(
            f"κ={config.kappa} threshold={config.threshold} margin={config.margin} "
            f"balanced accuracy={result.balanced_accuracy:.3f} "
            f"uncertain band={result.uncertain_share:.1%} ({result.items} items)"
        )
    if not dry_run:
        write_settings(result, env_file)
        if not json_out:
            console.print(f"wrote {env_file}")


@app.command()
@shared_options
def erase(
    scope: Annotated[
        str,
        typer.Argument(
            help="org/project/user whose evidence to erase; with --subject also org or "
            "org/project: every subject in it"
        ),
    ],
    evidence_ids: Annotated[
        list[str] | None, typer.Option("--evidence", help="Erase these evidence ids (repeatable)")
    ] = None,
    session: Annotated[str | None, typer.Option(help="Erase one session's turns")] = None,
    subject: Annotated[
        bool,
        typer.Option("--subject", help="Erase everything of the subject and destroy its data key"),
    ] = False,
    reason: Annotated[str, typer.Option(help="Why (kept on the request, not the receipt)")] = "",
    *,
    target: Target,
) -> None:
    """File a compliance erasure and print its receipt (no personal data in it)."""
    from provmem.services.erasure.subject import erasure_request
    from provmem.services.memory.results import ErasureQueued

    chosen = [bool(evidence_ids), session is not None, subject]
    if sum(chosen) != 1:
        _fail("choose exactly one of --evidence, --session or --subject")
    settings = target.settings()
    if subject and scope.count("/") < 2:
        _erase_every_subject(settings, scope, reason)
        return
    try:
        request = erasure_request(scope, evidence_ids or [], session, subject, reason)
    except ValueError as error:
        _fail(str(error))
    receipt = _run(settings, lambda m: m.file_erasure(request))
    if isinstance(receipt, ErasureQueued):
        if target.json:
            typer.echo(json.dumps({"request_id": receipt.request_id, "status": "queued"}))
        else:
            console.print(f"filed {receipt.request_id} on the erasure-requests topic")
        return
    typer.echo(receipt.model_dump_json(indent=2))
    if receipt.residue_found:
        raise typer.Exit(1)


def _erase_every_subject(settings: Settings, scope: str, reason: str) -> None:
    """``provmem erase ORG[/PROJECT] --subject``: one subject erasure per subject in it."""
    from provmem.services.erasure.scope import erase_scope, organisation_or_project

    try:
        organisation_or_project(scope)
    except ValueError as error:
        _fail(str(error))
    filed = _run(settings, lambda m: erase_scope(m, scope, reason))
    typer.echo(filed.model_dump_json(indent=2))
    if filed.residue_found:
        raise typer.Exit(1)


audit_app = typer.Typer(
    pretty_exceptions_show_locals=False, help="Verify that erasures left nothing behind."
)
app.add_typer(audit_app, name="audit")


@audit_app.command("erasure")
@shared_options
def audit_erasure(
    request_id: Annotated[str, typer.Argument(help="The erasure request id (er_...)")],
    *,
    target: Target,
) -> None:
    """Scan every store for traces of an erasure's evidence; exit 1 if any remain."""
    settings = target.reading()

    async def audited(memory: MemoryService) -> tuple[Residue, dict[str, list[str]]]:
        eraser = memory.eraser
        return await eraser.audit(request_id), await eraser.erased(request_id)

    residue, erased = _run(settings, audited)
    report: dict[str, Any] = {"request_id": request_id, "status": _audit_status(residue)}
    report |= {"residue": residue.found, "total": residue.total}
    report["awaiting_compaction"] = residue.awaiting.to_json()
    report["findings"] = list(residue.findings)  # store, location, offset, kind, term
    report["erased"] = erased
    typer.echo(json.dumps(report, indent=2))
    if residue.total:
        raise typer.Exit(1)


def _audit_status(residue: Residue) -> str:
    """One line: residue, records that still open until the broker compacts, or clean."""
    if residue.total:
        return f"residue found ({residue.total})"
    awaiting = residue.awaiting
    if awaiting.records:
        hours = (awaiting.bound_ms or 0) / 3_600_000
        return f"awaiting broker compaction ({awaiting.records} records, bound {hours:g} h)"
    return "clean"


@app.command("eval")
@shared_options
def evaluate(
    dataset: Annotated[
        Path, typer.Argument(help="A benchmark in LoCoMo format", exists=True, dir_okay=False)
    ],
    out: Annotated[Path, typer.Option("--out", help="Folder for the report and plots")] = Path(
        "eval-report"
    ),
    *,
    target: Target,
) -> None:
    """Ingest a benchmark through the real pipeline, run its questions, write a report
    (JSON, Markdown) and plots, with failures attributed to the layer that lost them."""
    run_evaluation = _evaluation()
    with _data_folder(target.data_dir) as folder:
        settings = target.settings(folder)
        report = _run(settings, lambda m: run_evaluation(m, dataset, out, console.real))
    if target.json:
        typer.echo(json.dumps({"report_dir": str(out), "summary": report.summary()}, indent=2))
        return
    console.print(report.summary())
    console.print(f"report and plots in {out}")


@contextmanager
def _data_folder(given: Path | None) -> Iterator[Path]:
    """``given``, else a scratch data folder removed afterwards: the benchmark's turns are
    evidence like any other (a user's own conversations, with the master key beside
    them), so none stay behind."""
    if given is not None:
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="provmem-eval-") as scratch:
        yield Path(scratch)


def _evaluation() -> Any:
    """``run_evaluation``, or a clear exit when the optional ``[eval]`` extra is missing."""
    try:
        from provmem.services.tools.evaluation import run_evaluation
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] != "matplotlib":
            raise
        _fail("provmem eval needs matplotlib for its plots: pip install 'provmem\\[eval]'")
    return run_evaluation


@app.command()
@shared_options
def api(
    host: Annotated[str, typer.Option(help="Interface to bind")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8080,
    workers: Annotated[
        int, typer.Option(min=1, help="Worker processes, all serving the one data folder")
    ] = 1,
    *,
    target: Target,
) -> None:
    """Serve the HTTP API (/v1, OpenAPI at /docs, the inspector at /ui); logs each
    request on stderr. ``--workers N``: N processes on one port and one data folder
    (the first to open it derives, the others read it: docs/ARCHITECTURE.md)."""
    import copy

    import uvicorn

    from provmem.services.api.app import WORKER_FACTORY, create_api

    settings = target.settings()
    base = f"http://{host}:{port}"
    if target.json:
        typer.echo(json.dumps({"api": f"{base}/v1", "docs": f"{base}/docs", "ui": f"{base}/ui"}))
    else:
        typer.echo(f"provmem API on {base}/v1  (OpenAPI {base}/docs, inspector {base}/ui)")
    logs = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    logs["handlers"]["access"]["stream"] = "ext://sys.stderr"  # stdout: the URL (or JSON)
    served: Any = create_api(settings)
    if workers > 1:  # each worker imports the factory and builds its settings again
        os.environ.update(_chosen(settings))
        served = WORKER_FACTORY
    uvicorn.run(
        served,
        factory=workers > 1,
        workers=workers,
        host=host,
        port=port,
        log_level="info",
        access_log=True,
        log_config=logs,
    )


def _chosen(settings: Settings) -> dict[str, str]:
    """What the command's options chose, as the environment a worker process reads its
    settings from (the rest it reads as this process did: the same environment)."""
    return {
        "PROVMEM_RUNTIME": settings.runtime,
        "PROVMEM_DATA_DIR": str(settings.data_dir),
        "PROVMEM_BROKER_URL": settings.broker_url,
    }
