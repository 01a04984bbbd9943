"""``provmem eval`` as a user runs it, on a tiny LoCoMo-format benchmark."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ALICE, BOB = "Alice", "Bob"
SESSION_1 = [
    (ALICE, "Hi Bob! I live in Berlin and I work at Acme."),
    (BOB, "Nice. I'm allergic to peanuts, so I skip the snacks."),
    (ALICE, "I have a dog named Rex."),
    (BOB, "I play the guitar every weekend."),
]
SESSION_2 = [
    (ALICE, "Big news: I moved to Munich last week."),
    (BOB, "Congrats! I now work at Globex."),
    (ALICE, "Rex loves the new park."),
    (BOB, "I started learning the piano too."),
]
QUESTIONS = [
    ("Where does Alice live?", ["D2:1"], 4),
    ("What is Bob allergic to?", ["D1:2"], 4),
    ("When did Alice move to Munich?", ["D2:1"], 2),
    ("What instruments does Bob play?", ["D1:4", "D2:4"], 1),
    ("What is Alice allergic to?", ["D1:2"], 5),
]


def tiny_locomo() -> list[dict[str, Any]]:
    def session(number: int, turns: list[tuple[str, str]]) -> list[dict[str, str]]:
        return [
            {"speaker": who, "dia_id": f"D{number}:{i}", "text": text}
            for i, (who, text) in enumerate(turns, start=1)
        ]

    qa = [{"question": q, "answer": "x", "evidence": e, "category": c} for q, e, c in QUESTIONS]
    conversation = {
        "speaker_a": ALICE,
        "speaker_b": BOB,
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": session(1, SESSION_1),
        "session_2_date_time": "10:00 am on 20 June, 2023",
        "session_2": session(2, SESSION_2),
    }
    return [{"sample_id": "tiny-1", "conversation": conversation, "qa": qa}]


def provmem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provmem.services.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_eval_writes_report_and_plots(tmp_path: Path) -> None:
    dataset, out = tmp_path / "tiny.json", tmp_path / "report"
    dataset.write_text(json.dumps(tiny_locomo()))
    run = provmem("eval", str(dataset), "--out", str(out), "--data-dir", str(tmp_path / "d"))
    assert run.returncode == 0, run.stderr + run.stdout
    assert "provenance coverage" in run.stdout
    for name in ("report.json", "report.md", "recall_vs_tokens.png", "failures_by_layer.png"):
        assert (out / name).stat().st_size > 0, name
    report = json.loads((out / "report.json").read_text())
    assert report["turns"] == 8 and report["samples"] == 1
    overall = report["systems"]["provmem"]["overall"]
    assert overall["n"] == 4
    for key in ("recall@5", "recall@10", "recall@20", "recall@128tok", "recall@1024tok"):
        assert 0.0 <= overall[key] <= 1.0, key
    assert set(report["systems"]) == {"provmem", "bm25", "dense"}
    assert report["abstention"]["n"] == 1
    assert 0.0 <= report["abstention"]["abstention_rate"] <= 1.0
    memory = report["memory"]
    assert memory["active_facts"] > 0
    for key in ("provenance_coverage", "unsupported_extraction_rate", "duplicate_memory_rate"):
        assert 0.0 <= memory[key] <= 1.0, key
    assert memory["provenance_coverage"] == 1.0
    gate = report["gate"]
    assert gate["candidates"] == sum(gate["decisions"].values()) > 0
    assert gate["merge_call_rate"] == 0.0
    cost = report["write_cost"]
    assert cost["ms_per_turn"] > 0 and cost["tokens_per_turn"] == 0
    assert cost["llm_calls_per_turn"] == 0
    assert report["temporal_update"]["n"] >= 1  # "I now work at Globex" supersedes Acme
    assert 0.0 <= report["temporal_update"]["successor_first_rate"] <= 1.0
    for key in ("unverifiable_omission_rate", "escalation_rate", "false_cache_hit_rate"):
        assert 0.0 <= report["tiermem"][key] <= 1.0, key
    layers = report["failures"]["by_layer"]
    assert list(layers) == [
        "evidence capture",
        "extraction",
        "write gate",
        "canonical store",
        "retrieval",
    ]
    assert sum(layers.values()) == report["failures"]["missed_turns"] == len(report["misses"])


def test_eval_without_a_data_folder_leaves_no_data_behind(tmp_path: Path) -> None:
    """Without ``--data-dir`` the benchmark's turns go to a scratch data folder (its master
    key beside them); a user's own conversations must not stay in it after the report."""
    dataset, scratch = tmp_path / "tiny.json", tmp_path / "tmp"
    dataset.write_text(json.dumps(tiny_locomo()))
    scratch.mkdir()
    run = subprocess.run(
        [sys.executable, "-m", "provmem.services.cli", "eval", str(dataset), "--out", "report"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    assert run.returncode == 0, run.stderr + run.stdout
    assert (tmp_path / "report" / "report.json").exists()
    assert [p.name for p in scratch.iterdir() if p.name.startswith("provmem-eval-")] == []


def test_eval_names_the_missing_field_of_a_file_not_in_locomo_format(tmp_path: Path) -> None:
    dataset = tmp_path / "bad.json"
    dataset.write_text(json.dumps([{"sample_id": "s", "qa": []}]))
    run = provmem("eval", str(dataset), "--out", str(tmp_path / "o"), "--data-dir", str(tmp_path))
    assert run.returncode == 2
    assert "missing field 'conversation'" in run.stderr


WITHOUT_MATPLOTLIB = (
    "import sys; sys.modules['matplotlib'] = None;"  # as if the [eval] extra were not installed
    "from provmem.services.cli.app import main; main()"
)


def test_eval_without_the_eval_extra_says_how_to_install_it(tmp_path: Path) -> None:
    dataset = tmp_path / "tiny.json"
    dataset.write_text(json.dumps(tiny_locomo()))
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_MATPLOTLIB, "eval", str(dataset)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "pip install 'provmem[eval]'" in run.stderr
    assert not (tmp_path / "eval-report").exists()
