"""The seconds each step of one erasure took, logged once as ``erasure.steps``.

The Eraser (streams/erasure/eraser.py) and the cascade (streams/erasure/cascade.py) mark
the end of each step on one :class:`StepClock`; what grows with the data folder shows in
the log line of every request (bench/erasure prints it too).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import structlog

log = structlog.get_logger(__name__)


@dataclass
class StepClock:
    """Seconds per named step, each from the end of the step before it."""

    request_id: str = ""
    steps: dict[str, float] = field(default_factory=dict)
    _last: float = field(default_factory=time.perf_counter)

    def lap(self, step: str) -> None:
        """The step ``step`` ended now."""
        now = time.perf_counter()
        self.steps[step] = self.steps.get(step, 0.0) + now - self._last
        self._last = now

    def report(self) -> dict[str, float]:
        """Log the steps (rounded to the millisecond) and return them."""
        rounded = {step: round(seconds, 3) for step, seconds in self.steps.items()}
        log.info("erasure.steps", request_id=self.request_id, seconds=rounded)
        return rounded
