"""The residue scanner's tokens and marks, keyed BM25 term ids, the sealed ledger fields."""

from __future__ import annotations

from provmem.core.ports import SparseVector
from provmem.infra.models.sparse import keyed_terms
from provmem.infra.residue import (
    Common,
    ErasedMarks,
    ResidueScanner,
    content_spans,
    content_tokens,
    ledger_box,
    marks_of,
)

KEY = bytes(range(32))
EV = "ev_" + "ab" * 16


def test_single_marks_are_rare_words_identifiers_and_numbers_only() -> None:
    """Never a dictionary word ("name", "size", "distance", "offsets"): a common word
    matched the stores' own schema and config text (issue 30)."""
    said = "My name is Rex, phone 555-0142, born 1984; I love Zürich, Quetzalbrook and inv2024x."
    tokens = content_tokens([said])
    assert tokens == {"5550142", "zürich", "quetzalbrook", "inv2024x"}
    assert content_tokens(["size distance mode topics publications payload"]) == set()


def test_spans_are_every_run_of_three_words() -> None:
    assert content_spans(["My name is Rex."]) == {"my name is", "name is rex"}
    assert content_spans(["Hi there"]) == set()


def test_the_stores_own_words_and_spans_are_never_marks() -> None:
    common = Common.of_bytes(b"CREATE TABLE IF NOT EXISTS topics (name TEXT, quetzalbrook)")
    marks = marks_of(KEY, [], ["Create table if not exists, Quetzalbrook said"], [], common)
    assert not marks.words  # quetzalbrook: the stores' own here
    plain = marks_of(KEY, [], ["Create table if not exists, Quetzalbrook said"], [])
    assert len(plain.spans) - len(marks.spans) == 3  # create table if, table if not, if not exists


def test_a_planted_quote_is_found_in_any_punctuation_and_a_common_word_is_not() -> None:
    scanner = ResidueScanner(KEY, marks_of(KEY, [], ["My favourite food is ramen, really."], []))
    planted = b"\x00\x01notes: my FAVOURITE food -- is ramen!\n"
    hits = scanner.scan_bytes(planted, "exports/notes.txt")
    spans = {("span", 9), ("span", 12), ("span", 22)}
    assert {(h.kind, h.offset) for h in hits} == spans | {("word", 33)}  # ramen: rare
    assert {h.store for h in hits} == {"files"}
    schema = b'CREATE TABLE facts (food TEXT, favourite INT, is_rated BLOB)"size":384'
    assert scanner.scan_bytes(schema, "views.db") == []


def test_a_number_is_one_token_however_it_is_grouped() -> None:
    said = "Call +1 (555) 010-7788 or 555.0142; account 40817810; I owe 12,500.00 for lot 3-14."
    assert content_tokens([said]) & set("15550107788 5550142 40817810 1250000".split()) == {
        "15550107788",
        "5550142",
        "40817810",
        "1250000",
    }
    assert not content_tokens([said]) & {"314", "555", "0142", "12", "500"}


def test_short_and_structural_numbers_are_no_marks() -> None:
    """A count, a size, a revision, a year, a digit run inside an id: the stores' own."""
    said = "I met friend number 384 at the harbour in 1384, 201 times since 2019."
    assert not {t for t in content_tokens([said]) if t.isdigit()}
    hexes = "fact_" + "0482ea8d1915d074008e" + "9e6ea5a3" + "6a5" + " b64:Ab1234567Xy+/"
    assert not {t for t in content_tokens([hexes]) if t.isdigit()}


def test_a_planted_number_is_found_in_every_spelling_and_a_config_number_is_not() -> None:
    scanner = ResidueScanner(
        KEY, marks_of(KEY, [], ["phone 555-0142, account 40817810, paid 12,500"], [])
    )
    for planted in (b"555-0142", b"555 0142", b"5550142", b"(555) 0142", b"40817810", b"12.500"):
        before = b'{"dim":384,"revision": 201}\x00 ' + planted[:1].strip(b"0123456789")
        hits = scanner.scan_bytes(before + planted.lstrip(b"(") + b". \x07", "views.db-wal")
        assert [(h.kind, h.offset) for h in hits] == [("word", len(before))]
    config = b'{"dim":384,"revision": 201,"size":12500,"id":"ab40817810cd","n":555014299}'
    assert scanner.scan_bytes(config, "edge_config.json") == []


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


def test_a_word_or_number_that_ciphertext_seems_to_hold_is_chance() -> None:
    scanner = ResidueScanner(KEY, marks_of(KEY, [], ["Sam paid 40817810"], []))
    cipher = b'"sealed":"pm1.k1.' + b"Qx7Z" * 20 + b"+Sam/" + b"Kp9" * 20 + b"+40817810/aB=="
    assert scanner.scan_bytes(cipher + b'"}', "log.db") == []
    text = cipher + b'"} Sam paid 40817810.'
    found = {(h.kind, h.offset - len(cipher)) for h in scanner.scan_bytes(text, "log.db")}
    assert found == {("span", 3), ("word", 12)}  # the quote, the number


def test_a_short_word_counts_in_text_not_amid_binary_bytes() -> None:
    """A vector file's floats spell short words by chance (issue 30: hits in segment
    files); a rare word shorter than SHORT_WORD counts inside printable text only."""
    scanner = ResidueScanner(KEY, marks_of(KEY, [], ["Zorvik"], []))
    assert scanner.marks.words
    assert scanner.scan_bytes(b"\x93\x01Zorvik\x07\xfe\x00" * 3, "views.db") == []
    assert scanner.scan_bytes(b"\x01Z\xfdorvik\x01" + b'{"a":"Zor\xfdvik"}', "f") == []
    record = b'\x93\x01{"speaker":"Zorvik","at":1}\x00'
    assert [h.offset for h in scanner.scan_bytes(record, "views.db")] == [record.find(b"Zorvik")]
