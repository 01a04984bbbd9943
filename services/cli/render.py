"""Readable terminal output for results (rich)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from provmem.core.events import Fact
from provmem.services.memory.results import (
    ClauseExplained,
    EvidenceItem,
    EvidenceQuote,
    FactDetail,
    PublishResult,
    Recollection,
    TurnExplained,
)

# Control characters (ANSI escapes, carriage returns) and bidi overrides in stored text
# would drive the terminal; they are shown escaped. Newlines and tabs stay.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def shown(text: str) -> str:
    """``text`` safe for a terminal through rich: controls escaped (ESC as ``\\x1b``),
    markup escaped."""
    return escape(_CONTROL.sub(_escaped, text))


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def render_query(console: Console, result: Recollection) -> None:
    console.print(
        f"[bold]{shown(result.query)}[/bold]  [dim]({result.scope}) path={result.path}: "
        f"{shown('; '.join(result.path_reasons))}[/dim]"
    )
    if not result.bundles:
        console.print("  [yellow]nothing found: insufficient evidence[/yellow]\n", soft_wrap=True)
        return
    for bundle in result.bundles:
        head = shown(bundle.fact.statement) if bundle.fact else "\\[raw evidence]"
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
                f"      [dim]was: {shown(previous.statement)} ({previous.fact_id}, "
                f"{previous.status.value})[/dim]"
            )
    console.print()


def render_quotes(console: Console, quotes: Sequence[EvidenceQuote | EvidenceItem]) -> None:
    for quote in quotes:
        when = f"{quote.captured_at:%Y-%m-%d %H:%M}"
        role = f" {quote.role}" if isinstance(quote, EvidenceItem) else ""
        console.print(
            f"      [cyan]↳ {shown(quote.speaker)}[/cyan] @ {when}"
            f"  [dim]{quote.evidence_id} turn={shown(quote.source_turn_id)}{role}[/dim]"
        )
        console.print(f"        “{shown(quote.quote)}”")


def render_fact(console: Console, detail: FactDetail, history: bool) -> None:
    fact = detail.fact
    console.print(
        f"[bold]{shown(fact.statement)}[/bold]  [dim]{fact.fact_id} v{fact.version} "
        f"{fact.status.value}[/dim]"
    )
    render_quotes(console, detail.evidence)
    if history:
        console.print("[bold]history[/bold]", soft_wrap=True)
        for version in detail.history:
            console.print(
                f"  v{version.version} {version.status.value}: {shown(version.statement)}"
                f"  [dim]evidence {', '.join(version.evidence_ids)}[/dim]"
            )
        for previous in detail.supersedes:
            console.print(
                f"  superseded {previous.fact_id} ({previous.status.value}): "
                f"{shown(previous.statement)}  "
                f"[dim]evidence {', '.join(previous.evidence_ids)}[/dim]"
            )
        for other in fact.conflicts_with:
            console.print(f"  [yellow]conflicts with {other}[/yellow] (both active: which holds?)")


def render_explanation(console: Console, turn: TurnExplained) -> None:
    """Each clause of a turn: kept -> its claim (and the facts it became), or dropped -> why."""
    console.print(
        f"[bold]{turn.evidence_id}[/bold]  [dim]turn={shown(turn.source_turn_id)} "
        f"{shown(turn.speaker)} ({turn.role}) {turn.captured_at.isoformat()} "
        f"{turn.extraction_version}[/dim]",
        soft_wrap=True,
    )
    if not turn.clauses:
        console.print(
            f"  [dim]no clauses: a {turn.action} turn of a {turn.role} yields no claims[/dim]"
        )
    for clause in turn.clauses:
        console.print(f"  [bold]{shown(clause.text)}[/bold]", soft_wrap=True)
        console.print(f"    {_fate(clause)}", soft_wrap=True)


def _fate(clause: ClauseExplained) -> str:
    if not clause.kept:
        detail = f" [dim]({shown(clause.detail)})[/dim]" if clause.detail else ""
        return f"[yellow]dropped[/yellow] {clause.why}: {shown(clause.reason or '')}{detail}"
    facts = f"  [dim]{', '.join(clause.fact_ids)}[/dim]" if clause.fact_ids else ""
    held = clause.review_reason
    review = f"  [yellow]needs review: {shown(held)}[/yellow]" if held else ""
    return f"[green]kept[/green] -> {shown(clause.statement or '')}{facts}{review}"


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
        console.print(f"    {shown(fact.statement)}", soft_wrap=True, highlight=False)
        evidence = ", ".join(fact.evidence_ids)
        console.print(f"    [dim]evidence {evidence}[/dim]", soft_wrap=True, highlight=False)


def write_json(data: object) -> None:
    """Machine-readable output on stdout (no colour, no wrapping)."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def render_publish(
    console: Console,
    results: Sequence[PublishResult],
    json_out: bool,
    summary_only: bool = False,
    where: Sequence[str] | None = None,
) -> None:
    """Each turn's result (``where`` names its file line), then the counts."""
    labels = list(where) if where is not None else [f"turn {r.index}" for r in results]
    if json_out:
        rows = [r.model_dump(mode="json") for r in results]
        if where is not None:
            rows = [row | {"where": where[r.index]} for row, r in zip(rows, results, strict=True)]
        write_json(rows)
        return
    statuses = ("accepted", "duplicate", "conflict", "rejected")
    counts = {s: sum(r.status == s for r in results) for s in statuses}
    for result in results:
        if result.status in ("rejected", "conflict") or not summary_only:
            detail = shown(result.error or result.evidence_id or "")
            console.print(f"{labels[result.index]}: {result.status} {detail}", highlight=False)
    console.print(", ".join(f"{n} {s}" for s, n in counts.items() if n or s == "accepted"))
