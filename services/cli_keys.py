"""API key commands of the ``provmem`` CLI: ``keys create``, ``keys list``, ``keys revoke``.

They sit in the ``keys`` group beside ``keys rotate`` (the master key). A token is printed
once, at creation; the store keeps only its hash.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

import typer
from rich.table import Table

from ..infra.settings import Settings
from .auth import ApiKey, ApiKeys, open_key_store
from .cli import BrokerOpt, DataDirOpt, JsonOpt, RuntimeOpt, _fail, _settings, console
from .cli_admin import keys_app

T = TypeVar("T")


def _with_keys(settings: Settings, work: Callable[[ApiKeys], Awaitable[T]]) -> T:
    async def main() -> T:
        store = open_key_store(settings)
        try:
            return await work(ApiKeys(store))
        finally:
            await store.close()

    try:
        return asyncio.run(main())
    except (ValueError, LookupError, OSError) as error:
        _fail(str(error))
        raise  # unreachable: _fail exits


def _shown(key: ApiKey) -> dict[str, str | None]:
    """What a listing shows: never the hash."""
    return {
        "key_id": key.key_id,
        "name": key.name,
        "scope": key.scope,
        "created_at": key.created_at.isoformat(),
        "revoked_at": key.revoked_at.isoformat() if key.revoked_at else None,
    }


@keys_app.command("create")
def keys_create(
    scope: Annotated[str, typer.Option("--scope", help="org or org/project the key may reach")],
    name: Annotated[str, typer.Option("--name", help="What the key is for")] = "",
    runtime: RuntimeOpt = None,
    data_dir: DataDirOpt = None,
    broker: BrokerOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Create an API key bound to a scope; its token is shown once."""
    issued = _with_keys(_settings(runtime, data_dir, broker), lambda k: k.create(scope, name))
    if json_out:
        typer.echo(json.dumps({**_shown(issued.key), "token": issued.token}, indent=2))
        return
    console.print(f"API key {issued.key.key_id} for scope {issued.key.scope}")
    console.print("token (shown once, store it now):")
    typer.echo(issued.token)


@keys_app.command("list")
def keys_list(
    runtime: RuntimeOpt = None,
    data_dir: DataDirOpt = None,
    broker: BrokerOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List the API keys (id, name, scope, created, revoked); tokens are never stored."""
    keys = _with_keys(_settings(runtime, data_dir, broker), lambda k: k.list())
    if json_out:
        typer.echo(json.dumps([_shown(k) for k in keys], indent=2))
        return
    table = Table("key id", "name", "scope", "created", "revoked")
    for key in keys:
        shown = _shown(key)
        table.add_row(*(shown[c] or "" for c in shown))
    console.print(table)


@keys_app.command("revoke")
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="The key id (from keys list)")],
    runtime: RuntimeOpt = None,
    data_dir: DataDirOpt = None,
    broker: BrokerOpt = None,
) -> None:
    """Revoke an API key: requests with its token are refused from now on."""
    key = _with_keys(_settings(runtime, data_dir, broker), lambda k: k.revoke(key_id))
    console.print(f"API key {key.key_id} ({key.scope}) revoked")
