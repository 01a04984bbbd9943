"""Fault injection for crash tests: SIGKILL this process at a named step of capture.

``PROVMEM_FAULT`` (read once, with the other settings) names the step; unset, every
point is a no-op. The steps, in the order capture passes them:

- ``capture.before_reserve``: the batch is validated, nothing looked up or appended;
- ``capture.after_reserve``: duplicates decided, turns sealed, nothing appended;
- ``capture.after_append``: the turns are on the log, nothing derived;
- ``capture.mid_derive``: this process's first stage committed its first batch, nothing
  else ran (embedded: the derive stage; Kafka: the local index, the workers derive).

And one of erasure: ``erasure.before_receipt``, everything erased and verified, the
receipt not written yet (services/erasure/subject.py).

A step named with ``/raise`` (``erasure.before_receipt/raise``) raises
:class:`InjectedFault` there instead: a failure the process survives, to see how it is
reported (the API's log: services/api/failures.py).
"""

from __future__ import annotations

import os
import signal

from provmem.config import Settings

STEPS = (
    "capture.before_reserve",
    "capture.after_reserve",
    "capture.after_append",
    "capture.mid_derive",
)


class InjectedFault(RuntimeError):
    """Raised at a step the settings name with ``/raise``."""


def fault_point(settings: Settings, step: str) -> None:
    """Die here, as a SIGKILL would kill us, when the settings name this step; raise
    :class:`InjectedFault` when they name it with ``/raise``."""
    if settings.fault == step:
        os.kill(os.getpid(), signal.SIGKILL)
    if settings.fault == f"{step}/raise":
        raise InjectedFault(f"fault injected at {step}")
