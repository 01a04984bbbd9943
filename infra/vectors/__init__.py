"""Vector indexes: Qdrant Edge in process, a Qdrant server, sealed payloads."""
