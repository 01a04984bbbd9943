"""provmem in LangChain: a retriever that reads memory (each document a fact with its
provenance) and a chat message history that writes the conversation into it.

    from provmem import Memory
    from provmem.services.adapters.langchain import ProvmemChatHistory, ProvmemRetriever

    memory = Memory()
    history = ProvmemChatHistory(memory, user_id="alice", session_id="s1")
    history.add_messages([HumanMessage("I moved to Lisbon in May."), AIMessage("Noted.")])
    retriever = ProvmemRetriever(memory=memory, user_id="alice", k=5)
    docs = retriever.invoke("where does alice live?")
    docs[0].page_content            # the fact's statement (or a raw turn no fact covers)
    docs[0].metadata["evidence"]    # [{"evidence_id", "speaker", "captured_at", "quote"}, ...]

``memory`` is a blocking :class:`provmem.Memory` or an :class:`provmem.AsyncMemory`
(``ainvoke`` and ``aadd_messages`` then await it without a thread). See docs/langchain.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from provmem.services.memory.results import PublishResult
from provmem.services.sdk.facade import AsyncMemory, Bundle, SearchResult


class ProvmemRetriever(BaseRetriever):
    """Facts of one user that answer a query, best first, with their evidence."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any = Field(description="A provmem Memory or AsyncMemory")
    user_id: str
    k: int = Field(5, ge=1, le=100)
    budget: int | None = Field(None, ge=1, description="Cap on the context tokens")

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        if isinstance(self.memory, AsyncMemory):
            raise TypeError("memory: an AsyncMemory answers ainvoke; use Memory for invoke")
        return documents(self.memory.search(query, **self._options()))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        if not isinstance(self.memory, AsyncMemory):
            return await super()._aget_relevant_documents(query, run_manager=run_manager)
        return documents(await self.memory.search(query, **self._options()))

    def _options(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "limit": self.k, "budget": self.budget}


def documents(found: SearchResult) -> list[Document]:
    return [document(bundle, found.path) for bundle in found]


def document(bundle: Bundle, path: str) -> Document:
    """A bundle as a Document: the statement as content, provenance as metadata."""
    fact = bundle.fact
    evidence = [item.model_dump(mode="json") for item in bundle.evidence]
    metadata: dict[str, Any] = {
        "fact_id": fact.fact_id if fact else None,
        "status": fact.status.value if fact else "raw-evidence",
        "scope": fact.scope.key if fact else None,
        "score": bundle.score,
        "routes": list(bundle.routes),
        "path": path,
        "evidence_ids": [item["evidence_id"] for item in evidence],
        "evidence": evidence,
    }
    return Document(page_content=bundle.statement, metadata=metadata, id=metadata["fact_id"])


class ProvmemChatHistory(BaseChatMessageHistory):
    """A LangChain chat message history whose ``add_messages`` remembers each message as
    evidence of ``user_id`` (in ``session_id``), so facts are derived from the chat.

    ``messages`` is the conversation this object has seen (the window a chain reads
    back); ``clear`` empties that window and forgets nothing: memory keeps the evidence
    until it is erased (``memory.erase(user_id=..., session_id=...)``, with a receipt).
    ``results`` holds each added message's outcome (status, evidence id)."""

    def __init__(
        self,
        memory: Any,
        *,
        user_id: str,
        session_id: str | None = None,
        user_name: str | None = None,
    ) -> None:
        self.memory = memory
        self.user_id = user_id
        self.session_id = session_id
        self.user_name = user_name
        self.messages: list[BaseMessage] = []
        self.results: list[PublishResult] = []

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        if isinstance(self.memory, AsyncMemory):
            raise TypeError("memory: an AsyncMemory answers aadd_messages; use Memory here")
        self._seen(messages, self.memory.add(chat_messages(messages), **self._options()))

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        if not isinstance(self.memory, AsyncMemory):
            return await super().aadd_messages(messages)
        self._seen(messages, await self.memory.add(chat_messages(messages), **self._options()))

    def clear(self) -> None:
        self.messages = []

    def _options(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "session_id": self.session_id, "user_name": self.user_name}

    def _seen(self, messages: Sequence[BaseMessage], results: list[PublishResult]) -> None:
        self.messages.extend(messages)
        self.results.extend(results)


#: LangChain's message classes and the role each has in memory (a subclass, such as a
#: streamed chunk, takes its parent's).
ROLES: tuple[tuple[type[BaseMessage], str], ...] = (
    (HumanMessage, "user"),
    (AIMessage, "assistant"),
    (SystemMessage, "system"),
    (ToolMessage, "tool"),
    (FunctionMessage, "tool"),
)


def chat_messages(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """LangChain messages as the chat messages :meth:`provmem.Memory.add` takes."""
    return [chat_message(message) for message in messages]


def chat_message(message: BaseMessage) -> dict[str, Any]:
    """One message: its role, its content (a string or a list of parts) and its name."""
    role = message.role if isinstance(message, ChatMessage) else _role(message)
    said: dict[str, Any] = {"role": role, "content": message.content}
    if message.name:
        said["name"] = message.name
    return said


def _role(message: BaseMessage) -> str:
    for kind, role in ROLES:
        if isinstance(message, kind):
            return role
    raise TypeError(f"message: a {type(message).__name__} is not a chat message to remember")


__all__ = [
    "ProvmemChatHistory",
    "ProvmemRetriever",
    "chat_message",
    "chat_messages",
    "document",
    "documents",
]
