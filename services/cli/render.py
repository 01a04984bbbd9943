"""Readable terminal output for results (rich)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from ...core.events import Fact
from ..memory.results import EvidenceItem, EvidenceQuote, FactDetail, PublishResult, Recollection


def render_query(console: Console, result: Recollection) -> None:
    console.print(
        f"[bold]{result.query}[/bold]  [dim]({result.scope}) path={result.path}: "
        f"{'; '.join(result.path_reasons)}[/dim]"
    )
    if not result.bundles:
        console.print("  [yellow]nothing found: insufficient evidence[/yellow]\n")
        return
    for bundle in result.bundles:
        head = bundle.fact.statement if bundle.fact else "[raw evidence]"
        ident = bundle.fact.fact_id if bundle.fact else ""
        console.print(
            f"  [green]●[/green] {head}  [dim]{ident} score={bundle.score:.4f} "
            f"via {','.join(bundle.routes)}[/dim]"
        )
        render_quotes(console, bundle.evidence)
        for previous in bundle.history:
            console.print(
                f"      [dim]was: {previous.statement} ({previous.fact_id}, "
                f"{previous.status.value})[/dim]"
            )
    console.print()


def render_quotes(console: Console, quotes: Sequence[EvidenceQuote | EvidenceItem]) -> None:
    for quote in quotes:
        when = f"{quote.captured_at:%Y-%m-%d %H:%M}"
        role = f" {quote.role}" if isinstance(quote, EvidenceItem) else ""
        console.print(
            f"      [cyan]↳ {quote.speaker}[/cyan] @ {when}"
            f"  [dim]{quote.evidence_id} turn={quote.source_turn_id}{role}[/dim]"
        )
        console.print(f"        “{quote.quote}”")


def render_fact(console: Console, detail: FactDetail, history: bool) -> None:
    fact = detail.fact
    console.print(
        f"[bold]{fact.statement}[/bold]  [dim]{fact.fact_id} v{fact.version} "
        f"{fact.status.value}[/dim]"
    )
    render_quotes(console, detail.evidence)
    if history:
        console.print("[bold]history[/bold]")
        for version in detail.history:
            console.print(
                f"  v{version.version} {version.status.value}: {version.statement}"
                f"  [dim]evidence {', '.join(version.evidence_ids)}[/dim]"
            )
        for previous in detail.supersedes:
            console.print(
                f"  superseded {previous.fact_id} ({previous.status.value}): "
                f"{previous.statement}  [dim]evidence {', '.join(previous.evidence_ids)}[/dim]"
            )


def render_facts(console: Console, scope: str, facts: Sequence[Fact]) -> None:
    table = Table(title=f"facts of {scope}")
    for column in ("fact id", "statement", "status", "v", "evidence"):
        table.add_column(column)
    for fact in facts:
        table.add_row(
            fact.fact_id,
            fact.statement,
            fact.status.value,
            str(fact.version),
            ", ".join(fact.evidence_ids),
        )
    console.print(table)


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
            console.print(f"turn {result.index}: {result.status} {detail}")
    console.print(", ".join(f"{n} {s}" for s, n in counts.items()))
