"""``provmem replay`` as an operator drives it: both modes, the report, resume, errors."""

from __future__ import annotations

import json
from pathlib import Path

from provmem.infra.models.embedding import DIM
from provmem.infra.vectors.edge import EdgeVectorIndex
from tests.e2e.test_cli import provmem

SCOPE = "acme/app/u1"
TURNS = [
    ("t1", "I live in Paris."),
    ("t2", "I love jazz and I work at Acme as a nurse."),
    ("t3", "I moved to Lisbon last week."),
    ("t4", "My sister Maria lives in Porto."),
]


def _ingested(tmp_path: Path) -> list[str]:
    file = tmp_path / "turns.jsonl"
    rows = [
        {
            "scope": SCOPE,
            "speaker": "Ann",
            "text": text,
            "turn_id": turn_id,
            "session": "s1",
            "captured_at": f"2026-05-08T13:0{minute}:00+00:00",
        }
        for minute, (turn_id, text) in enumerate(TURNS)
    ]
    file.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    data = ["--data-dir", str(tmp_path / "d")]
    run = provmem("ingest", str(file), *data, "--json")
    assert run.returncode == 0, run.stderr
    return data


def _facts(data: list[str]) -> list[dict[str, object]]:
    run = provmem("facts", SCOPE, *data, "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def test_replay_in_both_modes_reports_equal_views_and_switches(tmp_path: Path) -> None:
    data = _ingested(tmp_path)
    before = _facts(data)
    assert any(f["status"] == "superseded" for f in before)  # Paris -> Lisbon
    for mode, generation in (("fact-changes", 1), ("turns", 2)):
        run = provmem("replay", "--from", mode, *data, "--json")
        assert run.returncode == 0, run.stdout + run.stderr
        result = json.loads(run.stdout)
        assert result["report"]["equal"] and result["switched"]
        assert result["generation"] == generation
        (check,) = result["report"]["scopes"]
        assert check["scope"] == SCOPE and check["facts"] == len(before)
        assert check["facts_sha256"] == check["rebuilt_facts_sha256"]
    assert _facts(data) == before
    assert not (tmp_path / "d" / "vectors").exists()  # generation 0 dropped


def test_replay_readable_output_and_resume_after_a_stop(tmp_path: Path) -> None:
    data = _ingested(tmp_path)
    stopped = provmem("replay", "--from", "turns", "--stop-after", "1", *data)
    assert stopped.returncode == 3, stopped.stdout + stopped.stderr
    assert "--resume" in stopped.stdout
    resumed = provmem("replay", "--from", "turns", "--resume", *data)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "(resumed)" in resumed.stdout and SCOPE in resumed.stdout
    assert "equal to the live ones" in resumed.stdout


def test_replay_errors_name_the_option(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    bad_mode = provmem("replay", "--from", "facts", *data)
    assert bad_mode.returncode == 2 and "--from: must be one of" in bad_mode.stderr
    bad_scope = provmem("replay", "--scope", "acme/app", *data)
    assert bad_scope.returncode == 2 and "scope must be 'org/project/user'" in bad_scope.stderr
    help_text = provmem("replay", "--help")
    assert help_text.returncode == 0 and "--resume" in help_text.stdout


async def test_replay_says_who_holds_the_index(tmp_path: Path) -> None:
    data = _ingested(tmp_path)
    held = EdgeVectorIndex(tmp_path / "d" / "vectors", DIM)
    try:
        await held.count(SCOPE)  # opens the folder, as a running API would
        run = provmem("replay", *data)
    finally:
        await held.close()
    assert run.returncode == 2, run.stdout + run.stderr
    said = " ".join((run.stdout + run.stderr).split())
    assert "holds the live index" in said or "holds this data folder" in said, said
    assert "Traceback" not in run.stderr
