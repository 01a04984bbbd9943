"""Findings of issue 17 an operator meets at the CLI, each driven as the user does.

On 96a0921: ``provmem publish --runtime kafka`` without Redis died with a 314-line
traceback; ``provmem erase`` and ``provmem audit erasure`` on a folder a running API held
crashed with a VectorIndexLocked traceback (the erasure still ran, the user got no
receipt); and a lone surrogate in ``agent`` aborted ``provmem ingest`` naming no line or
field, after the good turns' evidence ids were reserved (a re-ingest answered them
``duplicate`` and they never reached the log)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from provmem.config import Settings
from provmem.infra.vectors.edge import EdgeVectorIndex
from tests.e2e.test_cli import provmem
from tests.harness import SCOPE, said, settings_env


def test_a_kafka_publish_without_redis_says_so_in_one_line(kafka_settings: Settings) -> None:
    env = {**settings_env(kafka_settings), "PROVMEM_REDIS_URL": "redis://127.0.0.1:1/0"}
    command = [sys.executable, "-m", "provmem.services.cli", "publish", "--runtime", "kafka"]
    turn = ["--scope", SCOPE, "--speaker", "Alice", "--text", "I live in Paris."]
    run = subprocess.run([*command, *turn], env=env, capture_output=True, text=True, timeout=120)
    out = (run.stdout + run.stderr).strip()
    assert run.returncode == 2 and "Traceback" not in out, out
    assert len(out.splitlines()) == 1 and "Redis redis://127.0.0.1:1/0: unreachable" in out, out


def test_erase_beside_a_running_api_is_filed_for_it_and_erases_nothing_behind_its_back(
    tmp_path: Path,
) -> None:
    """A CLI beside the folder's owner (issue 30, item 2) reads through a reader slot: its
    erasure is filed on the log, not run; the owner runs it at its next sync."""
    folder = ["--data-dir", str(tmp_path / "d")]
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps(said("t1", "I live in Lyon.")) + "\n", encoding="utf-8")
    assert provmem("ingest", str(turns), *folder).returncode == 0
    filed = provmem("erase", SCOPE, "--session", "nothing-here", *folder)  # the receipt
    assert filed.returncode == 0, filed.stdout + filed.stderr
    request_id = json.loads(filed.stdout)["request_id"]
    before = provmem("facts", SCOPE, *folder, "--json")
    held = EdgeVectorIndex(tmp_path / "d" / "vectors", 384)
    asyncio.run(held.count(SCOPE))  # opened, as a running API holds it
    try:
        erase = provmem("erase", SCOPE, "--subject", *folder)
        audit = provmem("audit", "erasure", request_id, *folder)
        beside = provmem("facts", SCOPE, *folder, "--json")
    finally:
        asyncio.run(held.close())
    for answer in (erase, audit, beside):
        out = (answer.stdout + answer.stderr).strip()
        assert answer.returncode == 0 and "Traceback" not in out, out
    assert "filed" in erase.stdout and "erasure-requests" in erase.stdout, erase.stdout
    assert json.loads(beside.stdout) == json.loads(before.stdout) != []  # nothing erased yet
    after = provmem("facts", SCOPE, *folder, "--json")  # the next owner runs the erasure
    assert json.loads(after.stdout) == []


def test_a_surrogate_in_agent_costs_no_good_turn_and_is_named_by_line(tmp_path: Path) -> None:
    good = said("t1", "I live in Lyon.")
    bad = json.dumps({**said("t2", "I play chess.", 1), "agent": "\udc80"})  # \\udc80 escape
    path = tmp_path / "turns.jsonl"
    path.write_text(json.dumps(good) + "\n" + bad + "\n", encoding="utf-8")
    folder = ["--data-dir", str(tmp_path / "d")]
    first = provmem("ingest", str(path), *folder, "--json")
    assert first.returncode == 1 and "Traceback" not in first.stderr, first.stderr
    results = json.loads(first.stdout)["results"]
    assert [r["status"] for r in results] == ["accepted", "rejected"], results
    assert results[1]["where"] == "line 2" and results[1]["error"].startswith("agent:")
    path.write_text(json.dumps(good) + "\n", encoding="utf-8")
    again = provmem("ingest", str(path), *folder, "--json")
    assert [r["status"] for r in json.loads(again.stdout)["results"]] == ["duplicate"]
    facts = provmem("facts", SCOPE, *folder, "--json")
    assert "Lyon" in facts.stdout  # the good turn reached the log and became a fact


def test_every_turn_is_named_by_its_file_line(tmp_path: Path) -> None:
    """E4d without E4a's deep line: an accepted turn after a skipped line is named by its
    line in the file (on 96a0921: ``turn 1``, its index among the parsed lines)."""
    lines = [json.dumps(said("t1", "I live in Lyon.")), "{not json", ""]
    lines.append(json.dumps(said("t2", "I play chess.", 1)))
    path = tmp_path / "turns.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = provmem("ingest", str(path), "--data-dir", str(tmp_path / "d"))
    assert "line 2:" in run.stdout and "line 4: accepted" in run.stdout, run.stdout
