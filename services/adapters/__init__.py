"""Adapters for agent frameworks: a LangChain retriever (``pip install '.[langchain]'``)."""
