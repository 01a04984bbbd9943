"""The report of ``provmem eval``: JSON, Markdown and PNG plots (matplotlib, Agg backend)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.figure import Figure  # noqa: E402

from provmem.services.tools.evaluation_data import ADVERSARIAL_LABEL, CATEGORIES  # noqa: E402
from provmem.services.tools.evaluation_metrics import ATTRIBUTION_K, BUDGETS, VERDICTS, Layer  # noqa: E402

Curve = Sequence[tuple[float, float]]


def recall_vs_tokens(curves: Mapping[str, Curve], path: Path, title: str) -> Path:
    """Evidence recall against context tokens, one line per system."""
    figure, axes = plt.subplots(figsize=(7, 4.5), dpi=120)
    for name, points in curves.items():
        xs, ys = zip(*points, strict=True) if points else ((), ())
        axes.plot(xs, ys, marker="o", label=name, linewidth=2 if name == "provmem" else 1.2)
    budgets = sorted({x for points in curves.values() for x, _ in points})
    axes.set_xscale("log", base=2)
    axes.set_xticks(budgets, labels=[f"{b:g}" for b in budgets])
    axes.set_xlabel("context budget (tokens)")
    axes.set_ylabel("evidence recall")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="lower right")
    _save(figure, path)
    return path


def failures_by_layer(counts: Mapping[str, int], path: Path, title: str) -> Path:
    """Missed gold turns per layer that first lost them."""
    figure, axes = plt.subplots(figsize=(7, 4.5), dpi=120)
    labels, values = list(counts), list(counts.values())
    bars = axes.bar(labels, values, color="#4C72B0")
    axes.bar_label(bars)
    axes.set_ylabel("missed gold turns")
    axes.set_title(title)
    axes.tick_params(axis="x", labelrotation=15)
    axes.grid(True, axis="y", alpha=0.3)
    _save(figure, path)
    return path


def _save(figure: Figure, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


@dataclass(frozen=True)
class Miss:
    """A gold turn missing from the top k, and the first layer that lost it."""

    sample_id: str
    question: str
    category: str
    dia_id: str
    evidence_id: str
    layer: str
    fact_ids: tuple[str, ...]
    rank: int | None  # where it did appear among the 20 returned bundles, if anywhere


@dataclass
class EvaluationReport:
    """The measurements of one ``provmem eval`` run and their JSON/Markdown/PNG forms."""

    dataset: str
    samples: int
    turns: int
    systems: dict[str, dict[str, dict[str, float]]]
    store: dict[str, int]
    gate: dict[str, int]
    write_ms_per_turn: float
    llm_calls: int
    updates: dict[str, int]
    misses: list[Miss]
    seconds: float
    plots: list[str] = field(default_factory=list)

    def metrics(self) -> dict[str, Any]:
        """The headline metrics, keyed as in report.json."""
        ours = self.systems["provmem"]
        overall = ours.get("overall", {})
        return {
            "memory": self._memory(),
            "gate": self._gate(),
            "write_cost": {
                "ms_per_turn": self.write_ms_per_turn,
                "tokens_per_turn": 0 if self.llm_calls == 0 else None,
                "llm_calls_per_turn": self.llm_calls / max(1, self.turns),
            },
            "temporal_update": self._updates(),
            "abstention": ours.get(ADVERSARIAL_LABEL, {"n": 0, "abstention_rate": 0.0}),
            "tiermem": {
                k: overall.get(k, 0.0)
                for k in ("unverifiable_omission_rate", "escalation_rate", "false_cache_hit_rate")
            },
            "failures": self._failures(),
        }

    def _memory(self) -> dict[str, float]:
        active = self.store.get("status:active", 0)
        facts = self.store.get("facts", 0)
        return {
            "facts": facts,
            "active_facts": active,
            "provenance_coverage": self.store.get("grounded", 0) / max(1, active),
            "unsupported_extraction_rate": self.store.get("unsupported", 0) / max(1, facts),
            "duplicate_memory_rate": self.store.get("duplicates", 0) / max(1, active),
        }

    def _gate(self) -> dict[str, Any]:
        candidates = sum(self.gate.get(v, 0) for v in VERDICTS)
        return {
            "decisions": {v: self.gate.get(v, 0) for v in VERDICTS},
            "candidates": candidates,
            "advisor_calls": self.gate.get("advisor_calls", 0),
            "merge_call_rate": self.gate.get("advisor_calls", 0) / max(1, candidates),
        }

    def _updates(self) -> dict[str, float]:
        n = self.updates.get("n", 0)
        return {
            "n": n,
            "successor_first_rate": self.updates.get("successor_first", 0) / max(1, n),
            "superseded_surfaced": self.updates.get("superseded_surfaced", 0),
            "no_active_successor": self.updates.get("no_active_successor", 0),
        }

    def _failures(self) -> dict[str, Any]:
        return {
            "k": ATTRIBUTION_K,
            "questions": len({(x.sample_id, x.question) for x in self.misses}),
            "missed_turns": len(self.misses),
            "by_layer": self.layer_counts(),
            "retrieval_ranked_11_20": sum(
                x.layer == Layer.RETRIEVAL.value and x.rank is not None for x in self.misses
            ),
        }

    def layer_counts(self) -> dict[str, int]:
        counts = Counter(x.layer for x in self.misses)
        return {layer.value: counts.get(layer.value, 0) for layer in Layer}

    def to_json(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "samples": self.samples,
            "turns": self.turns,
            "runtime_s": round(self.seconds, 1),
            **self.metrics(),
            "systems": self.systems,
            "misses": [asdict(x) for x in self.misses],
            "plots": self.plots,
        }

    def summary(self) -> str:
        """The Markdown summary: recall per category, memory quality, failure layers."""
        return "\n".join([*self._heading(), "", *self._recall_table(), "", *self._quality()])

    def markdown(self) -> str:
        parts = [self.summary(), "", *self._budget_table(), "", *self._diagnostics_table()]
        parts += ["", *self._examples()]
        parts += ["", *(f"![{name}]({name})" for name in self.plots)]
        return "\n".join(parts) + "\n"

    def write(self, out_dir: Path) -> None:
        """report.json, report.md and the PNG plots into ``out_dir``."""
        out_dir.mkdir(parents=True, exist_ok=True)
        self.plots = [self._plot_recall(out_dir).name, self._plot_failures(out_dir).name]
        (out_dir / "report.json").write_text(json.dumps(self.to_json(), indent=2) + "\n")
        (out_dir / "report.md").write_text(self.markdown())

    def _plot_recall(self, out_dir: Path) -> Path:
        curves = {
            name: [(b, rows["overall"][f"recall@{b}tok"]) for b in BUDGETS]
            for name, rows in self.systems.items()
            if "overall" in rows
        }
        title = f"{self.dataset}: evidence recall against context tokens"
        return recall_vs_tokens(curves, out_dir / "recall_vs_tokens.png", title)

    def _plot_failures(self, out_dir: Path) -> Path:
        title = f"{self.dataset}: missed gold turns (top {ATTRIBUTION_K}) by first losing layer"
        return failures_by_layer(self.layer_counts(), out_dir / "failures_by_layer.png", title)

    def _heading(self) -> list[str]:
        ours = self.systems["provmem"]
        answerable = int(ours.get("overall", {}).get("n", 0))
        adversarial = int(ours.get(ADVERSARIAL_LABEL, {}).get("n", 0))
        return [
            f"## provmem eval: {self.dataset}",
            "",
            f"{self.samples} samples, {self.turns} turns, {answerable} answerable and "
            f"{adversarial} adversarial questions, {self.seconds:.0f} s.",
        ]

    def _recall_table(self) -> list[str]:
        lines = [
            "| system | category | n | R@5 | R@10 | R@20 | R@512tok | tok@10 | esc |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for name, rows in self.systems.items():
            for label, row in rows.items():
                if label != ADVERSARIAL_LABEL and (name == "provmem" or label == "overall"):
                    lines.append(_recall_line(name, label, row))
        return lines

    def _diagnostics_table(self) -> list[str]:
        lines = [
            "### provmem diagnostics per category",
            "",
            "| category | n | multi-evidence n | all gold @10 | escalated | false cache hits "
            "| unverifiable omissions |",
            "|---|---|---|---|---|---|---|",
        ]
        for label, row in self.systems["provmem"].items():
            if label != ADVERSARIAL_LABEL:
                multi = int(row["multi_evidence_n"])
                covered = f"{row['all_covered@10']:.3f}" if multi else "-"
                lines.append(
                    f"| {label} | {row['n']:.0f} | {multi} | {covered} "
                    f"| {row['escalation_rate']:.1%} | {row['false_cache_hit_rate']:.1%} "
                    f"| {row['unverifiable_omission_rate']:.3f} |"
                )
        return lines

    def _quality(self) -> list[str]:
        metrics = self.metrics()
        memory, gate, cost = metrics["memory"], metrics["gate"], metrics["write_cost"]
        updates, abstention = metrics["temporal_update"], metrics["abstention"]
        tiermem, failures = metrics["tiermem"], metrics["failures"]
        decisions = ", ".join(f"{v} {n}" for v, n in gate["decisions"].items())
        layers = ", ".join(f"{k} {v}" for k, v in failures["by_layer"].items())
        multi = self.systems["provmem"].get(CATEGORIES[1])
        hops = (
            f"- multi-hop: R@10 {multi['recall@10']:.3f}; all gold turns in the top 10 for "
            f"{multi['all_covered@10']:.3f} of {multi['multi_evidence_n']:.0f} multi-evidence "
            "questions"
            if multi
            else "- multi-hop: no category-1 questions"
        )
        return [
            hops,
            f"- provenance coverage: {memory['provenance_coverage']:.3f} "
            f"({memory['active_facts']} active of {memory['facts']} facts)",
            f"- unsupported-extraction rate: {memory['unsupported_extraction_rate']:.3f}",
            f"- duplicate-memory rate: {memory['duplicate_memory_rate']:.3f}",
            f"- gate: {decisions}; merge-call rate {gate['merge_call_rate']:.1%}",
            f"- write cost: {cost['ms_per_turn']:.1f} ms/turn, "
            f"{cost['tokens_per_turn']} tokens, {cost['llm_calls_per_turn']:g} LLM calls per turn",
            f"- temporal update: successor first {updates['successor_first_rate']:.3f} "
            f"(n={updates['n']}, superseded surfaced {updates['superseded_surfaced']})",
            f"- abstention (adversarial): {abstention['abstention_rate']:.3f} "
            f"(n={abstention['n']})",
            f"- TierMem: unverifiable omission {tiermem['unverifiable_omission_rate']:.3f}, "
            f"escalation {tiermem['escalation_rate']:.1%}, "
            f"false cache hits {tiermem['false_cache_hit_rate']:.1%}",
            f"- failures at k={failures['k']}: {failures['missed_turns']} missed gold turns in "
            f"{failures['questions']} questions; first losing layer: {layers} "
            f"(retrieval: {failures['retrieval_ranked_11_20']} of them ranked 11-20)",
        ]

    def _budget_table(self) -> list[str]:
        head = " | ".join(f"R@{b}tok" for b in BUDGETS)
        lines = [
            "### Recall at context budgets (overall)",
            "",
            f"| system | {head} |",
            "|---|" + "---|" * len(BUDGETS),
        ]
        for name, rows in self.systems.items():
            if "overall" in rows:
                cells = " | ".join(f"{rows['overall'][f'recall@{b}tok']:.3f}" for b in BUDGETS)
                lines.append(f"| {name} | {cells} |")
        return lines

    def _examples(self, per_layer: int = 5) -> list[str]:
        lines = [
            "### Failure examples (first layer that lost the gold turn)",
            "",
            "| layer | sample | question | dia_id | evidence id | fact ids | rank |",
            "|---|---|---|---|---|---|---|",
        ]
        for layer in Layer:
            for miss in [x for x in self.misses if x.layer == layer.value][:per_layer]:
                facts = ", ".join(miss.fact_ids) or "none"
                question = miss.question.replace("|", "/")
                lines.append(
                    f"| {miss.layer} | {miss.sample_id} | {question} | {miss.dia_id} "
                    f"| {miss.evidence_id} | {facts} | {miss.rank or '-'} |"
                )
        return lines


def _recall_line(name: str, label: str, row: dict[str, float]) -> str:
    return (
        f"| {name} | {label} | {row['n']:.0f} | {row['recall@5']:.3f} | {row['recall@10']:.3f} "
        f"| {row['recall@20']:.3f} | {row['recall@512tok']:.3f} | {row['tokens@10']:.0f} "
        f"| {row['escalation_rate']:.0%} |"
    )
