"""Fit the gate's κ, threshold and margin on a labelled, deployment-specific split.

Each labelled item is a store (vectors of known facts), a candidate vector and
whether the candidate duplicates something in the store. For each κ of a grid
the threshold is the cut on novelty that best separates duplicates from the
rest (balanced accuracy); the margin reaches up to where most non-duplicates
are outright novel, so only the hard cases land in the uncertain band.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from provmem.core.facts.gate import GateConfig
from provmem.core.facts.memory_state import Vector

KAPPAS = (5.0, 10.0, 20.0, 40.0, 80.0)
CLEAR_SHARE = 0.9


@dataclass(frozen=True)
class LabelledCandidate:
    store: Vector  # (n, d) unit rows
    candidate: Vector  # (d,) unit
    duplicate: bool


@dataclass(frozen=True)
class Calibration:
    config: GateConfig
    balanced_accuracy: float
    uncertain_share: float
    items: int


def score(item: LabelledCandidate, kappa: float) -> float:
    """The gate's novelty of the candidate against its store, for this κ."""
    sims = item.store @ item.candidate
    scaled = kappa * (sims - 1.0)
    top = float(np.max(scaled))
    return max(0.0, -(top + float(np.log(np.sum(np.exp(scaled - top))))) / kappa)


def fit(items: Sequence[LabelledCandidate], base: GateConfig = GateConfig()) -> Calibration:
    """The best configuration over the κ grid; raises if a class is missing."""
    labels = np.array([i.duplicate for i in items])
    if labels.all() or not labels.any():
        raise ValueError("labels: need both duplicates and non-duplicates to calibrate")
    fits = [_fit_kappa(items, labels, kappa, base) for kappa in KAPPAS]
    return max(fits, key=lambda c: (round(c.balanced_accuracy, 3), -c.uncertain_share))


def _fit_kappa(
    items: Sequence[LabelledCandidate], labels: np.ndarray, kappa: float, base: GateConfig
) -> Calibration:
    scores = np.array([score(item, kappa) for item in items])
    threshold, accuracy = _best_cut(scores, labels)
    distinct = scores[~labels]
    clear = float(np.quantile(distinct, 1.0 - CLEAR_SHARE))
    margin = max(0.0, clear - threshold)
    band = float(np.mean((scores >= threshold) & (scores < threshold + margin)))
    config = GateConfig(
        kappa=kappa,
        threshold=round(threshold, 4),
        margin=round(margin, 4),
        density_factor=base.density_factor,
        density_min_facts=base.density_min_facts,
    )
    return Calibration(config, accuracy, band, len(items))


def _best_cut(scores: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The novelty cut maximizing balanced accuracy (duplicates below, others at/above)."""
    ordered = np.unique(scores)
    cuts = (ordered[:-1] + ordered[1:]) / 2 if len(ordered) > 1 else ordered
    best = (float(cuts[0]), -1.0)
    for cut in cuts:
        hit_dup = float(np.mean(scores[labels] < cut))
        hit_new = float(np.mean(scores[~labels] >= cut))
        accuracy = (hit_dup + hit_new) / 2
        if accuracy > best[1]:
            best = (float(cut), accuracy)
    return best
