"""Wiring shared by both runtimes: the derive stage's dependencies from settings."""

from __future__ import annotations

from ..core.extractor_port import RulesExtractor
from ..core.ports import EvidenceStore, Extractor, StateStore
from ..infra.crypto import EvidenceSealer
from ..infra.embedding import MiniLMEmbedder
from ..infra.settings import Settings
from .gate_store import GateStore
from .pipeline import DeriveDeps


def derive_deps(
    settings: Settings,
    evidence: EvidenceStore,
    state: StateStore,
    sealer: EvidenceSealer,
    embedder: MiniLMEmbedder,
) -> DeriveDeps:
    """The derive stage's dependencies, the same for both runtimes."""
    return DeriveDeps(
        evidence=evidence,
        gate=GateStore(state),
        sealer=sealer,
        extractor=make_extractor(settings),
        embedder=embedder,
        config=settings.gate_config(),
    )


def make_extractor(settings: Settings) -> Extractor:
    """The rules extractor, or the LLM one when an endpoint is configured."""
    if settings.llm_base_url is None:
        return RulesExtractor()
    from ..infra.llm_extractor import OpenAICompatibleExtractor

    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    return OpenAICompatibleExtractor(settings.llm_base_url, settings.llm_model, api_key=key)
