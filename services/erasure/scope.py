"""Erasing an organisation or a project: every subject in it, one subject erasure each.

A subject erasure is the unit the cascade knows (its gate state, partition and data key
belong to one ``org/project/user``). An organisation or project request is fanned out
at the service edge (CLI, API, SDK): the subjects are the user scopes the turns and
fact-changes topics name under the prefix, and each gets the request a ``--subject``
erasure would file, with its own receipt and its data key destroyed.
"""

from __future__ import annotations

from provmem.core.scope import scope_prefix, within
from provmem.services.erasure.subject import erasure_request
from provmem.services.memory.memory import MemoryService
from provmem.services.memory.results import ScopeErasure
from provmem.services.replay.checksum import scopes_on_log


def organisation_or_project(text: str) -> str:
    """``org`` or ``org/project``; ValueError names the field and the reason."""
    prefix = scope_prefix(text)
    if prefix.count("/") > 1:
        raise ValueError("scope: a user scope is erased with --subject, not as a prefix")
    return prefix


async def subjects_in(memory: MemoryService, prefix: str) -> list[str]:
    """The user scopes under ``prefix`` that the log names."""
    c = memory.components
    scopes = await scopes_on_log(c.log, [c.names.turns, c.names.fact_changes])
    return [scope for scope in scopes if within(scope, prefix)]


async def erase_scope(memory: MemoryService, prefix: str, reason: str = "") -> ScopeErasure:
    """File a subject erasure for every subject under ``prefix`` (``org`` or
    ``org/project``). Embedded: each runs at once; Kafka: their ids are queued."""
    prefix = organisation_or_project(prefix)
    completed, queued = [], []
    subjects = await subjects_in(memory, prefix)
    for subject in subjects:
        request = erasure_request(subject, [], None, True, reason)
        receipt = await memory.request_erasure(request)
        if receipt is None:
            queued.append(request.request_id)
        else:
            completed.append(receipt)
    return ScopeErasure(scope=prefix, subjects=len(subjects), completed=completed, queued=queued)
