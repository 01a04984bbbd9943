"""bench/techreport: bench/techbench's report as a markdown table, and its misses."""

from __future__ import annotations

from typing import Any

ROWS = [
    ("claims from code or markup (count, share)", None, "0"),
    ("claims per user turn", None, ""),
    ("claims per assistant turn", None, ""),
    ("ill-formed statements", None, ""),
    ("update: updating turn in top 10", "update.top10", ">= BM25"),
    ("update: updating turn ranked above the original", "update.turn_above", ""),
    ("update: updated value's fact ranked above the original's", "update.value_above", ">= 0.90"),
    ("update: a current fact states the updated value", "update.current_fact", ""),
    ("update: original in the current fact's history", "update.history", ">= 0.80"),
    ("update: original value still active (lost update)", "update.stale_active", "0"),
    ("contradiction: both turns in top 10", "contradiction.both_top10", ">= BM25"),
    ("contradiction: conflict flagged", "contradiction.flagged", ">= 0.80"),
    ("contradiction: both facts still active", "contradiction.both_active", ""),
]


def table(report: dict[str, Any]) -> str:
    lines = ["| metric | n | provmem | raw BM25 | target |", "|---|---|---|---|---|"]
    code = report["claims_from_code"]
    fixed = {
        ROWS[0][0]: (report["active_facts"], f"{code['count']} ({code['share']:.1%})"),
        ROWS[1][0]: ("", f"{report['claims_per_user_turn']:.2f}"),
        ROWS[2][0]: ("", f"{report['claims_per_assistant_turn']:.2f}"),
        ROWS[3][0]: (report["active_facts"], f"{report['ill_formed']['share']:.1%}"),
    }
    for label, key, target in ROWS:
        if key is None:
            n, ours = fixed[label]
            lines.append(f"| {label} | {n} | {ours} | | {target} |")
            continue
        ours_key = f"{key}.provmem" if f"{key}.provmem" in report else key
        ours = report.get(ours_key, {"share": 0.0, "n": 0})
        bm25 = report.get(f"{key}.bm25")
        bm25_text = f"{bm25['share']:.2f}" if bm25 else ""
        lines.append(f"| {label} | {ours['n']} | {ours['share']:.2f} | {bm25_text} | {target} |")
    links = report["links"]
    lines.append(
        f"| links: two different labelled items linked (false-link rate) | "
        f"{links['gold'] + links['false']} | {links['false']} ({links['false_rate']:.1%}) | | 0 |"
    )
    t = report["throughput"]
    lines.append(
        f"| ingest (publish + derive) vs raw embedding | {t['turns']} | "
        f"{t['ingest_turns_per_s']:.1f} turns/s | {t['raw_embedding_texts_per_s']:.1f} texts/s "
        f"(embedding) | ratio {t['ratio']:.2f} (>= 0.7) |"
    )
    return "\n".join(lines)


def print_misses(report: dict[str, Any]) -> None:
    for name, items in report["misses"].items():
        for item in items:
            print(f"miss {name}: {item}")
    for kind, examples in report["links"]["examples"].items():
        for example in examples:
            print(f"{kind} link: {example}")
