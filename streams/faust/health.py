"""A faust worker's health: ``GET /health`` on its web port (``worker_web_port``; the
web server is off when it is unset).

200 when the worker holds partitions of the turns topic and reaches the broker, Redis and
(when set) the Qdrant server; 503 otherwise, naming what it cannot reach in ``problems``
(one line each, as ``provmem worker`` says it at start-up)::

    {"status": "ok", "ready": true, "partitions": [0, 1],
     "dependencies": {"kafka": "reachable", "redis": "reachable"}, "problems": []}
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from provmem.config import Settings
from provmem.streams.runtime.dependencies import dependency_checks

CHECK_TIMEOUT_S = 5.0


@dataclass
class Assignment:
    """The partitions of the turns topic this worker holds (updated on each rebalance)."""

    partitions: list[int] = field(default_factory=list)
    assigned: bool = False

    def hold(self, partitions: list[int]) -> None:
        self.partitions, self.assigned = partitions, True


async def health(settings: Settings, assignment: Assignment) -> tuple[int, dict[str, Any]]:
    """The HTTP status and body of ``/health``: every dependency checked at once."""
    checks = dependency_checks(settings)
    results = await asyncio.gather(
        *(asyncio.wait_for(check(), CHECK_TIMEOUT_S) for _, check in checks.values()),
        return_exceptions=True,
    )
    dependencies, problems = {}, []
    for (key, (name, _)), result in zip(checks.items(), results, strict=True):
        if isinstance(result, BaseException):
            dependencies[key] = "unreachable"
            problems.append(f"{name}: unreachable ({str(result) or type(result).__name__})")
        else:
            dependencies[key] = "reachable"
    if not assignment.assigned:
        problems.append("no partitions assigned yet (the worker is joining its group)")
    body = {
        "status": "ok" if not problems else "unavailable",
        "ready": assignment.assigned,
        "partitions": assignment.partitions,
        "dependencies": dependencies,
        "problems": problems,
    }
    return (200 if not problems else 503), body


def serve_health(app: Any, settings: Settings, assignment: Assignment) -> None:
    """Register ``GET /health`` on the faust app's web server."""

    @app.page("/health")
    async def health_page(view: Any, request: Any) -> Any:
        status, body = await health(settings, assignment)
        return view.json(body, status=status)


__all__ = ["Assignment", "health", "serve_health"]
