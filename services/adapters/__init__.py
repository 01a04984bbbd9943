"""Adapters for agent frameworks (``pip install '.[langchain]'``): LangChain's retriever
reads memory, its chat message history writes the conversation into it
(docs/langchain.md)."""
