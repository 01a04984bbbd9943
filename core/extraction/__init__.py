"""Extraction: a turn's clauses written as atomic, provenance-checked claims."""
