"""``provmem where``: the data folder every command, the API, MCP and ``Memory()`` use."""

from __future__ import annotations

import typer

from provmem.services.cli.options import DataDirOpt, JsonOpt

app = typer.Typer(pretty_exceptions_show_locals=False)


@app.command()
def where(data_dir: DataDirOpt = None, json_out: JsonOpt = False) -> None:
    """Print the data folder (``--data-dir``, else PROVMEM_DATA_DIR, else the per-user
    default) and whether it exists yet."""
    import json

    from provmem.config import Settings

    folder = (Settings(data_dir=data_dir) if data_dir else Settings()).data_dir.absolute()
    if json_out:
        typer.echo(json.dumps({"data_dir": str(folder), "exists": folder.is_dir()}))
    else:
        typer.echo(f"{folder}{'' if folder.is_dir() else '  (not created yet)'}")
