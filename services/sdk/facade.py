"""The in-process API: ``Memory`` (blocking) and ``AsyncMemory``, the same methods on the
embedded default (a data folder) or against a server (``url=``, through the SDK).

    from provmem import Memory
    m = Memory()
    m.add([{"role": "user", "content": "I moved to Lisbon in May."}], user_id="alice")
    found = m.search("Where does alice live?", user_id="alice")  # str(found): readable

A read sees every write before it (no manual sync). As a library it prints nothing: its
logs go through the standard ``logging`` module unless the application configured
structlog itself (see :func:`configure_logging`).
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
import weakref
from collections.abc import AsyncGenerator, Callable, Coroutine, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from provmem.config import default_data_dir
from provmem.core.events import ErasureCompleted, Fact, FactChanged, FactStatus
from provmem.services.memory.corrections import CorrectionRefusedError
from provmem.services.memory.results import (
    ActionResult,
    ErasureQueued,
    EvidenceQuote,
    FactDetail,
    PublishResult,
)
from provmem.services.sdk.facade_backends import Backend, Embedded, Remote, Start
from provmem.services.sdk.facade_messages import Context, capture_time, to_turns
from provmem.services.sdk.facade_results import Bundle, RejectedError, SearchResult
from provmem.services.sdk.facade_setup import configure_logging, embedded_settings, quiet_logging

if TYPE_CHECKING:
    from provmem.config import Settings

T = TypeVar("T")
DEFAULT_ORG = "default"
DEFAULT_PROJECT = "default"


class AsyncMemory:
    """Memory for asyncio code. ``AsyncMemory(path)`` runs the embedded runtime in this
    process (``path`` None: the per-user data folder); ``AsyncMemory(url=..., api_key=...)``
    talks to a ``provmem api`` server. ``org`` and ``project`` name the default scope:
    a user's memories live in ``org/project/user_id``."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        url: str | None = None,
        api_key: str | None = None,
        org: str = DEFAULT_ORG,
        project: str = DEFAULT_PROJECT,
        settings: Settings | None = None,
    ) -> None:
        if url is not None and (path is not None or settings is not None):
            raise ValueError("url: give either a server url or a local path/settings, not both")
        self._open = _opener(path, url, api_key, settings)
        self._backend: Backend | None = None
        self._org, self._project = org, project
        quiet_logging()

    async def __aenter__(self) -> AsyncMemory:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def open(self) -> Backend:
        """Open the runtime or the connection (done by the first call otherwise)."""
        if self._backend is None:
            self._backend = await self._open()
        return self._backend

    async def close(self) -> None:
        if self._backend is not None:
            backend, self._backend = self._backend, None
            await backend.close()

    def scope(self, user_id: str, org: str | None = None, project: str | None = None) -> str:
        """The scope key ``org/project/user`` a call reaches: ``user_id`` is any non-empty
        string up to 256 characters (see :func:`provmem.core.scope.id_segment`)."""
        from provmem.core.scope import Scope, id_segment

        user = id_segment(user_id, "user_id")
        return Scope.parse(f"{org or self._org}/{project or self._project}/{user}").key

    async def add(
        self,
        messages: Any,
        *,
        user_id: str,
        session_id: str | None = None,
        org: str | None = None,
        project: str | None = None,
        at: datetime | str | None = None,
        user_name: str | None = None,
        strict: bool = True,
        agent_id: str | None = None,
    ) -> list[PublishResult]:
        """Remember messages: a string, chat messages (OpenAI or Anthropic style) or provmem
        turns. Returns one result per message (``accepted``, ``duplicate``, ``rejected``,
        ``skipped`` for a message without text); raises :class:`RejectedError` when one
        was rejected, unless ``strict`` is False. The user's messages are said by
        ``user_name`` (default ``user_id``), the assistant's by ``assistant``; ``agent_id``
        and ``session_id`` (a run) are recorded on every turn."""
        scope = self.scope(user_id, org, project)
        context = Context(scope, user_name or user_id, session_id, capture_time(at), agent_id)
        turns = to_turns(messages, context)
        sent = [turn for turn in turns if turn is not None]
        published = iter(await (await self.open()).publish(sent) if sent else [])
        results = [
            PublishResult(index=i, status="skipped", error="no text")
            if turn is None
            else next(published).model_copy(update={"index": i})
            for i, turn in enumerate(turns)
        ]
        if strict and any(r.status == "rejected" for r in results):
            raise RejectedError(results)
        return results

    async def search(
        self,
        query: str,
        *,
        user_id: str,
        limit: int = 5,
        budget: int | None = None,
        org: str | None = None,
        project: str | None = None,
        threshold: float | None = None,
        raw_turns_of: str | Sequence[str] | None = None,
    ) -> SearchResult:
        """The facts (and the user's raw turns) that answer ``query``, each with its
        evidence and its ``similarity`` to the query; ``budget`` caps the context tokens
        returned. ``threshold`` (0-1, default measured: see docs/benchmarks.md) drops what
        is less similar; ``raw_turns_of`` ("all", or roles among user, assistant, system,
        tool) returns raw turns of other roles too, after the rest. A query in the first
        person asks about the user."""
        positive(limit, "limit")
        scope = self.scope(user_id, org, project)
        fit = {"threshold": threshold, "raw_turns_of": raw_turns_of}
        return SearchResult.of(await (await self.open()).query(scope, query, limit, budget, **fit))

    async def facts(
        self,
        *,
        user_id: str,
        org: str | None = None,
        project: str | None = None,
        every: bool = False,
    ) -> list[Fact]:
        """The user's active facts; ``every``: also superseded, deleted and waiting ones."""
        found = await (await self.open()).facts(self.scope(user_id, org, project))
        return found if every else [f for f in found if f.status is FactStatus.ACTIVE]

    async def history(self, fact_id: str) -> FactDetail:
        """A fact with its evidence quotes, its versions and the facts it superseded."""
        detail = await (await self.open()).fact(fact_id)
        if detail is None:
            raise LookupError(f"fact {fact_id} not found")
        return detail

    async def evidence(
        self,
        evidence_ids: Sequence[str],
        *,
        user_id: str,
        org: str | None = None,
        project: str | None = None,
    ) -> list[EvidenceQuote | None]:
        """The user's evidence behind ``evidence_ids``, decrypted and whole, in order: None
        for one that was erased or is not the user's."""
        scope = self.scope(user_id, org, project)
        return await (await self.open()).evidence(scope, list(evidence_ids))

    async def data_dir(self) -> Path | None:
        """The data folder of the embedded runtime (None against a server): where an
        adapter keeps what belongs beside the memory (docs/langgraph.md)."""
        backend = await self.open()
        return (
            backend.memory.components.settings.data_dir if isinstance(backend, Embedded) else None
        )

    async def review(
        self, *, user_id: str, org: str | None = None, project: str | None = None
    ) -> list[FactDetail]:
        """The user's facts waiting for review."""
        return await (await self.open()).review(self.scope(user_id, org, project))

    async def erase(
        self,
        *,
        user_id: str,
        session_id: str | None = None,
        evidence_ids: Sequence[str] | None = None,
        reason: str = "",
        org: str | None = None,
        project: str | None = None,
    ) -> ErasureCompleted | ErasureQueued:
        """Erase evidence and everything derived from it: the given evidence, a session,
        or (neither given) everything of the user. Returns the receipt (on a Kafka
        server: the queued request, whose receipt follows)."""
        if session_id is not None and evidence_ids:
            raise ValueError("erase: give session_id or evidence_ids, not both")
        what: dict[str, Any] = {"reason": reason}
        if evidence_ids:
            what["evidence_ids"] = list(evidence_ids)
        elif session_id is not None:
            what["session"] = session_id
        else:
            what["subject"] = True
        return await (await self.open()).erase(self.scope(user_id, org, project), what)

    async def correct(
        self, fact_id: str, statement: str, *, by: str = "user", reason: str = ""
    ) -> ActionResult:
        """Say what is right instead: the correction supersedes the fact (history kept)."""
        body = {"statement": statement, "by": by, "reason": reason}
        return await (await self.open()).act("correct", fact_id, body)

    async def retract(self, fact_id: str, *, reason: str, by: str = "user") -> ActionResult:
        """Say that a fact is wrong: it is deleted; its evidence stays."""
        return await (await self.open()).act("retract", fact_id, {"by": by, "reason": reason})

    async def approve(
        self, fact_id: str, *, by: str = "user", statement: str | None = None, reason: str = ""
    ) -> ActionResult:
        """Promote a fact waiting for review (optionally with an edited statement)."""
        body = {"by": by, "statement": statement, "reason": reason}
        return await (await self.open()).act("approve", fact_id, body)

    async def reject(self, fact_id: str, *, reason: str, by: str = "user") -> ActionResult:
        """Turn down a fact waiting for review."""
        return await (await self.open()).act("reject", fact_id, {"by": by, "reason": reason})

    async def subscribe(
        self,
        *,
        user_id: str,
        start: Start = "earliest",
        org: str | None = None,
        project: str | None = None,
    ) -> AsyncGenerator[FactChanged, None]:
        """The user's fact changes (ADD, NOOP, UPDATE, ERASE) as they happen, from the
        beginning (``start="latest"``: from now on)."""
        backend = await self.open()
        async for change in backend.changes(self.scope(user_id, org, project), start):
            yield change


def positive(value: object, field: str) -> int:
    """``value`` when it is an int of at least 1; else a ValueError naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{field}: must be a whole number of at least 1 (got {value!r})")
    return value


def _opener(
    path: str | os.PathLike[str] | None,
    url: str | None,
    api_key: str | None,
    settings: Settings | None,
) -> Callable[[], Coroutine[Any, Any, Backend]]:
    async def remote() -> Backend:
        assert url is not None
        return Remote(url, api_key)

    async def embedded() -> Backend:
        return await Embedded.open(settings or embedded_settings(path))

    return remote if url is not None else embedded


class _Loop:
    """A private event loop on a daemon thread: the blocking facade's calls run there, so
    it works from plain scripts and from code that already runs a loop (notebooks)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="provmem", daemon=True)
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    def stop(self, memory: AsyncMemory) -> None:
        if not self.loop.is_closed():
            try:
                self.run(memory.close())
            finally:
                self.loop.call_soon_threadsafe(self.loop.stop)
                self.thread.join(30)
                self.loop.close()


def _blocking(name: str, owner: type[AsyncMemory] | None = None) -> Any:
    method = getattr(owner or AsyncMemory, name)

    @functools.wraps(method)
    def call(self: Memory, *args: Any, **kwargs: Any) -> Any:
        return self._loop.run(getattr(self._async, name)(*args, **kwargs))

    return call


class Memory:
    """Memory for plain (blocking) code; the same methods as :class:`AsyncMemory`.

    ``Memory()`` or ``Memory(path)``: the embedded runtime on a data folder (the per-user
    one by default, or ``PROVMEM_DATA_DIR``); ``Memory(url=..., api_key=...)``: a server.
    Use it as a context manager, or call :meth:`close` (also done at exit)."""

    _async_class: type[AsyncMemory] = AsyncMemory

    def __init__(self, path: str | os.PathLike[str] | None = None, **options: Any) -> None:
        self._async = self._async_class(path, **options)
        self._loop = _Loop()
        self._closer = weakref.finalize(self, self._loop.stop, self._async)
        try:
            self._loop.run(self._async.open())
        except BaseException:
            self._closer()
            raise

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._closer()

    def scope(self, user_id: str, org: str | None = None, project: str | None = None) -> str:
        return self._async.scope(user_id, org, project)

    add = _blocking("add")
    search = _blocking("search")
    facts = _blocking("facts")
    history = _blocking("history")
    evidence = _blocking("evidence")
    data_dir = _blocking("data_dir")
    review = _blocking("review")
    erase = _blocking("erase")
    correct = _blocking("correct")
    retract = _blocking("retract")
    approve = _blocking("approve")
    reject = _blocking("reject")

    def subscribe(self, **options: Any) -> Iterator[FactChanged]:
        """The user's fact changes as a blocking iterator (``break`` to stop)."""
        changes = self._async.subscribe(**options)

        async def step() -> FactChanged:
            return await changes.__anext__()

        try:
            while True:
                yield self._loop.run(step())
        except StopAsyncIteration:
            return
        finally:
            if not self._loop.loop.is_closed():
                self._loop.run(changes.aclose())


__all__ = [
    "AsyncMemory",
    "CorrectionRefusedError",
    "Bundle",
    "Memory",
    "RejectedError",
    "SearchResult",
    "configure_logging",
    "default_data_dir",
]
