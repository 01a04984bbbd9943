"""bench/techgen: the technical dev set is reproducible and its gold labels are consistent."""

import json

import pytest

from bench.techgen import BLOCK_KINDS, DATA, TURNS_FILE, generate, load, markup_ranges
from provmem.core.capture import TurnInput

CONVERSATIONS = load()
SEED, COUNT = 16, 12
VARIED = load(DATA / "varied")  # python -m bench.techgen --wording varied --seed 61 ...
VARIED_SEED, VARIED_COUNT = 61, 16
EVERY = CONVERSATIONS + VARIED


def _turn(conv: dict, turn_id: str) -> dict:
    return next(t for t in conv["turns"] if t["turn_id"] == turn_id)


def test_the_committed_data_is_what_the_generator_makes() -> None:
    made = generate(SEED, COUNT)
    assert [c["turns"] for c in made] == [c["turns"] for c in CONVERSATIONS]
    assert [c["updates"] for c in made] == [c["updates"] for c in CONVERSATIONS]
    assert [c["contradictions"] for c in made] == [c["contradictions"] for c in CONVERSATIONS]


def test_the_committed_varied_set_is_what_the_generator_makes() -> None:
    made = generate(VARIED_SEED, VARIED_COUNT, "varied")
    assert [c["turns"] for c in made] == [c["turns"] for c in VARIED]
    assert [c["updates"] for c in made] == [c["updates"] for c in VARIED]
    base = {u["original"]["text"] for c in CONVERSATIONS for u in c["updates"]}
    assert not base & {u["original"]["text"] for c in VARIED for u in c["updates"]}


def test_size_and_turn_form() -> None:
    assert len(CONVERSATIONS) >= 12
    for conv in CONVERSATIONS:
        assert 30 <= len(conv["turns"]) <= 60
        speakers = {t["speaker"] for t in conv["turns"]}
        assert speakers == {conv["user"], "assistant"}
    with (DATA / TURNS_FILE).open() as handle:
        for line in handle:
            TurnInput.model_validate(json.loads(line))  # what `provmem ingest` accepts


@pytest.mark.parametrize("conv", EVERY, ids=lambda c: c["conversation_id"])
def test_updates_and_contradictions_point_at_user_turns_in_order(conv: dict) -> None:
    assert conv["updates"] and conv["contradictions"]
    for update in conv["updates"]:
        old, new = update["original"], update["updated"]
        assert old["turn_id"] < new["turn_id"] and old["value"] != new["value"]
        for side in (old, new):
            turn = _turn(conv, side["turn_id"])
            assert turn["speaker"] == conv["user"]
            assert side["text"] in turn["text"] and side["value"] in side["text"]
    for pair in conv["contradictions"]:
        assert pair["first"]["turn_id"] < pair["second"]["turn_id"]
        for side in (pair["first"], pair["second"]):
            assert side["text"] in _turn(conv, side["turn_id"])["text"]


@pytest.mark.parametrize("conv", EVERY, ids=lambda c: c["conversation_id"])
def test_labelled_statements_are_prose_and_code_is_labelled(conv: dict) -> None:
    for turn in conv["turns"]:
        ranges = conv["markup"][turn["turn_id"]]
        text = turn["text"]
        blocks = [(s, e) for s, e, kind in ranges if kind in BLOCK_KINDS]
        for statement in _statements(conv, turn["turn_id"]):
            start = text.index(statement)
            assert not any(s < start + len(statement) and start < e for s, e in blocks)
        covered = {i for s, e, _ in ranges for i in range(s, e)}
        assert all(i in covered for i, c in enumerate(text) if c in "`|")


def _statements(conv: dict, turn_id: str) -> list[str]:
    sides = [u[k] for u in conv["updates"] for k in ("original", "updated")]
    sides += [c[k] for c in conv["contradictions"] for k in ("first", "second")]
    return [s["text"] for s in sides if s["turn_id"] == turn_id]


def test_markup_ranges_find_fences_inline_code_tables_and_markers() -> None:
    text = "Intro `x`.\n\n```py\na = 1\n```\n\n- item\n\n| a | b |"
    kinds = [kind for _, _, kind in markup_ranges(text)]
    assert kinds == ["inline", "fence", "marker", "table"]
