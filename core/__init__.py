"""The pure core of provmem: events, scopes, claims and gate decisions.

Nothing here performs I/O or imports a broker, store, vector or embedding
library; adapters in :mod:`provmem.infra` do that. A CI import rule enforces it.
"""
