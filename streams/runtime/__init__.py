"""Composition roots: build every adapter and stage of one runtime from settings.

``components`` picks the runtime (``embedded`` or ``kafka``), which builds its adapters and
stages with ``wiring``; the rest of ``streams`` reaches ``infra`` only through this folder:
what builds an adapter for it lives here (``sealed_topics``, ``erasure``, ``dependencies``,
``server_scans``, ``first_run``), and the helpers and types it reads come through
``adapters``.
"""
