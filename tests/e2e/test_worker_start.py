"""``provmem worker`` as an operator starts it: it creates its data folder, names a
dependency it cannot reach in one line, and logs ``worker.ready`` with its partitions.

On 96a0921 a worker without Redis died with a 314-line traceback, a data folder that did
not exist ended it with FileNotFoundError, and it printed nothing once it was ready."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from provmem.config import Settings
from tests.harness import settings_env

COMMAND = [sys.executable, "-m", "provmem.services.cli", "worker"]


def test_a_worker_without_redis_says_so_in_one_line(kafka_settings: Settings) -> None:
    env = {**settings_env(kafka_settings), "PROVMEM_REDIS_URL": "redis://127.0.0.1:1/0"}
    run = subprocess.run(COMMAND, env=env, capture_output=True, text=True, timeout=120)
    out = (run.stdout + run.stderr).strip()
    assert run.returncode == 2 and "Traceback" not in out, out
    assert len(out.splitlines()) == 1 and "Redis redis://127.0.0.1:1/0: unreachable" in out, out


def test_a_worker_creates_its_folder_and_logs_ready_with_its_partitions(
    kafka_settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "not" / "there" / "yet"
    env = {**settings_env(kafka_settings), "PROVMEM_DATA_DIR": str(folder)}
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen(COMMAND, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while "worker.ready" not in log.read_text(errors="replace"):
            assert worker.poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.2)
    finally:
        worker.kill()
        worker.wait(30)
    ready = next(line for line in log.read_text().splitlines() if "worker.ready" in line)
    assert f"partitions=[{', '.join(str(p) for p in range(kafka_settings.partitions))}]" in ready
    assert folder.is_dir()
