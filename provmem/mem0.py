"""Mem0's API on provmem: ``from provmem.mem0 import Memory`` where code said ``from mem0
import Memory`` (see docs/mem0.md and :mod:`provmem.services.sdk.facade_mem0`)."""

from __future__ import annotations

from provmem.services.sdk.facade_mem0 import AsyncMemory, Memory

__all__ = ["AsyncMemory", "Memory"]
