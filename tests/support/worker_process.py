"""Faust workers of the distributed runtime as child processes: start, wait until ready,
stop or kill, and read their memory use. Used by benchmarks and fault tests."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pydantic import SecretStr

from provmem.config import Settings

READY_LINE = "[^Worker]: Ready"
#: Logged when a worker has recovered its tables, at start-up and after every rebalance.
RECOVERED_LINE = "[^---Recovery]: Worker ready"


def settings_env(settings: Settings) -> dict[str, str]:
    """The environment that recreates ``settings`` in a child process (secrets included)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROVMEM_")}
    for name, value in settings.model_dump().items():
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if value is not None:
            env[f"PROVMEM_{name.upper()}"] = str(value)
    return env


class WorkerProcess:
    """One ``provmem worker`` process logging to ``log_path``."""

    def __init__(self, settings: Settings, log_path: Path, loglevel: str = "info") -> None:
        self._settings = settings
        self.log_path = log_path
        self._loglevel = loglevel
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        command = [sys.executable, "-m", "provmem.services.cli", "worker"]
        with self.log_path.open("ab") as log:
            self._proc = subprocess.Popen(  # noqa: S603 - our own CLI, no shell
                [*command, "--loglevel", self._loglevel],
                env=settings_env(self._settings),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        return self

    @property
    def pid(self) -> int:
        if self._proc is None:
            raise RuntimeError("worker: not started")
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    async def ready(self, timeout_s: float = 90.0, seen: int = 0, line: str = READY_LINE) -> None:
        """Wait until the worker has joined its group and recovered its tables
        (the ``seen + 1``-th ``line`` of its log)."""
        deadline = time.monotonic() + timeout_s
        while self.log_text().count(line) <= seen:
            if not self.alive:
                raise RuntimeError(f"worker exited: {self.log_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"worker not ready after {timeout_s}s: {self.log_text()[-3000:]}"
                )
            await asyncio.sleep(0.2)

    async def stop(self, kill: bool = False, timeout_s: float = 30.0) -> None:
        if self._proc is None:
            return
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            await asyncio.to_thread(self._proc.wait, timeout_s)
        except subprocess.TimeoutExpired:  # it did not stop in time: kill it
            self._proc.kill()
            await asyncio.to_thread(self._proc.wait, timeout_s)
        self._proc = None

    def memory_mib(self) -> tuple[float, float]:
        """(current, peak) resident set size of the worker, in MiB."""
        fields = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            fields[name] = value
        return _kib(fields.get("VmRSS", "0")) / 1024, _kib(fields.get("VmHWM", "0")) / 1024

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def _kib(value: str) -> float:
    return float(value.split()[0]) if value.split() else 0.0
