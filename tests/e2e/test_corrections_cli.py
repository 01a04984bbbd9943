"""Corrections as a user drives them through the CLI: publish, correct, query, retract."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.test_cli import provmem

SCOPE = "acme/app/u1"


def test_correct_and_retract_through_the_cli(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    said = ["--scope", SCOPE, "--speaker", "Ann", "--turn-id", "t1", "--text", "I live in Paris."]
    assert provmem("publish", *said, *data).returncode == 0
    (paris,) = json.loads(provmem("facts", SCOPE, "--json", *data).stdout)
    fixed = provmem(
        "correct", paris["fact_id"], "Ann lives in Lisbon.", "--by", "Ann", "--reason", "moved",
        "--scope", SCOPE, "--json", *data,
    )  # fmt: skip
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    correction = json.loads(fixed.stdout)
    assert correction["action"] == "correct" and correction["speaker"] == "Ann"
    answer = json.loads(provmem("query", SCOPE, "where does Ann live", "--json", *data).stdout)
    top = answer["bundles"][0]
    assert top["fact"]["statement"] == "Ann lives in Lisbon."
    assert [h["statement"] for h in top["history"]] == ["Ann lives in Paris."]
    assert top["evidence"][0]["evidence_id"] == correction["evidence_id"]
    assert top["evidence"][0]["speaker"] == "Ann"

    new_id = top["fact"]["fact_id"]
    gone = provmem("retract", new_id, "--reason", "not true either", *data)
    assert gone.returncode == 0, gone.stdout
    shown = json.loads(provmem("facts", new_id, "--history", "--json", *data).stdout)
    assert shown["fact"]["status"] == "deleted"
    assert [v["status"] for v in shown["history"]] == ["active", "deleted"]
    facts = json.loads(provmem("facts", SCOPE, "--json", *data).stdout)
    assert not [f for f in facts if f["status"] == "active"]


def test_refusals_are_clear(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    said = ["--scope", SCOPE, "--speaker", "Ann", "--turn-id", "t1", "--text", "I live in Paris."]
    provmem("publish", *said, *data)
    (paris,) = json.loads(provmem("facts", SCOPE, "--json", *data).stdout)
    foreign = provmem("retract", paris["fact_id"], "--reason", "x", "--scope", "globex/a/b", *data)
    assert foreign.returncode == 2 and "another tenant" in foreign.stderr
    approve = provmem("approve", paris["fact_id"], *data)
    assert approve.returncode == 2 and "needs-review" in approve.stderr
    assert "nothing to review" in provmem("review", SCOPE, *data).stdout
    assert json.loads(provmem("review", SCOPE, "--json", *data).stdout) == []


def test_review_queue_approve_and_reject_through_the_cli(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    turns = [
        ("t1", "I live in Paris."),
        ("t2", "I think I live in Berlin now."),
        ("t3", "I work at Acme."),
        ("t4", "Maybe I work at Initech."),
    ]
    for turn_id, text in turns:
        said = ["--scope", SCOPE, "--speaker", "Ann", "--turn-id", turn_id, "--text", text]
        assert provmem("publish", *said, *data).returncode == 0
    listed = provmem("review", SCOPE, *data).stdout
    assert "Ann thinks they live in Berlin now." in listed and "tentative" in listed
    berlin, initech = json.loads(provmem("review", SCOPE, "--json", *data).stdout)
    assert berlin["evidence"][0]["quote"] == "I think I live in Berlin now."

    approved = provmem("approve", berlin["fact"]["fact_id"], "--by", "ops", *data)
    assert approved.returncode == 0, approved.stdout + approved.stderr
    rejected = provmem("reject", initech["fact"]["fact_id"], "--reason", "a guess", *data)
    assert rejected.returncode == 0, rejected.stdout + rejected.stderr

    assert json.loads(provmem("review", SCOPE, "--json", *data).stdout) == []
    answer = json.loads(provmem("query", SCOPE, "where does Ann live", "--json", *data).stdout)
    top = answer["bundles"][0]
    assert top["fact"]["fact_id"] == berlin["fact"]["fact_id"]
    assert [h["statement"] for h in top["history"]] == ["Ann lives in Paris."]
    shown = json.loads(provmem("facts", initech["fact"]["fact_id"], "--json", *data).stdout)
    assert shown["fact"]["status"] == "deleted"
    assert shown["fact"]["review_reason"] == "rejected by user: a guess"
