"""A real ``provmem mcp`` server process for tests: over stdio (its command) or over
streamable HTTP on a free port, with the official SDK client's helpers."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.support.tansu import free_port

__all__ = ["McpServer", "call", "http_server", "keyed", "server_command"]

STARTUP_SECONDS = 60


def server_command(data_dir: Path, *extra: str) -> list[str]:
    """The arguments after ``python`` that start ``provmem mcp`` on ``data_dir``."""
    return ["-m", "provmem.services.mcp", "--data-dir", str(data_dir), *extra]


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call ``tool``; its typed (structured) answer."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def keyed(url: str, token: str | None) -> Any:
    """A streamable-HTTP client of ``url`` that sends ``token`` as a bearer key."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))


@dataclass(frozen=True)
class McpServer:
    url: str
    process: subprocess.Popen[bytes]


@contextmanager
def http_server(data_dir: Path, log: Path, *extra: str) -> Iterator[McpServer]:
    """``provmem mcp --http`` on ``data_dir`` until it answers (or dies: the log says why)."""
    port = free_port()
    command = [sys.executable, *server_command(data_dir, "--http", "--port", str(port), *extra)]
    with log.open("w") as err:
        process = subprocess.Popen(command, stderr=err, stdout=subprocess.DEVNULL)
    server = McpServer(f"http://127.0.0.1:{port}/mcp", process)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert process.poll() is None, log.read_text()
            try:
                httpx.get(server.url, timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the MCP server did not start"
                time.sleep(0.1)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(30)
