"""Options and helpers every ``provmem`` command shares: runtime selection, settings,
errors, and running one piece of work against a ``Memory``.

Start-up time is paid by every command, ``--help`` included, so nothing heavy is
imported here at module level: settings (pydantic), the runtime (stores, the embedding
model) and rich are loaded when a command first needs them (bench/cli.py measures it).
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from provmem.config import Settings
    from provmem.services.memory.memory import MemoryService

T = TypeVar("T")

RuntimeOpt = Annotated[
    str | None, typer.Option("--runtime", help="embedded (default) or kafka", show_default=False)
]
DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir", help="Embedded data folder (default: PROVMEM_DATA_DIR, else `provmem where`)"
    ),
]
BrokerOpt = Annotated[str | None, typer.Option("--broker", help="Kafka bootstrap servers")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables")]


@dataclass(frozen=True)
class Target:
    """The options every memory command shares: which runtime and data (``--runtime``,
    ``--data-dir``, ``--broker``) and how to print (``--json``)."""

    runtime: str | None = None
    data_dir: Path | None = None
    broker: str | None = None
    json: bool = False

    def settings(self, data_dir: Path | None = None) -> Settings:
        return _settings(self.runtime, data_dir or self.data_dir, self.broker)

    def reading(self) -> Settings:
        """A read command's settings: exit 2 when its data folder does not exist (a read
        never creates one, and a mistyped --data-dir is not an empty memory)."""
        return existing(self.settings())

    def run(self, work: Callable[[MemoryService], Awaitable[T]]) -> T:
        """``work`` against this target's memory (errors: one line on stderr, exit 2)."""
        return _run(self.settings(), work)

    def read(self, work: Callable[[MemoryService], Awaitable[T]]) -> T:
        """:meth:`run` for a command that only reads."""
        return _run(self.reading(), work)


def existing(settings: Settings) -> Settings:
    """``settings`` when their embedded data folder exists, else one line and exit 2."""
    from provmem.streams.runtime.components import runtime_for

    if runtime_for(settings).memory_in_folder and not settings.data_dir.is_dir():
        _fail(
            f"data folder {settings.data_dir} does not exist: nothing remembered there "
            "(give --data-dir or PROVMEM_DATA_DIR; `provmem where` prints the default)"
        )
    return settings


_SHARED = {"runtime": RuntimeOpt, "data_dir": DataDirOpt, "broker": BrokerOpt, "json": JsonOpt}


def shared_options(command: Callable[..., None]) -> Callable[..., None]:
    """``command(..., target: Target)`` as a Typer command: ``target`` is replaced by the
    shared options (last in its help), and the command gets them as one :class:`Target`."""
    hints = typing.get_type_hints(command, include_extras=True)
    own = [
        parameter.replace(annotation=hints[parameter.name])
        for parameter in inspect.signature(command).parameters.values()
        if parameter.name != "target"
    ]
    keyword = inspect.Parameter.KEYWORD_ONLY
    defaults = Target()
    shared = [
        inspect.Parameter(name, keyword, annotation=option, default=getattr(defaults, name))
        for name, option in _SHARED.items()
    ]

    @functools.wraps(command)
    def call(**values: Any) -> None:
        target = Target(**{name: values.pop(name) for name in _SHARED})
        command(**values, target=target)

    del call.__wrapped__  # Typer reads the signature below, not the command's
    call.__signature__ = inspect.Signature([*own, *shared])  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in [*own, *shared]}
    return call


@functools.cache
def _console(stderr: bool) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, soft_wrap=True)  # ids are never cut


class _LazyConsole:
    """A rich Console built on first use; ``stderr`` for errors and progress."""

    def __init__(self, stderr: bool = False) -> None:
        self._stderr = stderr

    @property
    def real(self) -> Console:
        return _console(self._stderr)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


console: Any = _LazyConsole()
errors: Any = _LazyConsole(stderr=True)


def _settings(runtime: str | None, data_dir: Path | None, broker: str | None) -> Settings:
    from pydantic import ValidationError

    from provmem.config import Settings
    from provmem.services.memory.logs import configure_logging

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


def _fail(message: str, code: int = 2) -> NoReturn:
    """An error on stderr and a non-zero exit."""
    errors.print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)  # one line
    raise typer.Exit(code)


@asynccontextmanager
async def _memory(settings: Settings) -> Any:
    from provmem.services.memory.memory import MemoryService
    from provmem.streams.runtime.components import build

    components = await build(settings)
    try:
        await components.vectors.open()  # is the folder held? (below)
        yield MemoryService(components)
    finally:
        await components.close()


async def ensure_folder_free(settings: Settings) -> None:
    """Raise VectorIndexLocked when a running API or worker owns this data folder's index
    (this process then reads beside it: it may not replay)."""
    from provmem.infra.vectors.edge import VectorIndexLocked
    from provmem.streams.runtime.index_slots import holder

    async with _memory(settings) as memory:
        components = memory.components
        if components.index_slot:  # a reader slot beside the folder's owner
            folder = components.runtime.vectors_folder(components.generation)
            raise VectorIndexLocked(f"{folder} is open elsewhere: held by {holder(folder)}")


def in_use(error: Exception) -> str:
    """One line for a data folder another process holds (a running API or worker)."""
    return (
        f"{error} (a running provmem API or worker holds this data folder): "
        "stop it, or do this through its HTTP API"
    )


_DEPENDENCIES = {"redis": "Redis", "aiokafka": "Kafka broker", "qdrant_client": "Qdrant"}


def unreachable(settings: Settings, error: Exception) -> str | None:
    """One line naming the dependency a connection error is about (as the worker says it),
    or None when the error is none of Redis's, the broker's or Qdrant's."""
    package = type(error).__module__.partition(".")[0]
    name = _DEPENDENCIES.get(package)
    if name is None or "connect" not in f"{type(error).__name__} {error}".lower():
        return None
    where = {"Redis": settings.redis_url, "Kafka broker": settings.broker_url}
    address = where.get(name, settings.qdrant_url)
    return f"{name} {address}: unreachable ({str(error) or type(error).__name__})"


def _run(settings: Settings, work: Callable[[MemoryService], Awaitable[T]]) -> T:
    async def main() -> T:
        async with _memory(settings) as memory:
            return await work(memory)

    import asyncio

    from provmem.infra.vectors.edge import VectorIndexLocked

    try:
        return asyncio.run(main())
    except VectorIndexLocked as error:
        _fail(in_use(error))
        raise  # unreachable: _fail exits
    except (ValueError, LookupError, OSError) as error:
        _fail(unreachable(settings, error) or str(error))
    except Exception as error:
        line = unreachable(settings, error)
        if line is None:
            raise
        _fail(line)
