"""Adapters for agent frameworks (``pip install '.[langchain]'``, ``'.[langgraph]'``):
LangChain's retriever reads memory, its chat message history writes the conversation into
it (docs/langchain.md); LangGraph's store keeps each item's value as evidence of the
namespace's user and searches it with provmem's search (docs/langgraph.md)."""
