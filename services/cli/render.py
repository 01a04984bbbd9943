"""Readable terminal output for results (rich)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from rich.console import Console

from ...core.events import Fact
from ..memory.results import EvidenceItem, EvidenceQuote, FactDetail, PublishResult, Recollection


def render_query(console: Console, result: Recollection) -> None:
    console.print(
        f"[bold]{result.query}[/bold]  [dim]({result.scope}) path={result.path}: "
        f"{'; '.join(result.path_reasons)}[/dim]",
        soft_wrap=True,
    )
    if not result.bundles:
        console.print("  [yellow]nothing found: insufficient evidence[/yellow]\n", soft_wrap=True)
        return
    for bundle in result.bundles:
        head = bundle.fact.statement if bundle.fact else "[raw evidence]"
        ident = bundle.fact.fact_id if bundle.fact else ""
        console.print(
            f"  [green]●[/green] {head}  [dim]{ident} score={bundle.score:.4f} "
            f"via {','.join(bundle.routes)}[/dim]",
            soft_wrap=True,
        )
        render_quotes(console, bundle.evidence)
        if bundle.conflicts:
            console.print(f"      [yellow]conflicts with {', '.join(bundle.conflicts)}[/yellow]")
        for previous in bundle.history:
            console.print(
                f"      [dim]was: {previous.statement} ({previous.fact_id}, "
                f"{previous.status.value})[/dim]",
                soft_wrap=True,
            )
    console.print()


def render_quotes(console: Console, quotes: Sequence[EvidenceQuote | EvidenceItem]) -> None:
    for quote in quotes:
        when = f"{quote.captured_at:%Y-%m-%d %H:%M}"
        role = f" {quote.role}" if isinstance(quote, EvidenceItem) else ""
        console.print(
            f"      [cyan]↳ {quote.speaker}[/cyan] @ {when}"
            f"  [dim]{quote.evidence_id} turn={quote.source_turn_id}{role}[/dim]",
            soft_wrap=True,
        )
        console.print(f"        “{quote.quote}”", soft_wrap=True)


def render_fact(console: Console, detail: FactDetail, history: bool) -> None:
    fact = detail.fact
    console.print(
        f"[bold]{fact.statement}[/bold]  [dim]{fact.fact_id} v{fact.version} "
        f"{fact.status.value}[/dim]",
        soft_wrap=True,
    )
    render_quotes(console, detail.evidence)
    if history:
        console.print("[bold]history[/bold]", soft_wrap=True)
        for version in detail.history:
            console.print(
                f"  v{version.version} {version.status.value}: {version.statement}"
                f"  [dim]evidence {', '.join(version.evidence_ids)}[/dim]",
                soft_wrap=True,
            )
        for previous in detail.supersedes:
            console.print(
                f"  superseded {previous.fact_id} ({previous.status.value}): "
                f"{previous.statement}  [dim]evidence {', '.join(previous.evidence_ids)}[/dim]",
                soft_wrap=True,
            )
        for other in fact.conflicts_with:
            console.print(f"  [yellow]conflicts with {other}[/yellow] (both active: which holds?)")


def render_facts(console: Console, scope: str, facts: Sequence[Fact]) -> None:
    """One block per fact; ids are printed whole (soft wrap: the terminal folds a long
    line, rich never cuts it), so they can be copied at any width."""
    console.print(f"[bold]facts of {scope}[/bold] ({len(facts)})", soft_wrap=True)
    for fact in facts:
        console.print(
            f"[green]●[/green] {fact.fact_id}  [dim]{fact.status.value} v{fact.version}[/dim]",
            soft_wrap=True,
            highlight=False,
        )
        console.print(f"    {fact.statement}", soft_wrap=True, highlight=False)
        evidence = ", ".join(fact.evidence_ids)
        console.print(f"    [dim]evidence {evidence}[/dim]", soft_wrap=True, highlight=False)


def write_json(data: object) -> None:
    """Machine-readable output on stdout (no colour, no wrapping)."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def render_publish(
    console: Console, results: Sequence[PublishResult], json_out: bool, summary_only: bool = False
) -> None:
    if json_out:
        write_json([r.model_dump(mode="json") for r in results])
        return
    counts = {s: sum(r.status == s for r in results) for s in ("accepted", "duplicate", "rejected")}
    for result in results:
        if result.status == "rejected" or not summary_only:
            detail = result.error or result.evidence_id
            console.print(f"turn {result.index}: {result.status} {detail}", soft_wrap=True)
    console.print(", ".join(f"{n} {s}" for s, n in counts.items()), soft_wrap=True)
