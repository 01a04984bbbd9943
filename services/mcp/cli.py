"""``provmem mcp``: serve memory to an agent over MCP (stdio by default, or HTTP)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from provmem.services.mcp.server import RequestAuth
    from provmem.services.sdk.facade import AsyncMemory


def mcp(
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", help="Data folder (default: PROVMEM_DATA_DIR, else per user)"),
    ] = None,
    url: Annotated[
        str | None, typer.Option("--url", help="A provmem API server instead of a data folder")
    ] = None,
    api_key: Annotated[
        str | None, typer.Option("--api-key", envvar="PROVMEM_API_KEY", help="For --url")
    ] = None,
    org: Annotated[str, typer.Option(help="The organisation of the users' scopes")] = "default",
    project: Annotated[str, typer.Option(help="The project of the users' scopes")] = "default",
    http: Annotated[bool, typer.Option("--http", help="Streamable HTTP instead of stdio")] = False,
    host: Annotated[str, typer.Option(help="With --http")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="With --http")] = 8765,
    user_id: Annotated[
        str | None,
        typer.Option(
            "--user-id",
            envvar="PROVMEM_MCP_USER_ID",
            help="Serve this user alone: user_id optional on every tool, another refused",
        ),
    ] = None,
) -> None:
    """Serve memory to an agent over MCP: tools to add messages, search with evidence,
    list facts, show a fact's history, correct, retract and erase; facts as resources."""
    import asyncio

    require_sdk()
    from provmem.services.sdk.facade import AsyncMemory
    from provmem.services.sdk.facade_setup import embedded_settings

    if http and url is not None:
        raise typer.BadParameter(
            "--http serves a data folder or runtime, not --url", param_hint="--url"
        )
    settings = None if url is not None else embedded_settings(data_dir)
    memory = AsyncMemory(url=url, api_key=api_key, org=org, project=project, settings=settings)
    _check_user(memory, user_id)
    if http:
        assert settings is not None
        asyncio.run(_serve_http(memory, settings, host, port, user_id))
    else:
        asyncio.run(_serve_stdio(memory, user_id))


def require_sdk() -> None:
    """Exit 2 with a one-line install hint when the MCP SDK (the ``mcp`` extra) is not
    installed."""
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError as error:
        typer.echo(
            f"provmem mcp needs the mcp extra: pip install 'provmem[mcp]' ({error})", err=True
        )
        raise typer.Exit(2) from None


def _check_user(memory: AsyncMemory, user_id: str | None) -> None:
    if user_id is None:
        return
    try:
        memory.scope(user_id)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--user-id") from None


async def _serve_stdio(memory: AsyncMemory, user_id: str | None) -> None:
    from provmem.services.mcp.server import build_server

    try:
        await build_server(memory, user_id=user_id).run_stdio_async()
    finally:
        await memory.close()


async def _serve_http(
    memory: AsyncMemory, settings: Any, host: str, port: int, user_id: str | None
) -> None:
    import uvicorn

    from provmem.services.api.auth import ApiKeys, open_key_store
    from provmem.services.mcp.server import RequestAuth, build_server

    store = open_key_store(settings)
    gate = RequestAuth(ApiKeys(store), settings.api_auth)
    app = KeyCheck(build_server(memory, gate, user_id).streamable_http_app(host=host), gate)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    typer.echo(f"provmem MCP (streamable HTTP) on http://{host}:{port}/mcp", err=True)
    try:
        await server.serve()
    finally:
        await memory.close()
        await store.close()


class KeyCheck:
    """Refuses HTTP requests without a usable API key (401) before MCP sees them."""

    def __init__(self, app: ASGIApp, gate: RequestAuth) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.responses import JSONResponse

        from provmem.services.api.auth import Unauthenticated

        if scope["type"] == "http":
            headers = {
                k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]
            }
            try:
                await self.gate.grant(headers)
            except Unauthenticated as error:
                refusal = JSONResponse(
                    {"detail": str(error)}, 401, headers={"WWW-Authenticate": "Bearer"}
                )
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def main() -> None:
    typer.run(mcp)
