"""One default data folder: ``Memory()``, the CLI, ``provmem keys`` (and so the API and
the inspector, which read the same settings) use the per-user folder unless
``PROVMEM_DATA_DIR`` or ``--data-dir`` says otherwise; ``provmem where`` and ``provmem
--version`` print it; a read command never creates a missing folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HELLO = """
from provmem import Memory
with Memory() as m:
    m.add("I moved to Lisbon in May.", user_id="alice@example.com")
"""


def _env(home: Path, **extra: str) -> dict[str, str]:
    drop = {"PROVMEM_DATA_DIR", "XDG_DATA_HOME"}
    return {k: v for k, v in os.environ.items() if k not in drop} | {"HOME": str(home)} | extra


def provmem(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "provmem.services.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def test_memory_the_cli_and_keys_share_the_per_user_folder(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    env = _env(home)
    folder = home / ".local" / "share" / "provmem"
    where = provmem(env, work, "where")
    assert where.returncode == 0 and where.stdout.startswith(str(folder)), where.stdout
    assert "not created yet" in where.stdout
    hello = subprocess.run(
        [sys.executable, "-c", HELLO], capture_output=True, text=True, env=env, cwd=work
    )
    assert hello.returncode == 0, hello.stderr
    scopes = provmem(env, work, "scopes", "--json")
    assert scopes.returncode == 0, scopes.stderr
    (scope,) = json.loads(scopes.stdout)
    assert scope.startswith("default/default/sid0.")
    created = provmem(env, work, "keys", "create", "--scope", "default", "--name", "bot")
    assert created.returncode == 0, created.stderr
    assert (folder / "api-keys.db").exists() and not (work / ".provmem").exists()
    version = provmem(env, work, "--version")
    assert version.returncode == 0 and str(folder) in version.stdout, version.stdout
    assert provmem(env, work, "where").stdout.strip() == str(folder)


def test_the_environment_and_the_option_override_the_default(tmp_path: Path) -> None:
    env = _env(tmp_path / "home", PROVMEM_DATA_DIR=str(tmp_path / "env"))
    shown = json.loads(provmem(env, tmp_path, "where", "--json").stdout)
    assert shown == {"data_dir": str(tmp_path / "env"), "exists": False}
    given = provmem(env, tmp_path, "where", "--data-dir", str(tmp_path / "opt"))
    assert given.stdout.startswith(str(tmp_path / "opt"))


@pytest.mark.parametrize(
    "command",
    [
        ["query", "default/default/alice", "Where?"],
        ["facts", "default/default/alice"],
        ["scopes"],
        ["evidence", "ev_0"],
        ["review", "default/default/alice"],
        ["keys", "list"],
    ],
)
def test_a_read_on_a_missing_folder_is_one_error_and_creates_nothing(
    tmp_path: Path, command: list[str]
) -> None:
    missing = tmp_path / "missing" / "path"
    run = provmem(_env(tmp_path / "home"), tmp_path, *command, "--data-dir", str(missing))
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"data folder {missing} does not exist" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert not (tmp_path / "missing").exists()
