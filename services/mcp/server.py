"""provmem as an MCP server (the official MCP Python SDK): tools to remember chat messages,
search with evidence, list facts, show a fact's history and evidence, correct or retract
a fact and erase with a receipt; facts as resources.

Over stdio the caller is the local user who started the process. Over streamable HTTP
every request needs an API key (``Authorization: Bearer pmk_...``, as the HTTP API) and
reaches only the key's scope: a foreign user is refused, a foreign fact is "not found".
A server started for one user (``--user-id``) serves that user alone, within the same
rules: ``user_id`` may be left out, another is refused, another user's fact is not found.

Each tool declares what it does (annotations: read-only, destructive, idempotent) and
what it returns (typed models, services/mcp/views.py).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from provmem.services.api.auth import ApiKeys, Grant, Unauthenticated, grant_for
from provmem.services.mcp.views import Added, Erased, Facts, Found, History
from provmem.services.memory.results import ActionResult, FactDetail
from provmem.services.sdk.facade import AsyncMemory

INSTRUCTIONS = (
    "Long-term memory with provenance. Call add_messages with the conversation's new "
    "messages, search before answering about the user (each result quotes its evidence "
    "and gives its ids), correct_fact or retract_fact when the user says a fact is wrong, "
    "erase when the user asks to be forgotten. Memory never invents: no result means "
    "insufficient evidence."
)
BOUND = " This server serves one user: leave user_id out."
LOCAL = Grant(None)


def hints(
    title: str, *, read_only: bool = False, destructive: bool = False, idempotent: bool = False
) -> ToolAnnotations:
    """A tool's annotations (destructiveHint only means something on a tool that writes)."""
    return ToolAnnotations(
        title=title,
        read_only_hint=read_only,
        destructive_hint=None if read_only else destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


#: What each tool does to memory, for clients that ask before a destructive call. No tool
#: reaches beyond this memory (openWorldHint false). add_messages is not idempotent (a
#: repeated message is a new turn at a new time); a correction supersedes the fact with a
#: new version and keeps the old one, so it adds rather than destroys. Correcting,
#: retracting or erasing the same thing again changes nothing more (a superseded or
#: deleted fact refuses a second correction or retraction; erased evidence is gone).
ANNOTATIONS = {
    "add_messages": hints("Remember messages"),
    "search": hints("Search memory", read_only=True, idempotent=True),
    "list_facts": hints("List facts", read_only=True, idempotent=True),
    "fact_history": hints("A fact's evidence and history", read_only=True, idempotent=True),
    "correct_fact": hints("Correct a fact", idempotent=True),
    "retract_fact": hints("Retract a fact", destructive=True, idempotent=True),
    "erase": hints("Erase evidence and what derives from it", destructive=True, idempotent=True),
}

UserId = Annotated[
    str | None,
    Field(description="The user whose memory it is; leave out when the server serves one user"),
]


@dataclass
class RequestAuth:
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


def build_server(
    memory: AsyncMemory, gate: RequestAuth | None = None, user_id: str | None = None
) -> MCPServer:
    """The MCP server over ``memory`` (embedded or remote); with ``user_id`` it serves
    that user alone (``user_id`` optional on every tool, another one refused)."""
    instructions = INSTRUCTIONS + (BOUND if user_id is not None else "")
    server = MCPServer("provmem", instructions=instructions, log_level="WARNING")
    tools = Tools(memory, gate or RequestAuth(), user_id)
    for tool in (
        tools.add_messages,
        tools.search,
        tools.list_facts,
        tools.fact_history,
        tools.correct_fact,
        tools.retract_fact,
        tools.erase,
    ):
        server.add_tool(
            refusals_told(tool, user_required=user_id is None),
            description=described(tool),
            annotations=ANNOTATIONS[tool.__name__],
            structured_output=True,
        )
    for uri, resource in (
        ("provmem://users/{user_id}/facts", tools.facts_resource),
        ("provmem://facts/{fact_id}", tools.fact_resource),
    ):
        server.resource(uri, mime_type="application/json", description=described(resource))(
            resource
        )
    return server


def described(handler: Callable[..., Any]) -> str:
    """A handler's docstring as plain text: no source indentation, each paragraph on one
    line."""
    paragraphs = inspect.cleandoc(handler.__doc__ or "").split("\n\n")
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in paragraphs)


class Tools:
    """The tools and resources; each checks the caller's grant (and the server's one
    user, when it has one) first."""

    def __init__(self, memory: AsyncMemory, gate: RequestAuth, user_id: str | None = None) -> None:
        self._memory = memory
        self._gate = gate
        self._user = user_id
        self._home = memory.scope(user_id) if user_id is not None else None

    def _user_id(self, user_id: str | None) -> str:
        """The user a call is about: the one given, else the server's own."""
        if self._user is None:
            if not user_id:
                raise ValueError("user_id: required (this server serves any user)")
            return user_id
        if user_id is not None and user_id != self._user:
            raise PermissionError(
                f"user_id {user_id!r}: not permitted, this server serves {self._user!r} only"
            )
        return self._user

    async def _scope(self, ctx: Context | None, user_id: str) -> str:
        scope = self._memory.scope(user_id)
        await self._permit(ctx, [scope])
        return scope

    async def _permit(self, ctx: Context | None, scopes: Iterable[str]) -> None:
        grant = await self._granted(ctx)
        for scope in scopes:
            if not grant.allows(scope):
                raise PermissionError(f"scope {scope}: not permitted for this API key")
            if self._home not in (None, scope):
                raise PermissionError(
                    f"scope {scope}: not permitted, this server serves {self._home} only"
                )

    def _reaches(self, grant: Grant, scope: str) -> bool:
        return grant.allows(scope) and self._home in (None, scope)

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
        if detail is None or not self._reaches(grant, detail.fact.scope.key):
            raise LookupError(f"fact {fact_id} not found")
        return detail

    async def add_messages(
        self,
        messages: list[dict[str, Any]] | str,
        user_id: UserId = None,
        session_id: str | None = None,
        ctx: Context | None = None,
    ) -> Added:
        """Remember conversation messages (a string, or chat messages
        [{"role": "user"|"assistant"|"system"|"tool", "content": ...}]) as evidence of the
        user; facts are derived from them. Returns each message's status and evidence id."""
        user_id = self._user_id(user_id)
        await self._permit(ctx, [self._memory.scope(user_id), *named_scopes(messages)])
        results = await self._memory.add(messages, user_id=user_id, session_id=session_id)
        return Added(results=results)

    async def search(
        self, query: str, user_id: UserId = None, limit: int = 5, ctx: Context | None = None
    ) -> Found:
        """Search the user's memory: the facts that answer the query, best first, each
        with its fact id, status and evidence (evidence id, speaker, time, quote)."""
        user_id = self._user_id(user_id)
        await self._scope(ctx, user_id)
        return Found.of(await self._memory.search(query, user_id=user_id, limit=limit))

    async def list_facts(
        self,
        user_id: UserId = None,
        include_inactive: Annotated[
            bool, Field(description="Also superseded, deleted and needs-review facts")
        ] = False,
        ctx: Context | None = None,
    ) -> Facts:
        """The facts that hold about the user (active ones; include_inactive: every
        status), each with its status and evidence ids."""
        user_id = self._user_id(user_id)
        await self._scope(ctx, user_id)
        return Facts.of(await self._memory.facts(user_id=user_id, every=include_inactive))

    async def fact_history(self, fact_id: str, ctx: Context | None = None) -> History:
        """One fact with its evidence quotes, its earlier versions and the facts it
        superseded."""
        return History.of(await self._detail(ctx, fact_id))

    async def correct_fact(
        self,
        fact_id: str,
        statement: str,
        by: str = "user",
        reason: str = "",
        ctx: Context | None = None,
    ) -> ActionResult:
        """Correct a fact: the statement given supersedes it (history is kept)."""
        await self._detail(ctx, fact_id)
        return await self._memory.correct(fact_id, statement, by=by, reason=reason)

    async def retract_fact(
        self, fact_id: str, reason: str, by: str = "user", ctx: Context | None = None
    ) -> ActionResult:
        """Retract a wrong fact: it is deleted; its evidence stays."""
        await self._detail(ctx, fact_id)
        return await self._memory.retract(fact_id, reason=reason, by=by)

    async def erase(
        self,
        user_id: UserId = None,
        session_id: str | None = None,
        evidence_ids: list[str] | None = None,
        reason: str = "",
        ctx: Context | None = None,
    ) -> Erased:
        """Erase evidence and everything derived from it: the evidence ids given, a
        session, or (neither given) all of the user. Cannot be undone. Returns the
        erasure receipt."""
        user_id = self._user_id(user_id)
        await self._scope(ctx, user_id)
        done = await self._memory.erase(
            user_id=user_id, session_id=session_id, evidence_ids=evidence_ids, reason=reason
        )
        return Erased.of(done)

    async def facts_resource(self, user_id: str, ctx: Context) -> dict[str, Any]:
        """The user's facts, every status (superseded and deleted ones as history)."""
        user_id = self._user_id(user_id)
        await self._scope(ctx, user_id)
        facts = await self._memory.facts(user_id=user_id, every=True)
        return Facts.of(facts).model_dump(mode="json")

    async def fact_resource(self, fact_id: str, ctx: Context) -> dict[str, Any]:
        """One fact with its evidence and history."""
        return (await self.fact_history(fact_id, ctx)).model_dump(mode="json")


def named_scopes(messages: list[dict[str, Any]] | str) -> list[str]:
    """The scopes that messages given as provmem turns name of their own (a turn's
    ``scope`` wins over ``user_id``)."""
    if isinstance(messages, str):
        return []
    return [str(m["scope"]) for m in messages if isinstance(m, Mapping) and "scope" in m]


Handler = Callable[..., Awaitable[BaseModel]]
RequiredUserId = Annotated[str, Field(description="The user whose memory it is")]


def refusals_told(tool: Handler, user_required: bool = False) -> Handler:
    """A refusal (not permitted, not found, bad input) reaches the agent with its reason;
    the SDK hides the text of any other exception. ``user_required``: the schema asks
    for ``user_id`` (a server for any user)."""

    @functools.wraps(tool)
    async def told(*args: Any, **kwargs: Any) -> BaseModel:
        try:
            return await tool(*args, **kwargs)
        except (PermissionError, LookupError, ValueError, TypeError) as error:
            raise ToolError(str(error)) from error

    if user_required:
        # inspect.signature, and so the SDK's input schema, reads __signature__ first
        signature = user_id_required(inspect.signature(tool, eval_str=True))
        told.__signature__ = signature  # type: ignore[attr-defined]  # a function attribute
    return told


def user_id_required(signature: inspect.Signature) -> inspect.Signature:
    """The signature with ``user_id`` (if any) required."""
    required = RequiredUserId, inspect.Parameter.empty
    parameters = [
        p.replace(annotation=required[0], default=required[1]) if p.name == "user_id" else p
        for p in signature.parameters.values()
    ]
    return signature.replace(parameters=sorted(parameters, key=_defaulted))


def _defaulted(parameter: inspect.Parameter) -> bool:
    """Sort key: parameters without a default first, as a signature needs."""
    return parameter.default is not inspect.Parameter.empty


__all__ = ["RequestAuth", "Tools", "build_server"]
