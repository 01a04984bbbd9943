"""provmem as a LangChain retriever: each document is a fact with its provenance.

    from provmem import Memory
    from provmem.services.adapters.langchain import ProvmemRetriever

    retriever = ProvmemRetriever(memory=Memory(), user_id="alice", k=5)
    docs = retriever.invoke("where does alice live?")
    docs[0].page_content            # the fact's statement (or a raw turn no fact covers)
    docs[0].metadata["evidence"]    # [{"evidence_id", "speaker", "captured_at", "quote"}, ...]

``memory`` is a blocking :class:`provmem.Memory` or an :class:`provmem.AsyncMemory`
(``ainvoke`` then awaits it without a thread).
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from ..sdk.facade import AsyncMemory, Bundle, SearchResult


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


__all__ = ["ProvmemRetriever", "document", "documents"]
