"""Wiring shared by both runtimes: the derive stage's dependencies from settings."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..core.ports import EvidenceStore, Extractor, StateStore
from ..infra.crypto import EvidenceSealer
from ..infra.embedding import MiniLMEmbedder
from ..infra.settings import Settings
from .gate_store import GateStore
from .pipeline import DeriveDeps

if TYPE_CHECKING:
    from ..core.extraction import Claim


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
        return DeferredRulesExtractor()
    from ..infra.llm_extractor import OpenAICompatibleExtractor

    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    return OpenAICompatibleExtractor(settings.llm_base_url, settings.llm_model, api_key=key)


class DeferredRulesExtractor:
    """The rules extractor, imported on first use: importing its patterns costs a process
    ~50 ms, and a CLI query that finds nothing to derive never needs them (bench/cli)."""

    def __init__(self) -> None:
        self._rules: Extractor | None = None

    @property
    def version(self) -> str:
        return self._loaded().version

    def extract(
        self, text: str, *, speaker: str, captured_at: datetime, **more: Any
    ) -> list[Claim]:
        return self._loaded().extract(text, speaker=speaker, captured_at=captured_at, **more)

    def _loaded(self) -> Extractor:
        if self._rules is None:
            from ..core.extractor_port import RulesExtractor

            self._rules = RulesExtractor()
        return self._rules
