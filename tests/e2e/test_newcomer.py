"""A newcomer's first minutes: the wheel installed into a fresh virtual environment, the
README's hello world run verbatim, a fact printed with its evidence.

To keep CI cheap the fresh environment borrows the test environment's dependencies (a
``.pth`` line naming its site-packages, which does not bring its editable provmem: ``.pth``
files of a path added that way are not processed), so only provmem itself is installed,
from the wheel built here. No ``PROVMEM_DATA_DIR``: the data goes to the per-user folder
of a fresh ``HOME``.
"""

from __future__ import annotations

import os
import re
import site
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hello_world() -> str:
    readme = (ROOT / "README.md").read_text()
    match = re.search(r"^```python\n(.*?)^```", readme, re.S | re.M)
    assert match is not None, "README.md has no Python example"
    lines = [line for line in match.group(1).splitlines() if line.strip()]
    assert len(lines) == 4, "the hello world is four lines"
    return match.group(1)


def fresh_venv(tmp_path: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = tmp_path.glob("provmem-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    (purelib,) = Path(venv / "lib").glob("python3*/site-packages")
    (purelib / "borrowed-deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
         "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )  # fmt: skip
    return python


def test_the_readme_hello_world_runs_in_a_fresh_venv(tmp_path: Path) -> None:
    python = fresh_venv(tmp_path)
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    drop = {"PROVMEM_DATA_DIR", "XDG_DATA_HOME", "PYTHONPATH", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k not in drop} | {"HOME": str(home)}
    where = subprocess.run(
        [str(python), "-c", "import provmem; print(provmem.__file__)"],
        capture_output=True, text=True, env=env, cwd=work, check=True,
    )  # fmt: skip
    assert where.stdout.startswith(str(tmp_path / "venv")), where.stdout
    (work / "hello.py").write_text(hello_world())
    run = subprocess.run(
        [str(python), "hello.py"], capture_output=True, text=True, env=env, cwd=work, timeout=300
    )
    assert run.returncode == 0, run.stderr
    first, evidence = run.stdout.splitlines()[:2]
    assert "Lisbon" in first and "fact_" in first, run.stdout
    assert evidence.strip().startswith("evidence ev_"), run.stdout
    assert '"I moved to Lisbon in May."' in evidence
    assert (home / ".local" / "share" / "provmem" / "log.db").exists()
    # the CLI reads the folder the hello world wrote (issue 31: it said "no scopes yet")
    scopes = subprocess.run(
        [str(python.parent / "provmem"), "scopes"], capture_output=True, text=True, env=env,
        cwd=work, timeout=300,
    )  # fmt: skip
    assert scopes.returncode == 0 and scopes.stdout.strip().startswith("default/"), scopes
