"""The residue scanner's tokens and marks, keyed BM25 term ids, the sealed ledger fields."""

from __future__ import annotations

from provmem.core.ports import SparseVector
from provmem.infra.residue import (
    ErasedMarks,
    ResidueScanner,
    content_tokens,
    ledger_box,
    marks_of,
)
from provmem.infra.sparse import keyed_terms

KEY = bytes(range(32))
EV = "ev_" + "ab" * 16


def test_distinctive_words_and_numbers_only() -> None:
    tokens = content_tokens(["My phone is 555-0142, born 1984; I love Zürich and my dog Rex."])
    assert tokens == {"phone", "555", "0142", "born", "love", "zürich", "dog", "rex"}


def test_marks_keep_no_plaintext_and_drop_what_kept_turns_say() -> None:
    marks = marks_of(KEY, [EV], ["I moved to Quetzalbrook"], ["I moved to Paris"])
    dumped = repr(marks.to_json())
    assert "quetzalbrook" not in dumped and EV not in dumped
    assert len(marks.words) == 1 and len(marks.ids) == 2  # the id and its point uuid
    assert ErasedMarks.from_json(marks.to_json()) == marks


def test_scan_finds_marked_tokens_in_binary_neighbourhoods() -> None:
    scanner = ResidueScanner(KEY, marks_of(KEY, [EV], ["QUETZALBROOK 5550142"], []))
    data = bytes(5000) + b"\x93quetzalbrook\x00S" + EV.encode() + b"acme\x07" + b"x5550142"
    hits = scanner.scan_bytes(data, "f", base=10)
    assert {(h.kind, h.offset) for h in hits} == {("word", 5010), ("id", 5025)}
    assert ResidueScanner(KEY, marks_of(KEY, [], ["paris"], [])).scan_bytes(data, "f") == []


def test_keyed_terms_hide_term_ids_and_keep_scores() -> None:
    doc = SparseVector((3, 17, 99), (0.5, 1.0, 2.0))
    query = SparseVector((17, 99), (1.0, 1.0))
    mine, other = keyed_terms(doc, KEY), keyed_terms(doc, bytes(32))
    assert set(mine.indices).isdisjoint({3, 17, 99}) and mine.indices != other.indices
    keyed_query = dict(zip(*keyed_terms(query, KEY).__dict__.values(), strict=True))
    score = sum(v * keyed_query.get(i, 0.0) for i, v in zip(mine.indices, mine.values, strict=True))
    assert score == 3.0


def test_ledger_fields_are_sealed_and_old_entries_read_as_they_are() -> None:
    seal, open_ = ledger_box(KEY)
    sealed = seal([EV])
    assert EV not in sealed and open_(sealed) == [EV]
    assert open_([EV]) == [EV] and open_("acme/support/alice") == "acme/support/alice"
