"""After an evidence erasure a fact's history equals a replay without that evidence
(issue 17, finding R4), through the CLI alone: ``ingest``, ``erase --evidence`` and
``facts FACT_ID --history``, so the same test runs on every version.

On 96a0921 the fact that came back (its successor's evidence was erased) kept a version
"superseded by" the erased fact, and a version after it: a deployment that never had the
erased turn has version 1 alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.test_cli import provmem

SCOPE = "acme/support/alice"
PARIS = {"turn_id": "t1", "text": "I live in Paris.", "captured_at": "2026-05-08T13:00:00+00:00"}
LISBON = {"turn_id": "t2", "text": "I moved to Lisbon.", "captured_at": "2026-05-08T13:05:00+00:00"}


def shown(folder: Path, *args: str) -> Any:
    run = provmem(*args, "--data-dir", str(folder), "--json")
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


def histories(folder: Path, turns: list[dict[str, str]], erase: str | None) -> dict[str, Any]:
    """Each fact's versions (without their numbers) once ``turns`` are ingested and the
    evidence of the fact that states ``erase`` is erased."""
    path = folder.with_suffix(".jsonl")
    lines = [json.dumps({"scope": SCOPE, "speaker": "Alice", "session": "s1", **t}) for t in turns]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert provmem("ingest", str(path), "--data-dir", str(folder)).returncode == 0
    if erase is not None:
        (erased,) = [f for f in shown(folder, "facts", SCOPE) if erase in f["statement"]]
        for evidence_id in erased["evidence_ids"]:
            erasure = provmem("erase", SCOPE, "--evidence", evidence_id, "--data-dir", str(folder))
            assert erasure.returncode == 0, erasure.stdout + erasure.stderr
    found = {}
    for fact in shown(folder, "facts", SCOPE):
        history = shown(folder, "facts", fact["fact_id"], "--history")["history"]
        found[fact["fact_id"]] = [{k: v for k, v in h.items() if k != "version"} for h in history]
    return found


def test_a_revived_fact_s_history_equals_a_deployment_without_the_erased_turn(
    tmp_path: Path,
) -> None:
    erased = histories(tmp_path / "live", [PARIS, LISBON], erase="Lisbon")
    fresh = histories(tmp_path / "fresh", [PARIS], erase=None)
    assert statuses(erased) == statuses(fresh)
    assert erased == fresh


def statuses(found: dict[str, Any]) -> dict[str, list[tuple[str, str | None]]]:
    """Each fact's versions as (status, superseded_by): the failure message."""
    return {k: [(v["status"], v["superseded_by"]) for v in h] for k, h in found.items()}
