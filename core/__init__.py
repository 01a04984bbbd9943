"""The pure core of provmem: events, scopes, claims and gate decisions.

Nothing here performs I/O or imports a broker, store, vector or embedding
library; adapters in :mod:`provmem.infra` do that. A CI import rule enforces it.

The write path, in order (one turn):

1. ``capture``: a turn is validated and described as ``TurnRecorded`` (``events``, ``scope``).
2. ``language``: its text is read as segments, clauses, times, measures and cues.
3. ``extraction``: the clauses are written as atomic claims that cite their span
   (``claim`` holds the contract: signals, slots, claims); ``extraction.rules`` is the
   default extractor.
4. ``facts``: the write gate decides ADD, NOOP, UPDATE or MERGE against the scope's memory,
   finds contradictions and applies corrections; ``stages`` wires 1-4 as pure stages.
5. ``retrieval``: at query time, route rankings are fused and projected onto facts, and
   ``sufficiency`` says ANSWER or ESCALATE.

``erasure`` is the pure part of a compliance deletion; ``ports`` the adapters' protocols.
"""
