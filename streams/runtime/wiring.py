"""Wiring shared by both composition roots: the derive stage's dependencies, the sealers,
and the runner's stage bindings read from the stage topology (streams/topology.py)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from provmem.config import Settings
from provmem.core.ports import (
    BulkStateStore,
    ClauseParser,
    EventLog,
    EvidenceStore,
    Extractor,
    FactViews,
    KeyStore,
    ListedItems,
)
from provmem.infra.crypto.envelope import EvidenceSealer, master_key
from provmem.infra.crypto.sealing import ViewSealer
from provmem.infra.log.sealed import record_keys
from provmem.infra.models.embedding import MiniLMEmbedder
from provmem.infra.models.parser import SpacyParser
from provmem.streams.gate_store import GateStore
from provmem.streams.indexing import EvidenceIndexer, SearchIndex, TombstonedTurns
from provmem.streams.pipeline import DeriveDeps, Deriver, Materializer
from provmem.streams.runner import StageBinding
from provmem.streams.topics import TopicNames
from provmem.streams.topology import DERIVE, INDEX_EVIDENCE, INDEX_FACTS, MATERIALIZE

if TYPE_CHECKING:
    from provmem.core.claim import Claim


def derive_deps(
    settings: Settings,
    evidence: EvidenceStore,
    state: BulkStateStore,
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
        parser=SpacyParser() if settings.read_values else None,
    )


def make_extractor(settings: Settings) -> Extractor:
    """The rules extractor, or the LLM one when an endpoint is configured."""
    if settings.llm_base_url is None:
        return DeferredRulesExtractor(settings.parse_clauses)
    from provmem.infra.models.llm_extractor import OpenAICompatibleExtractor

    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
    return OpenAICompatibleExtractor(settings.llm_base_url, settings.llm_model, api_key=key)


async def sealers(settings: Settings, keys: KeyStore) -> tuple[EvidenceSealer, ViewSealer]:
    """The evidence sealer, checked against the deployment's master key before anything
    else (a foreign key refuses to start: infra/crypto/envelope.py), and the views' sealer."""
    sealer = EvidenceSealer(master_key(settings), keys)
    await sealer.verify()
    return sealer, ViewSealer(sealer)


def stage_bindings(
    names: TopicNames,
    groups: Mapping[str, str],
    *,
    deriver: Deriver | None,
    views: FactViews | None,
    index: SearchIndex,
    sealer: EvidenceSealer,
    log: EventLog,
) -> list[StageBinding]:
    """The runner's stages, in order, each on its topology row's input topic as the
    consumer group ``groups`` names for it. Without a deriver (a reading process on
    Kafka) the fact changes feed the search index only, and the evidence indexer finds
    the ids of turns' tombstones among its index's points and on ``log`` (no cascade
    reaches this process's index)."""
    facts = Materializer(names, views, index)
    bindings = []
    if deriver is not None:
        bindings.append(StageBinding.of(DERIVE, names, groups[DERIVE.name], deriver))
    fact_stage = MATERIALIZE if deriver is not None else INDEX_FACTS
    bindings.append(StageBinding.of(fact_stage, names, groups[fact_stage.name], facts))
    reader = deriver is None
    held = index.vectors if reader and isinstance(index.vectors, ListedItems) else None
    tombstones = TombstonedTurns(record_keys(log), log if reader else None, held)
    indexer = EvidenceIndexer(index, sealer, tombstones)
    bindings.append(StageBinding.of(INDEX_EVIDENCE, names, groups[INDEX_EVIDENCE.name], indexer))
    return bindings


class DeferredRulesExtractor:
    """The rules extractor, imported on first use: importing its patterns costs a process
    ~50 ms, and a CLI query that finds nothing to derive never needs them (bench/cli)."""

    def __init__(self, parse_clauses: bool = False) -> None:
        self._rules: Extractor | None = None
        self._parse_clauses = parse_clauses

    @property
    def version(self) -> str:
        return self._loaded().version

    def extract(
        self, text: str, *, speaker: str, captured_at: datetime, **more: Any
    ) -> list[Claim]:
        return self._loaded().extract(text, speaker=speaker, captured_at=captured_at, **more)

    def _loaded(self) -> Extractor:
        if self._rules is None:
            from provmem.core.extraction.rules import RulesExtractor

            self._rules = RulesExtractor(clause_parser(self._parse_clauses))
        return self._rules


def clause_parser(parse_clauses: bool) -> ClauseParser | None:
    """The parser whose comma splices break clauses (``Settings.parse_clauses``), loaded on
    first use; None: the word rules alone."""
    if not parse_clauses:
        return None
    from provmem.infra.models.clause_parser import SpacyClauseParser

    return SpacyClauseParser()
