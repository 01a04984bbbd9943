"""`facts --history` shows a fact's conflicts (rendering only)."""

from __future__ import annotations

from rich.console import Console

from provmem.services.cli.render import render_fact
from provmem.services.memory.results import FactDetail
from tests.unit.test_retrieval import _fact


def test_history_names_the_facts_a_fact_conflicts_with() -> None:
    fact = _fact("f1", "Alice has never written any Flask routes.", conflicts_with=("f2",))
    console = Console(record=True, width=200)
    render_fact(console, FactDetail(fact=fact, evidence=(), history=(fact,)), history=True)
    assert "conflicts with f2" in console.export_text()
