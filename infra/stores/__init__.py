"""Stores: SQLite and Redis adapters for evidence, views, keys and state."""
