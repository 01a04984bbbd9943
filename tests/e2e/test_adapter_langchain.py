"""The LangChain adapters through LangChain's own interfaces: the retriever as a Runnable
(invoke, batch, ainvoke, composition, callbacks; documents carry the facts' provenance)
and the chat message history (add_messages, aadd_messages, RunnableWithMessageHistory)
writing the conversation into memory."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda
from langchain_core.runnables.history import RunnableWithMessageHistory

from provmem import AsyncMemory, Memory
from provmem.services.adapters.langchain import ProvmemChatHistory, ProvmemRetriever

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


def test_the_chat_history_remembers_each_message_as_evidence(tmp_path: Path) -> None:
    with Memory(tmp_path / "d") as memory:
        history = ProvmemChatHistory(memory, user_id="ann", session_id="s1", user_name="Ann")
        assert isinstance(history, BaseChatMessageHistory)
        said = [
            SystemMessage("You help Ann plan trips."),
            HumanMessage("I live in Paris."),
            AIMessage("Noted: Paris."),
            HumanMessage([{"type": "text", "text": "I have a cat named Tom."}]),
        ]
        history.add_messages(said)
        assert history.messages == said
        assert [r.status for r in history.results] == ["accepted"] * 4
        (top, *_) = memory.search("where does Ann live?", user_id="ann")
        assert top.statement == "Ann lives in Paris."
        assert top.evidence[0].speaker == "Ann"
        assert top.evidence[0].evidence_id == history.results[1].evidence_id
        assert any("Tom" in f.statement for f in memory.facts(user_id="ann"))
        history.clear()
        assert history.messages == [] and memory.facts(user_id="ann")  # forgets nothing


def test_a_chain_with_message_history_writes_its_turns(tmp_path: Path) -> None:
    """RunnableWithMessageHistory asks for the session's history, reads it before the
    chain runs and adds the new input and output after."""
    with Memory(tmp_path / "d") as memory:
        sessions: dict[str, ProvmemChatHistory] = {}

        def session(session_id: str) -> ProvmemChatHistory:
            return sessions.setdefault(
                session_id, ProvmemChatHistory(memory, user_id="ann", session_id=session_id)
            )

        def reply(messages: list[BaseMessage]) -> AIMessage:
            return AIMessage(f"{len(messages)} messages so far.")

        chat = RunnableWithMessageHistory(RunnableLambda(reply), session)
        config = {"configurable": {"session_id": "s1"}}
        first = chat.invoke([HumanMessage("I play the cello.")], config=config)
        second = chat.invoke([HumanMessage("I live in Oslo.")], config=config)
        assert (first.content, second.content) == ("1 messages so far.", "3 messages so far.")
        assert len(sessions["s1"].messages) == 4
        found = memory.search("which instrument does ann play?", user_id="ann")
        assert found[0].evidence[0].quote == "I play the cello."


async def test_an_async_memory_serves_aadd_messages(tmp_path: Path) -> None:
    async with AsyncMemory(tmp_path / "d") as memory:
        history = ProvmemChatHistory(memory, user_id="ann", user_name="Ann")
        await history.aadd_messages([HumanMessage("I live in Paris.")])
        found = await memory.search("where does Ann live?", user_id="ann")
        assert found[0].statement == "Ann lives in Paris."
        assert await history.aget_messages() == [HumanMessage("I live in Paris.")]
        with pytest.raises(TypeError, match="aadd_messages"):
            history.add_messages([HumanMessage("I have a dog.")])
