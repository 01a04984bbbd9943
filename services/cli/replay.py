"""``provmem replay``: rebuild every view from the log, check it, switch it in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from provmem.services.cli.options import (
    Target,
    _fail,
    console,
    ensure_folder_free,
    in_use,
    shared_options,
    unreachable,
)

if TYPE_CHECKING:
    from provmem.config import Settings
    from provmem.services.replay.run import Progress, ReplayPlan, ReplayResult

app = typer.Typer(pretty_exceptions_show_locals=False)

FROM_HELP = (
    "fact-changes: re-materialize the facts view and the vector/keyword index from the "
    "fact-changes topic. turns: re-derive every turn with the current extractor into a new "
    "generation (fresh gate state), check it, then switch it in atomically."
)


REPLAY_HELP = "\n\n".join(
    [
        "Rebuild all views from the log into a new generation and prove it equals the live one.",
        "Ends with a checksum report per scope (facts view and vector-index payloads). The "
        "checkpoint is the replay's consumer-group offsets: after an interruption, run the "
        "same command with --resume.",
        "Exit code 0: equal; 1: some scope differs (the rebuilt generation is switched in all "
        "the same: the log is the source of truth); 3: stopped early (--stop-after).",
    ]
)


@app.command("replay", help=REPLAY_HELP)
@shared_options
def replay_command(
    source: Annotated[str, typer.Option("--from", help=FROM_HELP)] = "fact-changes",
    scopes: Annotated[
        list[str] | None,
        typer.Option(
            "--scope",
            help="Only this org/project/user (repeatable): a check that is never switched in",
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue an interrupted replay from its checkpoint")
    ] = False,
    no_switch: Annotated[
        bool, typer.Option("--no-switch", help="Build and check a generation, then drop it")
    ] = False,
    stop_after: Annotated[
        int | None,
        typer.Option("--stop-after", min=1, help="Stop after N records, as an interruption would"),
    ] = None,
    *,
    target: Target,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, TimeRemainingColumn
    from rich.progress import Progress as ProgressBar

    from provmem.services.replay.run import MODES, ReplayPlan

    if source not in MODES:
        _fail(f"--from: must be one of {', '.join(MODES)}, not {source!r}")
    plan = ReplayPlan(source, tuple(scopes or ()), resume, not no_switch, stop_after)
    settings = target.settings()
    with ProgressBar(
        *ProgressBar.get_default_columns()[:1],
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console.real,
        transient=True,
        disable=target.json,
    ) as bar:
        task = bar.add_task(f"replaying {source}", total=None)

        def advance(count: int, total: int) -> None:
            bar.update(task, advance=count, total=max(total, 1))

        result = _replay(settings, plan, advance)
    _render(result, target.json)
    raise typer.Exit(0 if result.report.equal else 1)


async def _replay_alone(settings: Settings, plan: ReplayPlan, advance: Progress) -> ReplayResult:
    """A replay never runs beside a process serving the folder: it would switch the
    generation under the API's feet and leave it answering from dropped views."""
    from provmem.services.replay.run import refuse, replay

    refuse(settings, plan)
    await ensure_folder_free(settings)
    return await replay(settings, plan, advance)


def _replay(settings: Settings, plan: ReplayPlan, advance: Progress) -> ReplayResult:
    import asyncio

    from provmem.services.replay.generations import ReplayError
    from provmem.services.replay.run import ReplayInterrupted

    try:
        return asyncio.run(_replay_alone(settings, plan, advance))
    except ReplayInterrupted as stopped:
        console.print(f"[yellow]stopped[/yellow] {stopped}; run again with --resume")
        raise typer.Exit(3) from stopped
    except RuntimeError as error:
        from provmem.infra.vectors.edge import VectorIndexLocked

        if not isinstance(error, VectorIndexLocked):
            raise
        _fail(in_use(error).replace("do this", "start the replay") + " (POST /v1/replays)")
        raise  # unreachable: _fail exits
    except (ReplayError, LookupError, OSError) as error:
        _fail(str(error))
        raise  # unreachable: _fail exits
    except Exception as error:
        line = unreachable(settings, error)  # Redis, the broker or a Qdrant server
        if line is None:
            raise
        _fail(line)


def _render(result: ReplayResult, json_out: bool) -> None:
    if json_out:
        typer.echo(result.model_dump_json(indent=2))
        return
    rate = result.facts / result.seconds if result.seconds else 0.0
    console.print(
        f"replay {result.job_id} --from {result.mode}: {result.records} records, "
        f"{result.facts} fact changes in {result.seconds:.2f} s ({rate:.0f} facts/s)"
        + (" (resumed)" if result.resumed else "")
    )
    from rich.table import Table

    table = Table("scope", "facts", "points", "facts view", "vector index", "equal")
    for check in result.report.scopes:
        table.add_row(
            check.scope,
            f"{check.facts}/{check.rebuilt_facts}",
            f"{check.points}/{check.rebuilt_points}",
            _pair(check.facts_sha256, check.rebuilt_facts_sha256),
            _pair(check.points_sha256, check.rebuilt_points_sha256),
            "[green]yes[/green]" if check.equal else "[red]NO[/red]",
        )
    console.print(table)
    verdict = "[green]equal[/green]" if result.report.equal else "[red]NOT equal[/red]"
    console.print(f"rebuilt views {verdict} to the live ones; {result.note}")


def _pair(live: str, rebuilt: str) -> str:
    return live[:12] if live == rebuilt else f"{live[:12]} ≠ {rebuilt[:12]}"
