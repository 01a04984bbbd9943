"""Options and helpers every ``provmem`` command shares: runtime selection, settings,
errors, and running one piece of work against a ``Memory``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from pydantic import ValidationError
from rich.console import Console

from ...infra.settings import Settings
from ...streams.runtime.components import build
from ..memory.logs import configure_logging
from ..memory.memory import Memory

console = Console()
T = TypeVar("T")

RuntimeOpt = Annotated[
    str | None, typer.Option("--runtime", help="embedded (default) or kafka", show_default=False)
]
DataDirOpt = Annotated[Path | None, typer.Option("--data-dir", help="Embedded data folder")]
BrokerOpt = Annotated[str | None, typer.Option("--broker", help="Kafka bootstrap servers")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables")]


def _settings(runtime: str | None, data_dir: Path | None, broker: str | None) -> Settings:
    overrides: dict[str, Any] = {}
    if runtime is not None:
        overrides["runtime"] = runtime
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    if broker is not None:
        overrides["broker_url"] = broker
    try:
        settings = Settings(**overrides)
    except ValidationError as error:
        _fail(f"invalid settings: {error.errors()[0]['loc'][0]}: {error.errors()[0]['msg']}")
    configure_logging(settings.log_level)
    return settings


def _fail(message: str, code: int = 2) -> None:
    console.print(f"[red]error:[/red] {message}")
    raise typer.Exit(code)


@asynccontextmanager
async def _memory(settings: Settings) -> Any:
    components = await build(settings)
    try:
        yield Memory(components)
    finally:
        await components.close()


def _run(settings: Settings, work: Callable[[Memory], Awaitable[T]]) -> T:
    async def main() -> T:
        async with _memory(settings) as memory:
            return await work(memory)

    try:
        return asyncio.run(main())
    except (ValueError, LookupError, OSError) as error:
        _fail(str(error))
        raise  # unreachable: _fail exits
