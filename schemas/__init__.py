"""Versioned JSON Schemas of every event, with example payloads.

Layout: ``schemas/<EventName>/v<N>.schema.json`` and
``schemas/<EventName>/v<N>.example.json``. A released version is never edited:
a change adds ``v<N+1>`` and an upcaster. ``python -m provmem.schemas`` writes
the schema of each model's current version if its file is missing, and
``--check`` fails when a model and its file disagree (CI runs it).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from provmem.core.events import EVENT_MODELS


def schema_file(event: str, version: int, kind: str = "schema") -> Any:
    """The packaged file of ``event`` version ``version`` (``kind``: schema or example)."""
    return resources.files(__name__) / event / f"v{version}.{kind}.json"


def load(event: str, version: int, kind: str = "schema") -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_file(event, version, kind).read_text("utf-8"))
    return loaded


def current_version(event: str) -> int:
    field = EVENT_MODELS[event].model_fields["schema_version"]
    return int(field.default)


def model_schema(event: str) -> dict[str, Any]:
    """The JSON Schema the code's model of ``event`` generates, with its id and version."""
    version = current_version(event)
    schema = EVENT_MODELS[event].model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:provmem:schema:{event}:v{version}",
        **schema,
    }
