"""``provmem ingest`` on the files users really have, and the CLI's terminal output.

On 96a0921: a line nested ~1,000 deep raised RecursionError and nothing landed, a file
starting with ``[`` was taken for LoCoMo and refused whole, malformed LoCoMo files gave
TypeError tracebacks, errors named a turn index instead of the file line, a reused turn
id with another text exited 0, ANSI escapes reached the terminal raw, and a CLI on a
folder held by a running API died with a VectorIndexLocked traceback."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from provmem.infra.vectors.edge import EdgeVectorIndex
from tests.e2e.test_cli import provmem
from tests.harness import SCOPE, said

ANSI = "\x1b[2J\x1b[31m"


def _lines(path: Path, lines: list[str], bom: bool = False) -> Path:
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + "\n".join(lines).encode() + b"\n")
    return path


def test_every_good_line_lands_and_every_bad_one_is_named_by_its_line(tmp_path: Path) -> None:
    good = [said(f"t{n}", f"I visited museum number {n} today.", minute=n) for n in range(3)]
    lines = [
        json.dumps(good[0]),  # line 1, after a byte-order mark
        "[" * 1000 + "]" * 1000,  # line 2: deep nesting
        json.dumps([good[1]]),  # line 3: an array, not an object
        "{not json",  # line 4
        "",
        json.dumps({**good[1], "session": "s" * 257}),  # line 6: an id over 256 characters
        json.dumps(good[2]),  # line 7
    ]
    data = ["--data-dir", str(tmp_path / "d")]
    run = provmem("ingest", str(_lines(tmp_path / "t.jsonl", lines, bom=True)), *data)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    for number in (2, 3, 4, 6):
        assert f"line {number}:" in run.stdout, run.stdout
    assert "line 1: accepted" in run.stdout and "line 7: accepted" in run.stdout
    assert "nested too deeply" in run.stdout and "session:" in run.stdout


def test_a_json_array_of_turns_is_read_as_turns(tmp_path: Path) -> None:
    turns = [said(f"t{n}", f"I bought {n} apples.", minute=n) for n in range(2)]
    path = tmp_path / "turns.json"
    path.write_text(json.dumps(turns, indent=2))
    run = provmem("ingest", str(path), "--data-dir", str(tmp_path / "d"), "--json")
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads(run.stdout)["results"]
    assert [r["status"] for r in results] == ["accepted", "accepted"]
    assert [r["where"] for r in results] == ["item 1", "item 2"]


def test_a_malformed_locomo_file_names_what_is_wrong_and_lands_the_rest(tmp_path: Path) -> None:
    date = "1:56 pm on 8 May, 2023"
    turn = {"speaker": "Caroline", "dia_id": "D1:1", "text": "I went to a support group."}
    samples = [
        {"sample_id": "ok", "conversation": {"session_1_date_time": date, "session_1": [turn]}},
        {"sample_id": "no-date", "conversation": {"session_1": [turn]}},
        {"sample_id": "bad-turn", "conversation": {"session_1_date_time": date, "session_1": [7]}},
        "not a sample",
    ]
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(samples))
    run = provmem("ingest", str(path), "--data-dir", str(tmp_path / "d"))
    out = run.stdout + run.stderr
    assert run.returncode == 1 and "Traceback" not in out, out
    assert "sample 2: not a LoCoMo sample (missing field 'session_1_date_time')" in out
    assert "sample 3 session_1 turn 1: not a LoCoMo turn" in out
    assert "sample 4: not a LoCoMo sample" in out
    assert "sample 1 session_1 turn 1: accepted" in out


def test_a_reused_turn_id_with_another_text_is_a_conflict(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d"), "--json"]
    first = _lines(tmp_path / "a.jsonl", [json.dumps(said("t1", "I live in Lyon."))])
    assert provmem("ingest", str(first), *data).returncode == 0
    changed = _lines(tmp_path / "b.jsonl", [json.dumps(said("t1", "I live in Oslo."))])
    run = provmem("ingest", str(changed), *data)
    assert run.returncode == 1, run.stdout
    assert [r["status"] for r in json.loads(run.stdout)["results"]] == ["conflict"]


def test_control_characters_are_escaped_in_terminal_output(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "d")]
    turn = {**said("t1", "I live in Lyon."), "speaker": f"Al{ANSI}ice [bold]x[/bold]"}
    path = _lines(tmp_path / "a.jsonl", [json.dumps(turn)])
    assert provmem("ingest", str(path), *data).returncode == 0
    run = provmem("query", SCOPE, "Where do I live?", *data)
    assert run.returncode == 0, run.stderr
    assert "\x1b" not in run.stdout and "\\x1b[2J" in run.stdout
    assert "[bold]x[/bold]" in run.stdout  # shown as written, not taken for markup


def test_a_query_beside_a_running_api_works_a_replay_names_its_holder(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    assert provmem("demo", "--data-dir", str(folder)).returncode == 0
    held = EdgeVectorIndex(folder / "vectors", 384)
    asyncio.run(held.count(SCOPE))  # opened, as a running API holds it
    try:
        run = provmem("query", SCOPE, "anything", "--data-dir", str(folder))
        replayed = provmem("replay", "--data-dir", str(folder))
    finally:
        asyncio.run(held.close())
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stdout + run.stderr
    out = (replayed.stdout + replayed.stderr).strip()  # a replay stays with the owner
    assert replayed.returncode == 2 and "Traceback" not in out, out
    assert len(out.splitlines()) == 1 and "running provmem API" in out, out
    assert "held by pid" in out, out
