"""The ``provmem`` root command: every sub-app, composed once, in help order."""

from __future__ import annotations

import typer

from . import admin, dlq, keys, memory, replay, review

app = typer.Typer(
    help="provmem: provenance-grounded long-term memory for AI agents.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(memory.app)
app.add_typer(admin.app)
app.add_typer(keys.app, name="keys")
app.add_typer(dlq.app, name="dlq")
app.add_typer(replay.app)
app.add_typer(review.app)


def main() -> None:
    app()
