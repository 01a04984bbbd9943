"""The one place provmem reaches into faust-streaming's internals: the delivery fence,
and a worker that stops without mode's fixed pauses.

faust's consumer chooses the offset it commits for a partition in a private method,
``Consumer._new_offset(tp) -> int | None``, which its commit path
(``Consumer._filter_committable_offsets``) calls as ``self._new_offset(tp)``. The fence
(:func:`fence_commits`) wraps that method on the app's consumer *instance*, so no commit
passes a delivery frontier (streams/delivery.py). A private API can change in any
release: :func:`require_tested_faust` refuses to start on a faust-streaming version
outside :data:`TESTED`, and on one whose consumer does not have the shape the fence
relies on (tests/unit/test_faust_compat.py checks the same shape, and that the fence
holds a real consumer's commit back). Widen :data:`TESTED` only after those tests and
tests/integration/test_scale_out.py pass on the new version.

mode's worker (faust's base) ends every stop with two fixed pauses after its services
have stopped: up to 1 s waiting for stray tasks before it cancels them, then a 1 s
"sentinel" sleep before closing the loop. :func:`quick_stop_worker` makes a worker class
that waits at most :data:`STRAY_TASK_WAIT_S` and sleeps no sentinel: a rolling restart
(and every worker test) spends 2 s less per stop; what stops is the same.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

#: faust-streaming versions the fence was tested with: [low, high).
TESTED = ((0, 15, 0), (0, 16, 0))
DISTRIBUTION = "faust-streaming"

#: The lowest delivery frontier of a (topic, partition), None when no agent tracks it.
Frontier = Callable[[tuple[str, int]], int | None]


class UntestedFaustError(RuntimeError):
    """The installed faust-streaming is not one the delivery fence was tested with."""


def tested_range() -> str:
    low, high = (".".join(map(str, bound)) for bound in TESTED)
    return f">={low},<{high}"


def installed_version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError as error:
        raise UntestedFaustError(f"{DISTRIBUTION} is not installed") from error


def require_tested_faust(installed: str | None = None) -> str:
    """The installed version, if it is in :data:`TESTED` and its consumer has the shape
    the fence patches; :class:`UntestedFaustError` names the version and the range."""
    found = installed or installed_version()
    if not TESTED[0] <= _release(found) < TESTED[1]:
        raise UntestedFaustError(
            f"{DISTRIBUTION} {found} is untested: the delivery fence patches a private "
            f"consumer method (streams/faust/compat.py); tested range {tested_range()}"
        )
    problems = shape_problems()
    if problems:
        raise UntestedFaustError(
            f"{DISTRIBUTION} {found}: its consumer changed shape ({'; '.join(problems)}); "
            f"the delivery fence cannot hold (tested range {tested_range()})"
        )
    return found


def shape_problems() -> list[str]:
    """What the fence relies on that faust's Consumer no longer offers (empty: all of it)."""
    from faust.transport.consumer import Consumer

    problems = []
    method = vars(Consumer).get("_new_offset")
    if not callable(method):
        return ["Consumer._new_offset is gone"]
    if list(inspect.signature(method).parameters) != ["self", "tp"]:
        problems.append(f"Consumer._new_offset{inspect.signature(method)} is not (self, tp)")
    commit_path = vars(Consumer).get("_filter_committable_offsets")
    if commit_path is None or "self._new_offset(tp)" not in inspect.getsource(commit_path):
        problems.append("the commit path no longer calls self._new_offset(tp)")
    return problems


def fence_commits(consumer: Any, frontier: Frontier) -> None:
    """Make ``consumer`` commit no offset past ``frontier`` of its partition."""
    new_offset = consumer._new_offset

    def fenced(tp: Any) -> int | None:
        offset: int | None = new_offset(tp)
        held = frontier((tp.topic, tp.partition))
        return offset if offset is None or held is None else min(offset, held)

    consumer._new_offset = fenced


#: How long a stopping worker lets stray tasks end on their own before cancelling them.
STRAY_TASK_WAIT_S = 0.1


def quick_stop_worker(base: type[Any]) -> type[Any]:
    """A subclass of mode's ``Worker`` (faust's ``faust.worker.Worker``) that ends its
    loop without the fixed pauses; refuses a base whose shutdown lacks the two methods."""
    missing = [name for name in ("_gather_all", "_sentinel_task") if not hasattr(base, name)]
    if missing:
        raise UntestedFaustError(f"mode's Worker changed shape: {', '.join(missing)} gone")

    class Worker(base):  # type: ignore[misc]
        """Named as its base, so the log reads "[^Worker]: Ready" as faust's does."""

        def _gather_all(self) -> None:
            loop = self.loop
            loop.run_until_complete(_strays_done(loop, STRAY_TASK_WAIT_S))
            for task in asyncio.all_tasks(loop):
                task.cancel()

        async def _sentinel_task(self) -> None:
            await asyncio.sleep(0)

    return Worker


async def _strays_done(loop: asyncio.AbstractEventLoop, within_s: float) -> None:
    """Wait until no task but this one is left on ``loop``, for at most ``within_s``."""
    deadline = loop.time() + within_s
    while loop.time() < deadline and len(asyncio.all_tasks(loop)) > 1:
        await asyncio.sleep(0.01)


def _release(text: str) -> tuple[int, ...]:
    """``0.15.3`` -> (0, 15, 3); a pre-release or local suffix is ignored."""
    found = re.match(r"\d+(\.\d+)*", text)
    if found is None:
        raise UntestedFaustError(f"{DISTRIBUTION} version {text!r} is not a version number")
    parts = tuple(int(part) for part in found.group().split("."))
    return (parts + (0, 0, 0))[:3]
