"""``provmem dlq``: inspect dead letters and re-drive them onto their original topic."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from provmem.services.cli.options import Target, _fail, console, shared_options

if TYPE_CHECKING:
    from provmem.services.memory.dlq import DeadLetter, DeadLetters, Redriven
    from provmem.services.memory.memory import MemoryService

app = typer.Typer(
    pretty_exceptions_show_locals=False,
    help="Dead letters: records a stage could not process, with the reason.",
)

AllOpt = Annotated[bool, typer.Option("--all", help="Include letters already re-driven")]


def _letters(memory: MemoryService) -> DeadLetters:
    from provmem.services.memory.dlq import DeadLetters

    components = memory.components
    return DeadLetters(components.log, components.names)


@app.command("list")
@shared_options
def list_letters(
    include_redriven: AllOpt = False,
    *,
    target: Target,
) -> None:
    """Dead letters, oldest first: offset, stage, origin and reason."""

    async def work(memory: MemoryService) -> list[DeadLetter]:
        await memory.sync()
        return await _letters(memory).letters(include_redriven=include_redriven)

    letters = target.run(work)
    if target.json:
        typer.echo(json.dumps([x.model_dump() for x in letters], indent=2))
        return
    if not letters:
        console.print("no dead letters")
    from provmem.services.cli.render import shown as printable

    for x in letters:
        done = " [dim](re-driven)[/dim]" if x.redriven else ""
        origin = f"{x.topic}[{x.partition}]@{x.origin_offset}"
        console.print(
            f"[bold]{x.offset}[/bold] {x.stage} {origin}{done}\n  [red]{printable(x.error)}[/red]"
        )


@app.command()
@shared_options
def show(
    offset: Annotated[int, typer.Argument(help="The dead letter's offset (from dlq list)")],
    *,
    target: Target,
) -> None:
    """One dead letter with its original record's value (as text where it is text)."""
    letter = target.run(lambda m: _letters(m).letter(offset))
    shown = letter.model_dump()
    raw = base64.b64decode(letter.value) if letter.value else b""
    shown["value_text"] = raw.decode("utf-8", "replace") if raw else None
    typer.echo(json.dumps(shown, indent=2))  # JSON either way: --json for symmetry


@app.command()
@shared_options
def redrive(
    offsets: Annotated[list[int], typer.Argument(help="Dead-letter offsets to re-drive")],
    value_file: Annotated[
        Path | None,
        typer.Option("--value-file", help="Re-drive this (fixed) record value instead"),
    ] = None,
    *,
    target: Target,
) -> None:
    """Append the letters' records to the topic they came from; the pipeline retries them."""
    if value_file is not None and not value_file.is_file():
        _fail(f"--value-file: {value_file} is not a file")
    value = value_file.read_bytes() if value_file is not None else None

    async def work(memory: MemoryService) -> list[Redriven]:
        done = await _letters(memory).redrive(offsets, value=value)
        await memory.sync()
        return done

    done = target.run(work)
    if target.json:
        typer.echo(json.dumps([x.model_dump() for x in done], indent=2))
        return
    for x in done:
        console.print(f"re-drove {x.letter} to {x.topic}[{x.partition}]@{x.offset}")
