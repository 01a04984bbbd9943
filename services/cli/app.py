"""The ``provmem`` root command: every sub-app, in help order, each imported when used.

Building a command's options means importing its module and reading its signature, so
the root lists the commands by name and builds only the one that runs (``--help`` lists
them all): a query does not build the other twenty (start-up time, bench/cli.py).
"""

from __future__ import annotations

import importlib
from typing import Any

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
        sub = typer.Typer()
        sub.command("mcp")(module.mcp)
        return typer.main.get_command(sub)
    if name in ("keys", "dlq"):  # groups of their own
        group = typer.Typer()
        group.add_typer(module.app, name=name)
        return typer.main.get_group(group).commands[name]
    return typer.main.get_group(module.app).commands[name]


app = typer.Typer(
    cls=Commands,
    help="provmem: provenance-grounded long-term memory for AI agents.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def root() -> None:
    """provmem: provenance-grounded long-term memory for AI agents."""


def main() -> None:
    app()
