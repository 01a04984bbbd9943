"""Erasure: one request from its filing to its receipt, the cascade, the audits.

One request, in order (``eraser.Eraser.erase``; ``ports.erasure_deps`` composes what it uses
once per process from its root):

1. ``requests``: the request is decoded and routed (embedded: inline; Kafka: the workers);
2. ``cascade.scope_log`` reads the scope's turns; ``journal`` (kept by the ``ledger``)
   writes down what will be erased, so that a crash resumes it; ``residue`` notes the
   facts that may go and the marks of the erased words (keyed, never text);
3. ``cascade``: the turns tombstoned, the scope's memory re-derived from what remains,
   fact changes and tombstones published, evidence, index points and cached embeddings
   cleaned (a subject's views and data key too), the gate state saved, the log compacted
   (``log_compaction`` where the log does not compact itself);
4. ``residue`` purges the stores physically; ``audit`` (``log_audit`` reads the log,
   ``baseline`` the stores' own words, ``fingerprints`` the erased word runs) verifies
   that nothing of it remains;
5. ``ledger`` writes the receipt: counts, the erased ids and what the audit found.
"""
