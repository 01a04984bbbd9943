"""bench/recall_misses: where the gold evidence of LoCoMo questions missing provmem's top 10
sits in each route's ranking (a diagnosis of recall, not a measure).

    python -m bench.recall_misses [--data ../shared/data/locomo/locomo-dev.json] [--show N]

For every gold evidence turn outside the final top 10 it reports, per category, the share
each route ranks in its own top 10 / 30 (a fact route counts a fact citing the turn), the
share the raw routes' own RRF ranks in its top 10, and its final rank; ``--show`` prints
that many misses with their questions and route ranks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench.common import embedded_memory
from bench.locomo import DEFAULT_DATA, ingest
from provmem.core.retrieval.fusion import RouteResult, fuse, raw_tier
from provmem.services.memory.recall import Recall
from provmem.services.tools.evaluation_data import CATEGORIES, last_session_time, questions

TOP = 10


def _route_ranks(routes: list[RouteResult], found: Any, dia_of: dict[str, str]) -> dict:
    """For each route, dia id -> best rank (1-based) of an item citing it."""
    ranks: dict[str, dict[str, int]] = {}
    for result in routes:
        best: dict[str, int] = {}
        for rank, item in enumerate(result.items, start=1):
            fact = found.facts.get(item)
            evidence = fact.evidence_ids if fact else (item,)
            for e in evidence:
                dia = dia_of.get(e, "")
                best[dia] = min(best.get(dia, rank), rank)
        ranks[result.route] = best
    return ranks


async def diagnose(data: Path, folder: Path, show: int) -> None:
    captured: dict[str, Any] = {}
    original = Recall._search

    async def spying(self: Recall, scope: str, query: str, intent: Any) -> Any:
        out = await original(self, scope, query, intent)
        captured["routes"], captured["found"] = out[0], out[2]
        return out

    Recall._search = spying  # type: ignore[method-assign]
    stats: dict[int, Counter[str]] = defaultdict(Counter)
    shown = 0
    async with embedded_memory(folder) as memory:
        for sample in json.loads(data.read_text()):
            dia_of = await ingest(memory, sample)
            scope, now = f"locomo/{sample['sample_id']}/dialogue", last_session_time(sample)
            for q in (q for q in questions(sample) if q.category in (1, 2, 3, 4)):
                result = await memory.query(scope, q.text, limit=20, now=now)
                final = [{dia_of.get(e, "") for e in b.evidence_ids} for b in result.bundles]
                ranks = _route_ranks(captured["routes"], captured["found"], dia_of)
                history = {
                    dia_of.get(e, "")
                    for b in result.bundles[:TOP]
                    for f in b.history
                    for e in f.evidence_ids
                }
                raw = [dia_of.get(e, "") for e in raw_tier(captured["routes"], TOP)]
                fused = [f.item for f in fuse(captured["routes"])]
                for gold in q.gold:
                    where = next((i + 1 for i, s in enumerate(final) if gold in s), 99)
                    c = stats[q.category]
                    c["gold"] += 1
                    if where <= TOP:
                        continue
                    c["miss"] += 1
                    c["final<=20"] += where <= 20
                    c["in_history@10"] += gold in history
                    c["raw_rrf<=10"] += gold in raw
                    for route, best in ranks.items():
                        c[f"{route}<=10"] += best.get(gold, 99) <= 10
                        c[f"{route}<=30"] += gold in best
                    c["no_route"] += not any(gold in b for b in ranks.values())
                    if shown < show:
                        shown += 1
                        seen = {r: b[gold] for r, b in ranks.items() if gold in b}
                        print(f"[{CATEGORIES[q.category]}] {q.text} gold={gold} final={where}")
                        print(f"   routes={seen} fused_items={len(fused)}")
    for category, c in sorted(stats.items()):
        misses = c.pop("miss", 0)
        print(f"\n{CATEGORIES[category]}: {misses} of {c.pop('gold')} gold turns miss the top 10")
        for key, value in sorted(c.items()):
            print(f"  {key:28s} {value:4d}  ({value / max(misses, 1):.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="provmem-bench-misses-") as folder:
        asyncio.run(diagnose(args.data, Path(folder), args.show))


if __name__ == "__main__":
    main()
