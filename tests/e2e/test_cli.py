"""The CLI as a user drives it: demo, publish, ingest, query, facts, evidence, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from provmem.core.extraction.claims import extract_claims
from tests.conftest import IN_CI

SHARED = Path(__file__).resolve().parents[3] / "shared"
SHARED_LOCOMO = SHARED / "data" / "locomo" / "locomo-dev.json"


def provmem(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provmem.services.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_demo_prints_facts_with_provenance(tmp_path: Path) -> None:
    run = provmem("demo", "--data-dir", str(tmp_path / "d"), "--json")
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    allergy = results[1]
    assert allergy["query"] == "What is Alice allergic to?"
    top = allergy["bundles"][0]
    assert "peanuts" in top["fact"]["statement"]
    assert top["evidence"][0]["evidence_id"] in top["fact"]["evidence_ids"]
    assert "peanuts" in top["evidence"][0]["quote"]


def test_demo_readable_output_shows_evidence(tmp_path: Path) -> None:
    run = provmem("demo", "--data-dir", str(tmp_path / "d"))
    assert run.returncode == 0, run.stderr
    assert "allergic to peanuts" in run.stdout
    assert "ev_" in run.stdout and "turn=demo-3" in run.stdout


def test_publish_query_and_evidence_round_trip(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    run = provmem(
        "publish",
        "--scope",
        "acme/app/u1",
        "--speaker",
        "Ann",
        "--turn-id",
        "t9",
        "--text",
        "I keep my bike in the red shed.",
        "--json",
        *data,
    )
    assert run.returncode == 0, run.stderr
    evidence_id = json.loads(run.stdout)[0]["evidence_id"]
    again = provmem(
        "publish",
        "--scope",
        "acme/app/u1",
        "--speaker",
        "Ann",
        "--turn-id",
        "t9",
        "--text",
        "I keep my bike in the red shed.",
        "--json",
        *data,
    )
    assert json.loads(again.stdout)[0]["status"] == "duplicate"
    asked = provmem("query", "acme/app/u1", "where is the bike", "--json", *data)
    answer = json.loads(asked.stdout)
    assert answer["bundles"][0]["evidence"][0]["evidence_id"] == evidence_id
    shown = json.loads(provmem("evidence", evidence_id, *data).stdout)
    assert shown["quote"] == "I keep my bike in the red shed." and shown["speaker"] == "Ann"


def test_ingest_jsonl_accepts_good_lines_and_names_bad_fields(tmp_path: Path) -> None:
    lines = [
        json.dumps(
            {
                "scope": "acme/app/u1",
                "speaker": "Ann",
                "turn_id": "1",
                "captured_at": "2026-05-01T10:00:00+00:00",
                "text": "I work at Globex.",
            }
        ),
        json.dumps(
            {
                "scope": "acme/app/u1",
                "speaker": "Ann",
                "turn_id": "2",
                "captured_at": "2026-05-01T10:00:00",
                "text": "No timezone here.",
            }
        ),
        json.dumps(
            {
                "scope": "acme",
                "speaker": "Ann",
                "turn_id": "3",
                "captured_at": "2026-05-01T10:00:00+00:00",
                "text": "Bad scope.",
            }
        ),
    ]
    path = tmp_path / "turns.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode() + b'{"text": "\xff\xfe"}\n')
    run = provmem("ingest", str(path), "--data-dir", str(tmp_path / "d"))
    assert run.returncode == 1
    assert "1 accepted" in run.stdout
    assert "captured_at" in run.stdout and "scope" in run.stdout
    assert "invalid UTF-8" in run.stdout
    facts = json.loads(
        provmem("facts", "acme/app/u1", "--json", "--data-dir", str(tmp_path / "d")).stdout
    )
    assert [f["statement"] for f in facts] == ["Ann works at Globex."]


def test_ingest_locomo_keeps_dia_ids_dates_and_speakers(tmp_path: Path) -> None:
    if not SHARED_LOCOMO.exists():
        assert not IN_CI, f"CI must have the LoCoMo dev split at {SHARED_LOCOMO}"
        pytest.skip(f"the LoCoMo dev split is not at {SHARED_LOCOMO}")
    sample = json.loads(SHARED_LOCOMO.read_text())[0]
    conversation = {
        k: v
        for k, v in sample["conversation"].items()
        if k in ("speaker_a", "speaker_b", "session_1", "session_1_date_time")
    }
    small = tmp_path / "locomo-small.json"
    small.write_text(json.dumps([{**sample, "conversation": conversation}]))
    data = ["--data-dir", str(tmp_path / "d")]
    assert provmem("ingest", str(small), *data).returncode == 0
    scope = f"locomo/{sample['sample_id']}/dialogue"
    first = max(sample["conversation"]["session_1"], key=lambda turn: _claim_count(turn))
    turns = {t["dia_id"]: t for t in sample["conversation"]["session_1"]}
    asked = provmem("query", scope, first["text"], "--limit", "5", "--json", *data)
    quotes = [q for hit in json.loads(asked.stdout)["bundles"] for q in hit["evidence"]]
    assert first["dia_id"] in {q["source_turn_id"] for q in quotes}
    for quote in quotes:
        assert quote["speaker"] == turns[quote["source_turn_id"]]["speaker"]
        assert quote["captured_at"].startswith("2023-05-08")


@pytest.mark.parametrize(
    "command", ["demo", "publish", "ingest", "query", "facts", "worker", "evidence"]
)
def test_every_command_has_help(command: str) -> None:
    run = provmem(command, "--help")
    assert run.returncode == 0 and "Usage" in run.stdout


def test_bad_scope_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()  # a missing folder is its own error (test_data_folder.py)
    run = provmem("query", "not-a-scope", "x", "--data-dir", str(tmp_path / "d"))
    assert run.returncode == 2
    assert "org/project/user" in run.stderr and run.stdout == ""


def test_key_rotation_keeps_evidence_readable(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    run = provmem(
        "publish", "--scope", "acme/app/u1", "--text", "I paint on Sundays.", "--json", *data
    )
    evidence_id = json.loads(run.stdout)[0]["evidence_id"]
    old_key = (tmp_path / "d" / "master.key").read_text()
    rotated = provmem("keys", "rotate", *data)
    # the subject's data key and log key, the deployment's (record keys are keyed from it)
    assert rotated.returncode == 0 and "re-wrapped 3 data keys" in rotated.stdout
    assert (tmp_path / "d" / "master.key").read_text() != old_key
    assert old_key not in rotated.stdout + rotated.stderr
    shown = json.loads(provmem("evidence", evidence_id, *data).stdout)
    assert shown["quote"] == "I paint on Sundays."


def test_fact_shows_its_evidence_chain_and_history(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    for turn_id in ("a", "b"):
        provmem(
            "publish",
            "--scope",
            "acme/app/u1",
            "--text",
            "I paint on Sundays.",
            "--turn-id",
            turn_id,
            *data,
        )
    (fact,) = json.loads(provmem("facts", "acme/app/u1", "--json", *data).stdout)
    detail = json.loads(provmem("facts", fact["fact_id"], "--history", "--json", *data).stdout)
    assert [q["source_turn_id"] for q in detail["evidence"]] == ["a", "b"]
    assert [v["version"] for v in detail["history"]] == [1, 2]
    shown = provmem("facts", fact["fact_id"], "--history", *data)
    assert "v1 active" in shown.stdout and "I paint on Sundays." in shown.stdout


def _claim_count(turn: dict[str, str]) -> int:
    when = datetime(2023, 5, 8, tzinfo=UTC)
    return len(extract_claims(turn["text"], speaker=turn["speaker"], captured_at=when))


def test_calibrate_fits_and_writes_the_gate_settings(tmp_path: Path) -> None:
    split = Path(__file__).resolve().parents[2] / "bench" / "data" / "gate-calibration.jsonl"
    env = tmp_path / ".env"
    env.write_text("PROVMEM_PARTITIONS=4\nPROVMEM_GATE_KAPPA=1\n")
    run = provmem("calibrate", str(split), "--env-file", str(env))
    assert run.returncode == 0, run.stderr
    lines = dict(line.split("=", 1) for line in env.read_text().splitlines())
    assert lines["PROVMEM_PARTITIONS"] == "4"
    assert float(lines["PROVMEM_GATE_KAPPA"]) > 1
    assert 0 < float(lines["PROVMEM_GATE_THRESHOLD"]) < 0.5
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"store": [], "candidate": "x", "duplicate": true}\n')
    failed = provmem("calibrate", str(bad), "--env-file", str(env))
    assert failed.returncode == 2 and "store" in failed.stderr


def test_erase_and_audit_from_the_cli(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    first = provmem(
        "publish",
        "--scope",
        "acme/app/u1",
        "--text",
        "I live in Paris.",
        "--turn-id",
        "a",
        "--json",
        *data,
    )
    provmem(
        "publish", "--scope", "acme/app/u1", "--text", "I moved to Berlin.", "--turn-id", "b", *data
    )
    second = provmem("facts", "acme/app/u1", "--json", *data)
    berlin = [f for f in json.loads(second.stdout) if "Berlin" in f["statement"]][0]
    erased = provmem("erase", "acme/app/u1", "--evidence", berlin["evidence_ids"][0], *data)
    assert erased.returncode == 0, erased.stdout + erased.stderr
    receipt = json.loads(erased.stdout)
    assert receipt["evidence_erased"] == 1 and receipt["residue_found"] == 0
    assert "Berlin" not in erased.stdout
    facts = json.loads(provmem("facts", "acme/app/u1", "--json", *data).stdout)
    assert [f["status"] for f in facts] == ["active"] and "Paris" in facts[0]["statement"]
    assert json.loads(first.stdout)[0]["evidence_id"] in facts[0]["evidence_ids"]
    audit = provmem("audit", "erasure", receipt["request_id"], *data)
    assert audit.returncode == 0 and json.loads(audit.stdout)["total"] == 0


def test_fact_history_shows_the_supersession_chain(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    provmem(
        "publish",
        "--scope",
        "acme/app/u1",
        "--text",
        "I live in Paris.",
        "--turn-id",
        "a",
        "--speaker",
        "Ann",
        *data,
    )
    provmem(
        "publish",
        "--scope",
        "acme/app/u1",
        "--text",
        "I moved to Berlin.",
        "--turn-id",
        "b",
        "--speaker",
        "Ann",
        *data,
    )
    facts = json.loads(provmem("facts", "acme/app/u1", "--json", *data).stdout)
    berlin = next(f for f in facts if "Berlin" in f["statement"])
    paris = next(f for f in facts if "Paris" in f["statement"])
    detail = json.loads(provmem("facts", berlin["fact_id"], "--history", "--json", *data).stdout)
    assert [f["fact_id"] for f in detail["supersedes"]] == [paris["fact_id"]]
    shown = provmem("facts", berlin["fact_id"], "--history", *data).stdout
    assert f"superseded {paris['fact_id']}" in shown and "Paris" in shown


def test_facts_explain_names_each_clause_kept_or_why_dropped(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    text = "Where do you live? I keep my bike in the red shed. My name is Ann."
    said = ["--scope", "acme/app/u1", "--speaker", "Ann", "--turn-id", "t1", "--text", text]
    published = provmem("publish", *said, "--json", *data)
    evidence_id = json.loads(published.stdout)[0]["evidence_id"]
    (fact,) = json.loads(provmem("facts", "acme/app/u1", "--json", *data).stdout)
    run = provmem("facts", "--explain", evidence_id, "--json", *data)
    assert run.returncode == 0, run.stderr
    clauses = json.loads(run.stdout)["clauses"]
    assert [(c["text"], c["why"]) for c in clauses] == [
        ("Where do you live?", "question"),
        ("I keep my bike in the red shed.", None),
        ("My name is Ann.", "tautology"),
    ]
    assert clauses[1]["statement"] == fact["statement"]
    assert clauses[1]["fact_ids"] == [fact["fact_id"]]
    shown = provmem("facts", "--explain", evidence_id, *data).stdout
    assert f"kept -> {fact['statement']}" in shown and "dropped question" in shown


def test_facts_explain_of_an_unknown_turn_names_it(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    run = provmem("facts", "--explain", "ev_missing", "--data-dir", str(tmp_path / "d"))
    assert run.returncode == 2 and "ev_missing" in run.stderr and run.stdout == ""
