"""Composition roots: build every adapter and stage of one runtime from settings."""
