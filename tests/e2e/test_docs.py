"""Every Python and JSON example of README.md and docs/*.md runs (parses) as written.

Each Python block runs in its own process with a fresh ``PROVMEM_DATA_DIR`` and ``HOME``;
the placeholders of the SDK examples (``http://localhost:8080``, ``pmk_...``) are replaced
by a live API server's address and a key of it. The one block not run is listed in
``NOT_RUN`` with the reason.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from provmem.config import Settings
from provmem.services.api.app import create_api
from tests.e2e.test_api import issue
from tests.e2e.test_client import serving

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(python|json)\n(.*?)^```", re.S | re.M)
NOT_RUN = {"AIOKafkaConsumer": "consumes a Kafka topic forever, with the reader's own apply/forget"}


def examples() -> list[tuple[str, str, str]]:
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for number, match in enumerate(FENCE.finditer(page.read_text()), start=1):
            name = f"{page.relative_to(ROOT)}#{number}"
            found.append((name, match.group(1), match.group(2)))
    return found


EXAMPLES = examples()
PYTHON = [e for e in EXAMPLES if e[1] == "python" and not any(k in e[2] for k in NOT_RUN)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("server") / "d", partitions=2)
    token = issue(settings, "acme")["Authorization"].removeprefix("Bearer ")
    with serving(create_api(settings)) as url:
        yield url, token


def test_the_examples_are_found() -> None:
    names = {name for name, _, _ in EXAMPLES}
    assert {"README.md#1", "docs/python.md#1", "docs/replay.md#1"} <= names
    assert len(PYTHON) == sum(1 for e in EXAMPLES if e[1] == "python") - len(NOT_RUN)


@pytest.mark.parametrize(("name", "kind", "code"), [e for e in EXAMPLES if e[1] == "json"])
def test_json_examples_parse(name: str, kind: str, code: str) -> None:
    assert isinstance(json.loads(code), dict), name


@pytest.mark.parametrize(("name", "kind", "code"), PYTHON, ids=[e[0] for e in PYTHON])
def test_python_examples_run(
    name: str, kind: str, code: str, server: tuple[str, str], tmp_path: Path
) -> None:
    url, token = server
    script = tmp_path / "example.py"
    script.write_text(code.replace("http://localhost:8080", url).replace("pmk_...", token))
    env = {**os.environ, "PROVMEM_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, f"{name}:\n{run.stdout}\n{run.stderr}"
    if name == "README.md#1":  # the hello world prints a fact with its evidence
        assert "Lisbon" in run.stdout and "evidence ev_" in run.stdout, run.stdout
