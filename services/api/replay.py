"""Replay jobs over HTTP: ``POST /v1/replays`` starts one, ``GET /v1/replays/{id}`` follows it.

A job runs in the API process, in the background, against the components the API serves
(the embedded vector index can only be open once). A replay of the whole deployment
touches every tenant, so only an unscoped grant (``api_auth=off``) may start one; a key
bound to a scope may check scopes inside it (``scopes``), which is never switched in. A
job is visible to grants that could have started it; to others it does not exist (404).

When a job switches a generation in, the API serves the new generation from then on:
new components are built (bootstrap reads the pointer), the old generation's vector
index is released and its data dropped; the old log and store connections stay open for
streams already reading them and are closed with the new components when the API stops.
"""

# No ``from __future__ import annotations``: the routes are made in a function and FastAPI
# must see the grant dependency object itself, not its name.
import asyncio
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import structlog
from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from provmem.services.api.auth import Grant
from provmem.services.memory.memory import MemoryService
from provmem.services.replay.generations import ReplayError, retire_generations
from provmem.services.replay.run import (
    MODES,
    Replayer,
    ReplayInterrupted,
    ReplayPlan,
    ReplayResult,
)
from provmem.streams.runtime.components import build

log = structlog.get_logger(__name__)


class ReplayRequest(BaseModel):
    """What to replay; see ``provmem replay --help``."""

    mode: Literal["fact-changes", "turns"] = Field(
        "fact-changes", description="Rebuild from " + " or ".join(MODES)
    )
    scopes: list[str] = Field(
        default_factory=list,
        max_length=1000,
        description="org/project/user scopes to check (never switched in); empty: everything",
    )
    resume: bool = Field(False, description="Continue the interrupted replay from its checkpoint")
    switch: bool = Field(True, description="Switch the rebuilt generation in when done")


class ReplayJob(BaseModel):
    job_id: str
    status: Literal["running", "done", "interrupted", "failed"]
    mode: str
    scopes: list[str]
    records_done: int = 0
    records_total: int = 0
    started_at: float
    error: str | None = None
    result: ReplayResult | None = None


@dataclass
class _Jobs:
    """This process's replay jobs; one runs at a time."""

    jobs: dict[str, ReplayJob] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)


def replay_router(grant_dep: Any = None) -> APIRouter:
    """The replay routes, authenticated by the API's grant dependency (``GrantDep``)."""
    if grant_dep is None:
        from provmem.services.api.auth import GrantDep as grant_dep
    router = APIRouter(tags=["replays"])
    jobs = _Jobs()  # this API's replay jobs (one router per app)

    @router.post(
        "/v1/replays",
        response_model=ReplayJob,
        status_code=202,
        responses={
            403: {"description": "A scope outside the key, or everything with a scoped key"},
            409: {"description": "A replay is already running in this process"},
        },
    )
    async def start_replay(request: Request, body: ReplayRequest, grant: grant_dep) -> ReplayJob:
        """Start a replay job; poll ``GET /v1/replays/{job_id}`` for progress and report."""
        return _start(request, jobs, _plan(body, grant))

    @router.get(
        "/v1/replays/{job_id}",
        response_model=ReplayJob,
        responses={404: {"description": "No such job visible to this key"}},
    )
    async def replay_status(request: Request, job_id: str, grant: grant_dep) -> ReplayJob:
        """A replay job's status, progress and, when done, its checksum report."""
        job = jobs.jobs.get(job_id)
        if job is None or not _may_see(grant, job.scopes):
            raise HTTPException(404, f"replay {job_id}: no such job")
        return job

    return router


def _start(request: Request, jobs: _Jobs, plan: ReplayPlan) -> ReplayJob:
    if jobs.lock.locked():
        raise HTTPException(409, "a replay is already running in this process")
    job = ReplayJob(
        job_id=plan.job_id or "",
        status="running",
        mode=plan.mode,
        scopes=list(plan.scopes),
        started_at=time.time(),
    )
    jobs.jobs[job.job_id] = job
    task = asyncio.create_task(_run(request.app.state.provmem, jobs, job, plan))
    jobs.tasks.add(task)
    task.add_done_callback(jobs.tasks.discard)
    return job


def _plan(body: ReplayRequest, grant: Grant) -> ReplayPlan:
    try:
        plan = ReplayPlan(body.mode, tuple(body.scopes), body.resume, body.switch).checked()
    except ReplayError as error:
        raise HTTPException(422, str(error)) from error
    plan = replace(plan, job_id=f"rp_{uuid.uuid4().hex[:16]}")
    if not plan.scopes and grant.scope is not None:
        raise HTTPException(
            403,
            "a replay of everything touches every tenant: it needs an unscoped grant; "
            f"name scopes inside {grant.scope} to check them",
        )
    for scope in plan.scopes:
        grant.require(scope)
    return plan


def _may_see(grant: Grant, scopes: list[str]) -> bool:
    if not scopes:
        return grant.scope is None
    return all(grant.allows(s) for s in scopes)


async def _run(state: Any, jobs: _Jobs, job: ReplayJob, plan: ReplayPlan) -> None:
    async with jobs.lock:
        pipeline = state.pipeline

        def progress(count: int, total: int) -> None:
            job.records_done += count
            job.records_total = max(job.records_total, total)

        async def settle() -> None:
            await pipeline.exclusive(pipeline.memory.settle())

        replayer = Replayer(pipeline.memory.components, settle, pipeline.exclusive)
        try:
            result = await replayer.run(plan, progress)
            if result.switched:
                await pipeline.exclusive(_serve_new_generation(state))
            job.result, job.status = result, "done"
        except ReplayInterrupted as stopped:
            job.status, job.error = "interrupted", str(stopped)
        except (ReplayError, LookupError, OSError) as error:
            job.status, job.error = "failed", str(error)
        except Exception as error:  # noqa: BLE001 - a job reports its failure, never 500s later
            log.exception("replay.failed", job=job.job_id)
            job.status, job.error = "failed", f"{type(error).__name__}: {error}"


async def _serve_new_generation(state: Any) -> None:
    """Serve the generation the pointer names now, and drop the one switched out."""
    pipeline = state.pipeline
    old = pipeline.memory.components
    new = await build(state.settings)
    pipeline.memory = MemoryService(new)
    await old.vectors.close()  # release the old generation's index before it is dropped
    old.closers.extend(new.closers)  # whoever closes the served components closes both
    await retire_generations(state.settings)
