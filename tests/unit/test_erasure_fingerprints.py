"""Erasure fingerprints by scheme, and the ERASE change built from a fact's version."""

from __future__ import annotations

import pytest

from provmem.core.erasure import erased, fingerprint, shingles
from provmem.streams.erasure.cascade import erase_change
from provmem.streams.erasure.fingerprints import (
    LEGACY_SCHEME,
    SCHEME,
    fingerprinter,
    fingerprints,
    fragments_in,
)
from provmem.streams.gate_store import FactVersion
from tests.unit.test_gate_store import one_fact

SECRET = b"s" * 32
TEXT = "I met my friend Ana at the old harbour in May"


def test_legacy_scheme_is_the_hmac_older_ledger_entries_hold() -> None:
    mark = fingerprinter(LEGACY_SCHEME, SECRET)
    assert [mark(run) for run in shingles(TEXT)] == [
        fingerprint(SECRET, run) for run in shingles(TEXT)
    ]


def test_schemes_differ_and_each_finds_its_own_fragments() -> None:
    current, legacy = fingerprinter(SCHEME, SECRET), fingerprinter(LEGACY_SCHEME, SECRET)
    prints = fingerprints([TEXT], current)
    assert len(prints) == len(set(shingles(TEXT))) and all(len(p) == 32 for p in prints)
    assert prints.isdisjoint(fingerprints([TEXT], legacy))
    assert fragments_in("friend Ana at the old harbour", prints, current) == 3
    assert fragments_in("friend Ana at the old harbour", prints, legacy) == 0
    assert fingerprints([TEXT], fingerprinter(SCHEME, b"t" * 32)).isdisjoint(prints)


def test_an_unknown_scheme_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown fingerprint scheme"):
        fingerprinter("md5/1", SECRET)


def test_the_erase_change_of_a_version_equals_the_one_built_from_the_fact() -> None:
    fact = one_fact()
    known = FactVersion(fact.fact_id, fact.scope, fact.version)
    assert erase_change(known, "er_1") == erased(fact, "er_1")
