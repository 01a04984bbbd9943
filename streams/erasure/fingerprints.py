"""Keyed fingerprints of erased text: an audit recognises fragments without keeping text.

The ledger stores each request's fingerprints with the scheme that made them
(``fingerprint_scheme``); entries written before the tag existed are HMAC-SHA256, so the
audit of an older request still verifies after the default scheme changed. Keyed BLAKE2b
is about twice as fast as HMAC-SHA256 here (one pass, no inner and outer hash), and a
subject erasure fingerprints every 4-word run of the subject's text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import partial

from provmem.core.erasure import fingerprint, shingles

#: The scheme new requests use.
SCHEME = "blake2b-128/1"
#: The scheme of ledger entries without a tag.
LEGACY_SCHEME = "hmac-sha256/1"

Fingerprint = Callable[[str], str]


def fingerprinter(scheme: str, secret: bytes) -> Fingerprint:
    """The keyed hash of a scheme (32 hex characters either way)."""
    if scheme == SCHEME:
        return partial(_blake2b, secret)
    if scheme == LEGACY_SCHEME:
        return partial(fingerprint, secret)
    raise ValueError(f"unknown fingerprint scheme {scheme!r}")


def _blake2b(secret: bytes, value: str) -> str:
    return hashlib.blake2b(value.encode("utf-8"), key=secret, digest_size=16).hexdigest()


def fingerprints(texts: Iterable[str], mark: Fingerprint) -> set[str]:
    """Fingerprints of the texts' word runs (each distinct run hashed once)."""
    return {mark(run) for run in {run for text in texts for run in shingles(text)}}


def fragments_in(text: str, prints: set[str], mark: Fingerprint) -> int:
    """How many of ``text``'s word runs are fingerprinted in ``prints``."""
    return sum(mark(run) in prints for run in shingles(text))
