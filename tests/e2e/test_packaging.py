"""The wheel: it builds without a warning from our own configuration, holds the whole
``provmem`` tree, its schemas and model files, imports, and installs into a fresh venv
whose ``provmem`` command runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import provmem.core.events, provmem.services.cli, provmem.streams.faust.app;"
    "from provmem.schemas import load; from provmem.infra.models.embedding import tokenizer_dir;"
    "import provmem.services.cli as c; print(c.__file__);"
    "assert load('TurnRecorded', 1)['title'] == 'TurnRecorded';"
    "assert (tokenizer_dir() / 'tokenizer.json').exists();"
    "from provmem.core.language.lexicon import FUNCTION_WORDS; assert 'the' in FUNCTION_WORDS"
)
#: Run by the fresh venv's interpreter: the package is the venv's own, not the checkout's
#: (no editable finder on the meta path), and its public surface imports.
FRESH_PROBE = (
    "import sys, provmem; from provmem import Memory, AsyncMemory;"
    "from provmem.services.api.app import create_api;"
    "assert not [f for f in sys.meta_path if 'editable' in repr(f).lower()], sys.meta_path;"
    "print(provmem.__file__)"
)


@dataclass(frozen=True)
class Built:
    wheel: Path
    output: str


def source_tree(dest: Path) -> Path:
    """The checkout's files that make the wheel (pyproject, README and the package
    folders' files, tracked or new, not ignored) copied into ``dest``. A build in the
    checkout itself reuses its build/ and *.egg-info folders, whose stale lists ship
    files the configuration no longer names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    folders = sorted(set(config["tool"]["setuptools"]["package-dir"].values()))
    listing = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    listed = subprocess.run(
        [*listing, "--", *folders], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in ["pyproject.toml", "README.md", *listed]:
        if name and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    folder = tmp_path_factory.mktemp("wheel")
    source = source_tree(tmp_path_factory.mktemp("source"))
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(folder), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    (wheel,) = folder.glob("provmem-*.whl")
    return Built(wheel, run.stdout + run.stderr)


def test_the_build_prints_no_warning_of_ours(built: Built) -> None:
    """setuptools warned of the license table and of eight data folders not declared as
    packages; any ``...Warning`` from the backend fails here."""
    warnings = re.findall(r"\b\w*Warning\b.*", built.output)
    assert warnings == [], built.output
    assert "would be ignored" not in built.output


def test_wheel_installs_and_imports(built: Built, tmp_path: Path) -> None:
    names = zipfile.ZipFile(built.wheel).namelist()
    assert not [n for n in names if not n.startswith(("provmem/", "provmem-"))]
    assert not [n for n in names if "__pycache__" in n]
    word_files = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("core/*/words/*.txt"))
    assert sorted(n.removeprefix("provmem/") for n in names if "/words/" in n) == word_files
    target = tmp_path / "site"
    zipfile.ZipFile(built.wheel).extractall(target)
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(target), "PATH": ""},
        cwd=tmp_path,  # not the checkout: its provmem/ folder would shadow the wheel's
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().startswith(str(target))


def fresh_venv(folder: Path) -> Path:
    """A venv without pip whose dependencies come from this one's site-packages (a path in
    a .pth file: nothing is downloaded, and this venv's own .pth files, the editable
    install's finder among them, are not run). Returns its interpreter."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def test_the_wheel_runs_in_a_fresh_venv(built: Built, tmp_path: Path) -> None:
    python = fresh_venv(tmp_path / "venv")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    install = [str(python), "-m", "pip", "install", "--no-deps", "--no-index"]
    subprocess.run(
        [*install, "--ignore-installed", "-q", str(built.wheel)],
        check=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    command = tmp_path / "venv" / "bin" / "provmem"
    helped = subprocess.run(
        [str(command), "--help"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert helped.returncode == 0, helped.stderr
    assert "mcp" in helped.stdout and "query" in helped.stdout
    probe = subprocess.run(
        [str(python), "-c", FRESH_PROBE], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip().startswith(str(tmp_path / "venv")), probe.stdout
