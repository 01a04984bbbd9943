"""provmem as an MCP server (the official MCP Python SDK): tools to remember chat messages,
search with evidence, list facts, show a fact's history and evidence, correct or retract
a fact and erase with a receipt; facts as resources.

Over stdio the caller is the local user who started the process. Over streamable HTTP
every request needs an API key (``Authorization: Bearer pmk_...``, as the HTTP API) and
reaches only the key's scope: a foreign user is refused, a foreign fact is "not found".
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from ..api.auth import ApiKeys, Grant, Unauthenticated, grant_for
from ..memory.results import FactDetail
from ..sdk.facade import AsyncMemory, SearchResult

INSTRUCTIONS = (
    "Long-term memory with provenance. Call add_messages with the conversation's new "
    "messages, search before answering about the user (each result quotes its evidence "
    "and gives its ids), correct_fact or retract_fact when the user says a fact is wrong, "
    "erase when the user asks to be forgotten. Memory never invents: no result means "
    "insufficient evidence."
)
LOCAL = Grant(None)


@dataclass
class Gate:
    """Who a request is: the local user (stdio) or an API key's grant (HTTP)."""

    keys: ApiKeys | None = None
    auth: str = "on"

    async def grant(self, headers: Mapping[str, str] | None) -> Grant:
        """The grant of a request with these HTTP headers (None: stdio, the local user);
        raises Unauthenticated without a usable key."""
        if self.keys is None or headers is None:
            return LOCAL
        value = headers.get("authorization") or ""
        token = value.removeprefix("Bearer ").strip() or None
        return await grant_for(token, self.keys, self.auth)


def build_server(memory: AsyncMemory, gate: Gate | None = None) -> MCPServer:
    """The MCP server over ``memory`` (embedded or remote)."""
    server = MCPServer("provmem", instructions=INSTRUCTIONS, log_level="WARNING")
    tools = Tools(memory, gate or Gate())
    for tool in (
        tools.add_messages,
        tools.search,
        tools.list_facts,
        tools.fact_history,
        tools.correct_fact,
        tools.retract_fact,
        tools.erase,
    ):
        server.add_tool(refusals_told(tool), structured_output=True)
    server.resource("provmem://users/{user_id}/facts", mime_type="application/json")(
        tools.facts_resource
    )
    server.resource("provmem://facts/{fact_id}", mime_type="application/json")(tools.fact_resource)
    return server


class Tools:
    """The tools and resources; each checks the caller's grant first."""

    def __init__(self, memory: AsyncMemory, gate: Gate) -> None:
        self._memory = memory
        self._gate = gate

    async def _scope(self, ctx: Context | None, user_id: str) -> str:
        scope = self._memory.scope(user_id)
        await self._permit(ctx, [scope])
        return scope

    async def _permit(self, ctx: Context | None, scopes: Iterable[str]) -> None:
        grant = await self._granted(ctx)
        for scope in scopes:
            if not grant.allows(scope):
                raise PermissionError(f"scope {scope}: not permitted for this API key")

    async def _granted(self, ctx: Context | None) -> Grant:
        try:
            return await self._gate.grant(ctx.headers if ctx is not None else None)
        except Unauthenticated as error:
            raise PermissionError(str(error)) from None

    async def _detail(self, ctx: Context | None, fact_id: str) -> FactDetail:
        """The fact, if the caller may see it (a foreign fact is answered as missing)."""
        grant = await self._granted(ctx)
        try:
            detail = await self._memory.history(fact_id)
        except LookupError:
            detail = None
        if detail is None or not grant.allows(detail.fact.scope.key):
            raise LookupError(f"fact {fact_id} not found")
        return detail

    async def add_messages(
        self,
        messages: list[dict[str, Any]] | str,
        user_id: str,
        session_id: str | None = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Remember conversation messages (a string, or [{"role": "user"|"assistant"|
        "system"|"tool", "content": ...}]) as evidence of the user; facts are derived
        from them. Returns each message's status and evidence id."""
        await self._permit(ctx, [self._memory.scope(user_id), *named_scopes(messages)])
        results = await self._memory.add(messages, user_id=user_id, session_id=session_id)
        return {"results": [r.model_dump(mode="json", exclude_none=True) for r in results]}

    async def search(
        self, query: str, user_id: str, limit: int = 5, ctx: Context | None = None
    ) -> dict[str, Any]:
        """Search the user's memory: the facts that answer the query, best first, each
        with its fact id, status and evidence (evidence id, speaker, time, quote)."""
        await self._scope(ctx, user_id)
        return search_view(await self._memory.search(query, user_id=user_id, limit=limit))

    async def list_facts(self, user_id: str, ctx: Context | None = None) -> dict[str, Any]:
        """Every fact remembered about the user, with its status and evidence ids."""
        await self._scope(ctx, user_id)
        facts = await self._memory.facts(user_id=user_id)
        return {"facts": [fact_view(f.model_dump(mode="json")) for f in facts]}

    async def fact_history(self, fact_id: str, ctx: Context | None = None) -> dict[str, Any]:
        """One fact with its evidence quotes, its earlier versions and the facts it
        superseded."""
        return detail_view(await self._detail(ctx, fact_id))

    async def correct_fact(
        self,
        fact_id: str,
        statement: str,
        by: str = "user",
        reason: str = "",
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Correct a fact: the statement given supersedes it (history is kept)."""
        await self._detail(ctx, fact_id)
        done = await self._memory.correct(fact_id, statement, by=by, reason=reason)
        return done.model_dump(mode="json")

    async def retract_fact(
        self, fact_id: str, reason: str, by: str = "user", ctx: Context | None = None
    ) -> dict[str, Any]:
        """Retract a wrong fact: it is deleted; its evidence stays."""
        await self._detail(ctx, fact_id)
        done = await self._memory.retract(fact_id, reason=reason, by=by)
        return done.model_dump(mode="json")

    async def erase(
        self,
        user_id: str,
        session_id: str | None = None,
        evidence_ids: list[str] | None = None,
        reason: str = "",
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Erase evidence and everything derived from it: the evidence ids given, a
        session, or (neither given) all of the user. Returns the erasure receipt."""
        await self._scope(ctx, user_id)
        receipt = await self._memory.erase(
            user_id=user_id, session_id=session_id, evidence_ids=evidence_ids, reason=reason
        )
        return receipt.model_dump(mode="json")

    async def facts_resource(self, user_id: str, ctx: Context) -> dict[str, Any]:
        """The user's facts."""
        return await self.list_facts(user_id, ctx)

    async def fact_resource(self, fact_id: str, ctx: Context) -> dict[str, Any]:
        """One fact with its evidence and history."""
        return await self.fact_history(fact_id, ctx)


def named_scopes(messages: list[dict[str, Any]] | str) -> list[str]:
    """The scopes that messages given as provmem turns name of their own (a turn's
    ``scope`` wins over ``user_id``)."""
    if isinstance(messages, str):
        return []
    return [str(m["scope"]) for m in messages if isinstance(m, Mapping) and "scope" in m]


def fact_view(fact: dict[str, Any]) -> dict[str, Any]:
    keep = ("fact_id", "statement", "status", "version", "evidence_ids", "supersedes")
    return {name: fact.get(name) for name in keep} | {"scope": _scope_key(fact["scope"])}


def _scope_key(scope: dict[str, Any]) -> str:
    return f"{scope['org']}/{scope['project']}/{scope['user']}"


def search_view(found: SearchResult) -> dict[str, Any]:
    bundles = [
        {
            "fact": fact_view(b.fact.model_dump(mode="json")) if b.fact else None,
            "statement": b.statement,
            "score": round(b.score, 4),
            "evidence": [e.model_dump(mode="json") for e in b.evidence],
        }
        for b in found
    ]
    return {"query": found.query, "path": found.path, "bundles": bundles}


def detail_view(detail: FactDetail) -> dict[str, Any]:
    return {
        "fact": fact_view(detail.fact.model_dump(mode="json")),
        "evidence": [e.model_dump(mode="json") for e in detail.evidence],
        "history": [fact_view(f.model_dump(mode="json")) for f in detail.history],
        "supersedes": [fact_view(f.model_dump(mode="json")) for f in detail.supersedes],
    }


Handler = Callable[..., Awaitable[dict[str, Any]]]


def refusals_told(tool: Handler) -> Handler:
    """A refusal (not permitted, not found, bad input) reaches the agent with its reason;
    the SDK hides the text of any other exception."""

    @functools.wraps(tool)
    async def told(*args: Any, **kwargs: Any) -> dict[str, Any]:
        try:
            return await tool(*args, **kwargs)
        except (PermissionError, LookupError, ValueError, TypeError) as error:
            raise ToolError(str(error)) from error

    return told


__all__ = ["Gate", "Tools", "build_server"]
