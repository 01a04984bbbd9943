"""The ``provmem`` root command: every sub-app, in help order, each imported when used.

Building a command's options means importing its module and reading its signature, so
the root lists the commands by name and builds only the one that runs (``--help`` lists
them all): a query does not build the other twenty (start-up time, bench/cli.py).
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

#: Every command of the root in help order, and the module (below provmem.services) whose
#: ``app`` holds it; ``mcp.cli`` holds the ``mcp`` function itself.
COMMANDS: dict[str, str] = {
    **dict.fromkeys(("mcp",), "mcp.cli"),
    **dict.fromkeys(
        ("demo", "publish", "ingest", "query", "facts", "evidence", "scopes"), "cli.memory"
    ),
    **dict.fromkeys(("worker", "calibrate", "erase", "eval", "api", "audit"), "cli.admin"),
    **dict.fromkeys(("keys",), "cli.keys"),
    **dict.fromkeys(("where",), "cli.where"),
    **dict.fromkeys(("dlq",), "cli.dlq"),
    **dict.fromkeys(("replay",), "cli.replay"),
    **dict.fromkeys(("correct", "retract", "review", "approve", "reject"), "cli.review"),
}


class Commands(TyperGroup):
    """The root group: a command is imported and built on first lookup."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = _built(cmd_name)
        return self.commands.get(cmd_name)


def _built(name: str) -> Any:
    module = importlib.import_module(f"{__package__.rsplit('.', 1)[0]}.{COMMANDS[name]}")
    if name == "mcp":
        sub = typer.Typer(pretty_exceptions_show_locals=False)
        sub.command("mcp")(module.mcp)
        return typer.main.get_command(sub)
    if name in ("keys", "dlq"):  # groups of their own
        group = typer.Typer(pretty_exceptions_show_locals=False)
        group.add_typer(module.app, name=name)
        return typer.main.get_group(group).commands[name]
    return typer.main.get_group(module.app).commands[name]


app = typer.Typer(
    pretty_exceptions_show_locals=False,  # locals may hold what a user said
    cls=Commands,
    help="provmem: provenance-grounded long-term memory for AI agents.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(shown: bool) -> None:
    if shown:
        from provmem import __version__
        from provmem.config import Settings

        typer.echo(f"provmem {__version__}, data folder {Settings().data_dir.absolute()}")
        raise typer.Exit


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Version and data folder"),
    ] = False,
) -> None:
    """provmem: provenance-grounded long-term memory for AI agents."""


def main() -> None:
    app()
