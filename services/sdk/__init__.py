"""The remote SDK: sync and async clients of the HTTP API."""
