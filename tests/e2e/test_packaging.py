"""The wheel holds the whole ``provmem`` tree, its schemas and model files, and imports."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import provmem.core.events, provmem.services.cli, provmem.streams.faust_app;"
    "from provmem.schemas import load; from provmem.infra.embedding import tokenizer_dir;"
    "import provmem.services.cli as c; print(c.__file__);"
    "assert load('TurnRecorded', 1)['title'] == 'TurnRecorded';"
    "assert (tokenizer_dir() / 'tokenizer.json').exists()"
)


def test_wheel_installs_and_imports(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = tmp_path.glob("provmem-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if not n.startswith(("provmem/", "provmem-"))]
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(target), "PATH": ""},
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().startswith(str(target))
