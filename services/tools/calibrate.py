"""``provmem calibrate``: fit the gate on a labelled split and write the settings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from provmem.core.facts.calibration import Calibration, LabelledCandidate, fit
from provmem.core.facts.memory_state import as_unit
from provmem.core.ports import Embedder

SETTINGS_KEYS = {
    "kappa": "PROVMEM_GATE_KAPPA",
    "threshold": "PROVMEM_GATE_THRESHOLD",
    "margin": "PROVMEM_GATE_MARGIN",
}


def read_split(path: Path) -> list[dict[str, object]]:
    """JSONL items ``{"store": [statements], "candidate": statement, "duplicate": bool}``."""
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            items.append(_item(number, json.loads(line)))
    return items


def _item(number: int, item: dict[str, object]) -> dict[str, object]:
    store, candidate = item.get("store"), item.get("candidate")
    if not isinstance(store, list) or not store or not all(isinstance(s, str) for s in store):
        raise ValueError(f"line {number}: store: must be a non-empty list of statements")
    if not isinstance(candidate, str) or not candidate.strip():
        raise ValueError(f"line {number}: candidate: must be a statement")
    if not isinstance(item.get("duplicate"), bool):
        raise ValueError(f"line {number}: duplicate: must be true or false")
    return item


def calibrate(path: Path, embedder: Embedder) -> Calibration:
    items = read_split(path)
    labelled = [_embed(item, embedder) for item in items]
    return fit(labelled)


def _embed(item: dict[str, object], embedder: Embedder) -> LabelledCandidate:
    store = [as_unit(v) for v in embedder.embed(item["store"])]  # type: ignore[arg-type]
    candidate = as_unit(embedder.embed([item["candidate"]])[0])  # type: ignore[list-item]
    return LabelledCandidate(np.vstack(store), candidate, bool(item["duplicate"]))


def write_settings(calibration: Calibration, env_file: Path) -> None:
    """Set the gate's keys in a .env file, keeping its other lines."""
    lines = env_file.read_text().splitlines() if env_file.exists() else []
    kept = [line for line in lines if line.split("=", 1)[0] not in SETTINGS_KEYS.values()]
    config = calibration.config
    values = {"kappa": config.kappa, "threshold": config.threshold, "margin": config.margin}
    kept += [f"{SETTINGS_KEYS[name]}={value}" for name, value in values.items()]
    env_file.write_text("\n".join(kept) + "\n")
