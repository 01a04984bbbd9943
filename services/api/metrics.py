"""Prometheus metrics of the API: requests and latency per route, turns published, queries,
and the pipeline lag (records on the log not yet handled by the consumer group).

Each app gets its own registry (no module-level singletons), exposed at ``/metrics``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from provmem.core.ports import EventLog
from provmem.services.memory.results import PublishResult

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class ApiMetrics:
    """The API's metrics, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "provmem_http_requests",
            "HTTP requests by route template, method and status",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "provmem_http_request_duration_seconds",
            "Time to handle an HTTP request (a stream: its whole life)",
            ["method", "route"],
            registry=self.registry,
        )
        self.turns = Counter(
            "provmem_turns_published",
            "Turns received over the API, by outcome",
            ["status"],
            registry=self.registry,
        )
        self.queries = Counter("provmem_queries", "Queries answered", registry=self.registry)
        self.lag = Gauge(
            "provmem_pipeline_lag_records",
            "Records on a topic the pipeline's consumer group has not handled yet",
            ["topic"],
            registry=self.registry,
        )

    def published(self, results: Sequence[PublishResult]) -> None:
        for result in results:
            self.turns.labels(result.status).inc()

    async def render(self, log: EventLog, groups: Mapping[str, str]) -> bytes:
        """The exposition text, with the lag of each topic's consumer group measured now."""
        for topic, group in groups.items():
            self.lag.labels(topic).set(await _lag(log, group, topic))
        return generate_latest(self.registry)


async def _lag(log: EventLog, group: str, topic: str) -> int:
    lag = 0
    for partition in range(await log.partitions(topic)):
        end = await log.end_offset(topic, partition)
        lag += max(0, end - await log.committed(group, topic, partition))
    return lag


class MetricsMiddleware:
    """Counts and times every HTTP request under its route template (never a raw path,
    so ids do not explode the label set)."""

    def __init__(self, app: ASGIApp, metrics: ApiMetrics) -> None:
        self._app = app
        self._metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        status = [500]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        started = time.perf_counter()
        try:
            await self._app(scope, receive, sending)
        finally:
            self._record(scope, status[0], time.perf_counter() - started)

    def _record(self, scope: Scope, status: int, seconds: float) -> None:
        route: Any = scope.get("route")
        template = getattr(route, "path", "unmatched")
        method = str(scope.get("method", ""))
        self._metrics.requests.labels(method, template, str(status)).inc()
        self._metrics.latency.labels(method, template).observe(seconds)


__all__ = ["CONTENT_TYPE", "ApiMetrics", "MetricsMiddleware"]
