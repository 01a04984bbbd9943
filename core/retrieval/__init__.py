"""Retrieval, pure part: rank fusion, projection onto facts, sufficiency."""
