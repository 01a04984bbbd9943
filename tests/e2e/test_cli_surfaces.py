"""The CLI's newer surfaces: ingest summary, scopes, demo in PROVMEM_DATA_DIR, mcp."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import typer

from tests.e2e.test_cli import provmem


def turn(scope: str, turn_id: str, text: str) -> str:
    row = {"scope": scope, "speaker": "Ann", "turn_id": turn_id, "text": text}
    return json.dumps({**row, "captured_at": "2026-05-01T10:00:00+00:00"})


def test_ingest_summarizes_and_scopes_lists(tmp_path: Path) -> None:
    file = tmp_path / "turns.jsonl"
    lines = [
        turn("acme/app/ann", "1", "I live in Paris."),
        turn("acme/app/ann", "2", "I have a cat named Tom."),
        turn("acme/web/bo", "1", "I play the cello."),
    ]
    file.write_text("\n".join(lines) + "\n")
    data = ["--data-dir", str(tmp_path / "d")]
    done = provmem("ingest", str(file), *data, "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["accepted"] == 3 and summary["facts_added"] >= 3
    assert summary["scopes"] == ["acme/app/ann", "acme/web/bo"] and summary["seconds"] > 0
    again = provmem("ingest", str(file), *data)
    assert "0 accepted, 3 duplicate, 0 rejected" in again.stdout
    assert "2 scope(s)" not in again.stdout  # no scope got new turns
    assert json.loads(provmem("scopes", *data, "--json").stdout) == [
        "acme/app/ann",
        "acme/web/bo",
    ]
    assert provmem("scopes", "acme/web", *data).stdout.split() == ["acme/web/bo"]
    facts = json.loads(provmem("facts", "acme/app/ann", *data, "--json").stdout)
    narrow = subprocess.run(
        [sys.executable, "-m", "provmem.services.cli", "facts", "acme/app/ann", *data],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "40"},
        check=True,
    )
    for fact in facts:  # ids never cut, even on a narrow terminal
        assert fact["fact_id"] in narrow.stdout and fact["evidence_ids"][0] in narrow.stdout


def test_demo_honours_provmem_data_dir_and_mcp_has_help(tmp_path: Path) -> None:
    env = {**os.environ, "PROVMEM_DATA_DIR": str(tmp_path / "demo")}
    run = subprocess.run(
        [sys.executable, "-m", "provmem.services.cli", "demo", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "demo" / "log.db").exists()
    helped = provmem("mcp", "--help")
    assert helped.returncode == 0 and "--http" in helped.stdout


def test_calibrate_json_is_the_only_output_on_stdout(tmp_path: Path) -> None:
    split = Path(__file__).resolve().parents[2] / "bench" / "data" / "gate-calibration.jsonl"
    run = provmem("calibrate", str(split), "--dry-run", "--json")
    assert run.returncode == 0, run.stderr
    fitted = json.loads(run.stdout)  # nothing else on stdout: no log line
    assert fitted["kappa"] > 1 and fitted["written"] is False


LOADED = """
import sys
import time
import urllib.error
import urllib.request
from provmem.services.cli.app import app
watched = WATCHED
try:
    app(sys.argv[1:], prog_name="provmem")
except SystemExit as done:
    assert not done.code, done.code
found = sorted(m for m in sys.modules if m.split(".")[0] in watched)
print("loaded:", " ".join(found), file=sys.stderr)
"""


def loaded(watched: list[str], *args: str) -> set[str]:
    """The modules of the ``watched`` packages one CLI run imports (in process)."""
    code = LOADED.replace("WATCHED", repr(set(watched)))
    run = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, check=True
    )
    (line,) = [x for x in run.stderr.splitlines() if x.startswith("loaded:")]
    return set(line.split()[1:])


def test_start_up_imports_only_what_the_command_needs(tmp_path: Path) -> None:
    heavy = ["fastembed", "faust", "aiokafka", "qdrant_client", "spacy", "matplotlib", "onnx"]
    heavy += ["fastapi", "uvicorn", "mcp", "httpx"]
    helped = loaded([*heavy, "pydantic", "numpy", "asyncio", "provmem"], "--help")
    outside = {
        m for m in helped if not m.startswith(("provmem.services.cli", "provmem.services.mcp"))
    }
    assert outside <= {"provmem", "provmem.services"}, outside  # no pydantic, numpy, core
    data = ["--data-dir", str(tmp_path / "d")]
    assert provmem("demo", *data, "--json").returncode == 0
    heavy.append("markdown_it")  # the extraction rules' (typer's rich help has it too)
    queried = loaded([*heavy, "provmem"], "query", "demo/assistant/alice", "Where is Alice?", *data)
    assert "provmem.services.memory.memory" in queried  # the query ran in this process
    assert not {m.split(".")[0] for m in queried} & set(heavy), queried
    assert "provmem.core.extraction.claims" not in queried  # nothing to derive: no extraction rules


def test_the_root_names_every_command_of_every_sub_app() -> None:
    from provmem.services.cli.app import COMMANDS, app

    for where in set(COMMANDS.values()) - {"mcp.cli", "cli.keys", "cli.dlq"}:
        module = importlib.import_module(f"provmem.services.{where}")
        built = typer.main.get_group(module.app).commands
        assert set(built) == {name for name, place in COMMANDS.items() if place == where}
    root = typer.main.get_command(app)
    context = root.make_context("provmem", ["query", "--help"], resilient_parsing=True)
    for name in COMMANDS:  # each one builds, with its help
        assert root.get_command(context, name).get_short_help_str(), name


def test_ingest_progress_counts_each_stage_with_an_eta_on_stderr(tmp_path: Path) -> None:
    file = tmp_path / "turns.jsonl"
    texts = ["I live in Paris.", "I have a cat named Tom.", "I play the cello."]
    file.write_text("\n".join(turn("acme/app/ann", str(i), t) for i, t in enumerate(texts)))
    done = provmem("ingest", str(file), "--data-dir", str(tmp_path / "d"))
    assert done.returncode == 0, done.stderr
    stages = {line.split("  ")[0]: line for line in done.stderr.splitlines() if "eta" in line}
    assert "3/3" in stages["publishing turns"] and "3/3" in stages["deriving facts"], stages
    assert "3/3" in stages["indexing evidence"] and "materializing views" in stages
    assert "3 accepted" in done.stdout and "progress" not in done.stdout


def test_api_prints_its_url_and_logs_each_request(tmp_path: Path) -> None:
    from tests.support.tansu import free_port

    port = free_port()
    command = [sys.executable, "-m", "provmem.services.cli", "api", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--data-dir", str(tmp_path / "d")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert f"http://127.0.0.1:{port}/v1" in first and f"{port}/ui" in first, first
        assert health(f"http://127.0.0.1:{port}/v1/health") == 200
    finally:
        server.terminate()
        printed, logged = server.communicate(timeout=60)
    (access,) = [line for line in logged.splitlines() if "GET /v1/health" in line]
    assert "200" in access and "GET" not in printed, access  # stdout: only the URL


def health(url: str) -> int:
    """The status of ``url`` once the server listens (it is starting up)."""
    for _ in range(600):
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                return int(answer.status)
        except urllib.error.URLError:
            time.sleep(0.1)
    raise AssertionError(f"{url}: never answered")


def test_every_command_but_the_servers_takes_json() -> None:
    from provmem.services.cli.app import COMMANDS, app

    root = typer.main.get_command(app)
    context = root.make_context("provmem", ["query", "--help"], resilient_parsing=True)
    commands = {name: root.get_command(context, name) for name in COMMANDS}
    leaves = {
        f"{name} {sub}" if sub else name: command
        for name, group in commands.items()
        for sub, command in (getattr(group, "commands", None) or {"": group}).items()
    }
    lacking = {
        name for name, c in leaves.items() if "--json" not in [o for p in c.params for o in p.opts]
    }
    assert lacking == {"worker", "mcp"}, lacking  # they serve: logs on stderr, MCP on stdio
