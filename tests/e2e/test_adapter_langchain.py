"""The LangChain retriever through LangChain's own Runnable interface: invoke, batch,
ainvoke, composition, callbacks; documents carry the facts' provenance."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda

from provmem import AsyncMemory, Memory
from provmem.services.adapters.langchain import ProvmemRetriever

AT = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
CHAT = [
    {"role": "user", "content": "I live in Paris."},
    {"role": "user", "content": "I have a cat named Tom."},
]


class Seen(BaseCallbackHandler):
    def __init__(self) -> None:
        self.documents: list[Document] = []

    def on_retriever_end(self, documents: Any, **kwargs: Any) -> None:
        self.documents.extend(documents)


def test_the_retriever_answers_through_langchains_interface(tmp_path: Path) -> None:
    with Memory(tmp_path / "d") as memory:
        added = memory.add(CHAT, user_id="ann", user_name="Ann", at=AT)
        retriever = ProvmemRetriever(memory=memory, user_id="ann", k=3)
        assert isinstance(retriever, BaseRetriever)
        seen = Seen()
        docs = retriever.invoke("where does Ann live?", config={"callbacks": [seen]})
        top = docs[0]
        assert top.page_content == "Ann lives in Paris." and top.id == top.metadata["fact_id"]
        assert top.metadata["evidence"][0]["quote"] == "I live in Paris."
        assert top.metadata["evidence_ids"] == [added[0].evidence_id]
        assert top.metadata["status"] == "active" and seen.documents == docs
        cat, paris = retriever.batch(["the cat's name", "home town"])
        assert any("Tom" in d.page_content for d in cat)
        chain = retriever | RunnableLambda(lambda found: found[0].metadata["evidence"][0])
        assert chain.invoke("where does Ann live?")["speaker"] == "Ann"


async def test_an_async_memory_serves_ainvoke(tmp_path: Path) -> None:
    async with AsyncMemory(tmp_path / "d") as memory:
        await memory.add(CHAT, user_id="ann", user_name="Ann", at=AT)
        retriever = ProvmemRetriever(memory=memory, user_id="ann")
        docs = await retriever.ainvoke("where does Ann live?")
        assert docs[0].page_content == "Ann lives in Paris."
        with pytest.raises(TypeError, match="ainvoke"):
            retriever.invoke("where does Ann live?")
