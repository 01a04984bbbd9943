"""The ``provmem keys`` group: ``keys rotate`` (the master key), and the API key commands
``keys create``, ``keys list``, ``keys revoke``. A token is printed
once, at creation; the store keeps only its hash.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from provmem.services.cli.options import Target, _fail, _run, console, shared_options

if TYPE_CHECKING:
    from provmem.config import Settings
    from provmem.services.api.auth import ApiKey, ApiKeys

app = typer.Typer(
    pretty_exceptions_show_locals=False,
    help="Manage API keys, the master key and the per-subject data keys.",
)

T = TypeVar("T")


def _with_keys(settings: Settings, work: Callable[[ApiKeys], Awaitable[T]]) -> T:
    import asyncio

    from provmem.services.api.auth import ApiKeys, open_key_store

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


@app.command("rotate")
@shared_options
def keys_rotate(
    new_key: Annotated[
        str | None,
        typer.Option(
            "--new-key",
            envvar="PROVMEM_NEW_MASTER_KEY",
            help="Base64 256-bit key; omit to generate one into the data folder's key file",
        ),
    ] = None,
    *,
    target: Target,
) -> None:
    """Re-wrap every data key under a new master key. The log is not touched."""
    from provmem.infra.crypto.envelope import (
        decode_key,
        master_key,
        master_key_file,
        rotate_master_key,
        write_key_file,
    )

    settings = target.settings()
    if new_key is None and settings.master_key is not None:
        _fail("--new-key: required when the master key comes from PROVMEM_MASTER_KEY")
    try:
        new = decode_key(new_key) if new_key is not None else os.urandom(32)
    except ValueError as error:
        _fail(f"--new-key: {error}")
    old = master_key(settings)
    count = _run(settings, lambda m: rotate_master_key(m.components.keys, old, new))
    key_file = master_key_file(settings) if settings.master_key is None else None
    if key_file is not None:
        write_key_file(key_file, new)
    if target.json:
        typer.echo(json.dumps({"rewrapped": count, "key_file": key_file and str(key_file)}))
    elif key_file is not None:
        console.print(f"re-wrapped {count} data keys; new master key in {key_file}")
    else:
        console.print(f"re-wrapped {count} data keys; now set PROVMEM_MASTER_KEY to the new key")


@app.command("create")
@shared_options
def keys_create(
    scope: Annotated[str, typer.Option("--scope", help="org or org/project the key may reach")],
    name: Annotated[str, typer.Option("--name", help="What the key is for")] = "",
    *,
    target: Target,
) -> None:
    """Create an API key bound to a scope; its token is shown once."""
    issued = _with_keys(target.settings(), lambda k: k.create(scope, name))
    if target.json:
        typer.echo(json.dumps({**_shown(issued.key), "token": issued.token}, indent=2))
        return
    console.print(f"API key {issued.key.key_id} for scope {issued.key.scope}")
    console.print("token (shown once, store it now):")
    typer.echo(issued.token)


@app.command("list")
@shared_options
def keys_list(
    *,
    target: Target,
) -> None:
    """List the API keys (id, name, scope, created, revoked); tokens are never stored."""
    keys = _with_keys(target.reading(), lambda k: k.list())
    if target.json:
        typer.echo(json.dumps([_shown(k) for k in keys], indent=2))
        return
    from rich.table import Table

    table = Table("key id", "name", "scope", "created", "revoked")
    for key in keys:
        shown = _shown(key)
        table.add_row(*(shown[c] or "" for c in shown))
    console.print(table)


@app.command("revoke")
@shared_options
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="The key id (from keys list)")],
    *,
    target: Target,
) -> None:
    """Revoke an API key: requests with its token are refused from now on."""
    key = _with_keys(target.settings(), lambda k: k.revoke(key_id))
    if target.json:
        typer.echo(json.dumps(_shown(key), indent=2))
        return
    console.print(f"API key {key.key_id} ({key.scope}) revoked")
