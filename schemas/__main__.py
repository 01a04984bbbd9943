"""Write missing schema files, or with ``--check`` verify models against them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from provmem.core.events import EVENT_MODELS
from provmem.schemas import current_version, model_schema

ROOT = Path(__file__).parent


def _path(event: str) -> Path:
    return ROOT / event / f"v{current_version(event)}.schema.json"


def check() -> list[str]:
    """Names of events whose model disagrees with its released schema file."""
    drifted = []
    for event in EVENT_MODELS:
        path = _path(event)
        if not path.exists() or json.loads(path.read_text()) != model_schema(event):
            drifted.append(event)
    return drifted


def write_missing() -> None:
    for event in EVENT_MODELS:
        path = _path(event)
        if path.exists():
            continue
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(model_schema(event), indent=2) + "\n")
        sys.stdout.write(f"wrote {path}\n")


if __name__ == "__main__":
    if "--check" in sys.argv:
        drifted = check()
        for event in drifted:
            sys.stderr.write(
                f"{event}: model and {_path(event)} disagree (released schemas are never "
                "edited: add a version and an upcaster)\n"
            )
        sys.exit(1 if drifted else 0)
    write_missing()
