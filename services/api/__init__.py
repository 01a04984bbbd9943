"""The HTTP API (FastAPI): routes, API-key auth, metrics."""
