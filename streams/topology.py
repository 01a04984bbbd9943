"""The stage topology: which stage reads which topic, what handles it, what it writes.

Both runners read this table: the embedded runner (streams/runner.py, bindings built by
streams/runtime/wiring.py) and the faust workers (streams/faust/app.py: one agent per stage). A
stage's ``writes`` are the topics its handler's :class:`~.outcome.Outcome` may send to.

| stage | reads | handler | writes | runs in |
|---|---|---|---|---|
| derive | turns | Deriver (faust: ScopeRecords, control records to the cascade) | fact-changes, dead-letters, turns (a done control record's tombstone) | runner, worker |
| materialize | fact-changes | Materializer (views and index) | dead-letters | runner, worker |
| index | fact-changes | Materializer (a reader's local index only) | dead-letters | reader on Kafka |
| index-evidence | turns | EvidenceIndexer | - | runner, worker with Qdrant, reader |
| route-erasures | erasure-requests | ErasureRouter | turns (control records) | worker |
| erase | erasure-requests | ErasureStage (the cascade) | erasure-receipts, fact-changes, turns | runner, on request |
"""  # noqa: E501 - a table

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from provmem.streams.topics import (
    DEAD_LETTERS,
    ERASURE_RECEIPTS,
    ERASURE_REQUESTS,
    FACT_CHANGES,
    TURNS,
    Topic,
    TopicNames,
    TopicSpec,
)


@dataclass(frozen=True)
class StageSpec:
    """One row of the topology: a stage, its input topic, its handler and its outputs."""

    name: str
    reads: Topic[Any]
    handler: str
    writes: tuple[TopicSpec, ...]

    def input(self, names: TopicNames) -> str:
        """The concrete name of the stage's input topic in the deployment ``names``."""
        return self.reads.name(names.prefix)

    def outputs(self, names: TopicNames) -> tuple[str, ...]:
        return tuple(topic.name(names.prefix) for topic in self.writes)


DERIVE = StageSpec("derive", TURNS, "Deriver", (FACT_CHANGES, DEAD_LETTERS, TURNS))
MATERIALIZE = StageSpec("materialize", FACT_CHANGES, "Materializer", (DEAD_LETTERS,))
INDEX_FACTS = StageSpec("index", FACT_CHANGES, "Materializer", (DEAD_LETTERS,))
INDEX_EVIDENCE = StageSpec("index-evidence", TURNS, "EvidenceIndexer", ())
ROUTE_ERASURES = StageSpec("route-erasures", ERASURE_REQUESTS, "ErasureRouter", (TURNS,))
ERASE = StageSpec(
    "erase", ERASURE_REQUESTS, "ErasureStage", (ERASURE_RECEIPTS, FACT_CHANGES, TURNS)
)

STAGES: tuple[StageSpec, ...] = (
    DERIVE,
    MATERIALIZE,
    INDEX_FACTS,
    INDEX_EVIDENCE,
    ROUTE_ERASURES,
    ERASE,
)


def outputs_of(names: TopicNames, *stages: StageSpec) -> tuple[str, ...]:
    """Every topic the given stages write, each once, in table order."""
    found = [name for stage in stages for name in stage.outputs(names)]
    return tuple(dict.fromkeys(found))
