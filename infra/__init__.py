"""Adapters: the event logs, stores, vector indexes, embedder and crypto behind the ports."""
