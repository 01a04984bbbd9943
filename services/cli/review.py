"""Correction and review commands of the ``provmem`` CLI: correct, retract, review,
approve, reject. Each records who acted, when and why as evidence of its own."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated

import typer

from provmem.services.cli.options import Target, console, shared_options

if TYPE_CHECKING:
    from provmem.services.memory.memory import MemoryService
    from provmem.services.memory.results import ActionResult, FactDetail

app = typer.Typer(pretty_exceptions_show_locals=False)

FactArg = Annotated[str, typer.Argument(help="A fact id (fact_...)")]
ByOpt = Annotated[str, typer.Option("--by", help="Who acts (recorded as the speaker)")]
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why")]
ScopeOpt = Annotated[
    str | None, typer.Option("--scope", help="The caller's scope; refuses other tenants' facts")
]


def _act(work: Callable[[MemoryService], Awaitable[ActionResult]], target: Target) -> None:
    result = target.run(work)
    if target.json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        console.print(
            f"{result.action} recorded for {result.fact_id} as evidence {result.evidence_id}"
        )


@app.command()
@shared_options
def correct(
    fact_id: FactArg,
    statement: Annotated[str, typer.Argument(help="What is right instead")],
    by: ByOpt = "user",
    reason: ReasonOpt = "",
    scope: ScopeOpt = None,
    *,
    target: Target,
) -> None:
    """Correct a fact: the new statement supersedes it; its history is kept."""
    _act(lambda m: m.correct(fact_id, statement, by=by, reason=reason, scope=scope), target)


@app.command()
@shared_options
def retract(
    fact_id: FactArg,
    reason: Annotated[str, typer.Option("--reason", help="Why the fact is wrong")],
    by: ByOpt = "user",
    scope: ScopeOpt = None,
    *,
    target: Target,
) -> None:
    """Retract a fact: it leaves memory (its history stays); its evidence is untouched."""
    _act(lambda m: m.retract(fact_id, by=by, reason=reason, scope=scope), target)


@app.command()
@shared_options
def review(
    scope: Annotated[str, typer.Argument(help="org/project/user")],
    *,
    target: Target,
) -> None:
    """List the facts of a scope waiting for review, with the reason and the evidence."""

    async def work(memory: MemoryService) -> list[FactDetail]:
        await memory.sync()
        return await memory.review_queue(scope)

    queue = target.read(work)
    if target.json:
        typer.echo(json.dumps([d.model_dump(mode="json") for d in queue], indent=2))
        return
    if not queue:
        console.print(f"nothing to review in {scope}")
    for detail in queue:
        from provmem.services.cli.render import render_quotes, shown

        console.print(f"[bold]{detail.fact.fact_id}[/bold]  {shown(detail.fact.statement)}")
        console.print(f"  [yellow]{shown(detail.fact.review_reason or '')}[/yellow]")
        render_quotes(console, detail.evidence)


@app.command()
@shared_options
def approve(
    fact_id: FactArg,
    statement: Annotated[
        str | None, typer.Option("--statement", help="Approve this edited statement instead")
    ] = None,
    by: ByOpt = "user",
    reason: ReasonOpt = "",
    scope: ScopeOpt = None,
    *,
    target: Target,
) -> None:
    """Approve a needs-review fact (through the write gate; an edit must fit its evidence)."""
    _act(
        lambda m: m.approve(fact_id, by=by, statement=statement, reason=reason, scope=scope), target
    )


@app.command()
@shared_options
def reject(
    fact_id: FactArg,
    reason: Annotated[str, typer.Option("--reason", help="Why it is rejected")],
    by: ByOpt = "user",
    scope: ScopeOpt = None,
    *,
    target: Target,
) -> None:
    """Reject a needs-review fact: it is deleted with the reason."""
    _act(lambda m: m.reject(fact_id, by=by, reason=reason, scope=scope), target)
