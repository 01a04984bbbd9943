"""bench/chatgen and bench/chatbench: the chat dev set is reproducible, its gold is
consistent, and every metric of the scorer moves on a deliberately wrong input."""

import json
import re
from datetime import datetime
from types import SimpleNamespace

import pytest

from bench.chatbench import (
    assistant_as_user,
    current_above,
    date_outcome,
    facts_from_span,
    recalled,
    says,
    stale,
    value_above,
)
from bench.chatgen import ASSISTANT, DATA, NOT_FACTS, TURNS_FILE, generate, load
from bench.wellformed import share_ill_formed
from provmem.core.capture import TurnInput
from provmem.core.events import FactStatus

CHATS = load()
SEED, COUNT = 22, 24


def _turns(chat: dict) -> dict[str, dict]:
    return {t["turn_id"]: t for t in chat["turns"]}


def test_the_committed_data_is_what_the_generator_makes() -> None:
    made = generate(SEED, COUNT)
    assert [c["turns"] for c in made] == [c["turns"] for c in CHATS]
    for key in ("questions", "not_facts", "dates", "plans"):
        assert [c[key] for c in made] == [c[key] for c in CHATS]
    assert generate(SEED, 2) == generate(SEED, 2)


def test_size_and_turn_form() -> None:
    assert len(CHATS) >= 24
    for chat in CHATS:
        assert 12 <= len(chat["turns"]) <= 40
        assert {t["speaker"] for t in chat["turns"]} == {chat["user"], ASSISTANT}
        assert {t["session"] for t in chat["turns"]} <= {"session_1", "session_2"}
        assert len(chat["questions"]) >= 12
    with (DATA / TURNS_FILE).open() as handle:
        for line in handle:
            TurnInput.model_validate(json.loads(line))  # what `provmem ingest` accepts


@pytest.mark.parametrize("chat", CHATS, ids=lambda c: c["chat_id"])
def test_each_gold_turn_exists_and_its_text_holds_the_answer(chat: dict) -> None:
    turns = _turns(chat)
    for q in chat["questions"]:
        assert q["evidence"], q
        for turn_id in q["evidence"]:
            assert turns[turn_id]["speaker"] == chat["user"]
            assert says(turns[turn_id]["text"], q["answer"]), (q, turns[turn_id]["text"])
        for turn_id in q["superseded"]:
            assert says(turns[turn_id]["text"], q["superseded_answer"])
            assert not says(turns[turn_id]["text"], q["answer"])
        assert bool(q["superseded"]) == (q["superseded_answer"] is not None)


@pytest.mark.parametrize("chat", CHATS, ids=lambda c: c["chat_id"])
def test_non_assertion_spans_are_the_sentences_they_name(chat: dict) -> None:
    turns = _turns(chat)
    for span in chat["not_facts"]:
        text = turns[span["turn_id"]]["text"][span["start"] : span["end"]]
        assert text == span["text"].removesuffix(".") or text == span["text"]
        assert span["kind"] in NOT_FACTS


@pytest.mark.parametrize("chat", CHATS, ids=lambda c: c["chat_id"])
def test_dates_resolve_by_tense_and_a_birthday_has_no_year(chat: dict) -> None:
    turns = _turns(chat)
    for d in chat["dates"]:
        sentence = turns[d["turn_id"]]["text"][d["start"] : d["end"]]
        assert d["said"] in sentence
        said_year = re.search(r"\b20\d\d\b", d["said"])
        captured = datetime.fromisoformat(d["captured_at"]).date().isoformat()
        if said_year:
            assert d["year"] == int(said_year.group(0))
        elif d["tense"] == "recurring":
            assert d["year"] is None and d["expected"].startswith("--")
        elif d["tense"] == "future":
            assert captured < d["expected"] < f"{d['year']}-13" and d["year"] >= int(captured[:4])
        else:
            assert d["expected"] < captured and d["year"] <= int(captured[:4])


# --- every metric moves on a deliberately wrong input ------------------------------------


def _fact(statement: str, evidence: tuple[str, ...] = ("e1",), **fields: object) -> SimpleNamespace:
    values = {"status": FactStatus.ACTIVE, "valid_to": None, "negated": False,
              "asserted_by": "user", "time_expressions": (), "support": ()}  # fmt: skip
    return SimpleNamespace(statement=statement, evidence_ids=evidence, **(values | fields))


def _span(evidence: str, start: int, end: int) -> SimpleNamespace:
    return SimpleNamespace(evidence_id=evidence, start=start, end=end)


def test_recall_at_k_needs_an_evidence_turn_in_the_top_k() -> None:
    ranked = [["t3"], ["t1", "t2"], ["t9"]]
    assert recalled(ranked, ["t2"], 2) and not recalled(ranked, ["t2"], 1)
    assert not recalled(ranked, ["t7"], 10)


def test_current_above_superseded_fails_on_ties_and_on_the_old_first() -> None:
    assert current_above([["new"], ["old"]], ["new"], ["old"])
    assert current_above([["new"]], ["new"], ["old"])
    assert not current_above([["old"], ["new"]], ["new"], ["old"])
    assert not current_above([["old", "new"]], ["new"], ["old"])
    assert not current_above([["old"]], ["new"], ["old"])


def test_value_above_reads_the_statements() -> None:
    q = {
        "answer": "Boulder",
        "superseded_answer": "Denver",
        "evidence": ["t2"],
        "superseded": ["t1"],
    }
    right = [SimpleNamespace(fact=_fact("Priya moved to Boulder.")),
             SimpleNamespace(fact=_fact("Priya lives in Denver."))]  # fmt: skip
    assert value_above(right, [["t2"], ["t1"]], q)
    assert not value_above(right[::-1], [["t1"], ["t2"]], q)


def test_a_superseded_value_is_stale_while_active_and_unended() -> None:
    old = _fact("Priya lives in Denver.", ("e-old",))
    assert stale([old], {"e-old"}, "Denver", "Boulder") == [old]
    ended = _fact("Priya used to live in Denver.", ("e-old",), valid_to=datetime(2026, 3, 1))
    replaced = _fact("Priya lives in Denver.", ("e-old",), status=FactStatus.SUPERSEDED)
    assert stale([ended, replaced], {"e-old"}, "Denver", "Boulder") == []


def test_a_fact_from_a_non_assertion_span_is_found_by_its_support() -> None:
    # "I live in Lyon. Can you remind me to book the flights?" -> request at [16, 55)
    request = _fact("Priya wants a reminder to book the flights.", support=(_span("e1", 16, 55),))
    lives = _fact("Priya lives in Lyon.", support=(_span("e1", 0, 15),))
    assert facts_from_span([request, lives], "e1", 16, 55) == [request]
    assert facts_from_span([request, lives], "e2", 16, 55) == []


def test_assistant_words_must_be_labelled_the_assistants() -> None:
    echo = _fact("Priya moved to Seattle.", ("a1",))
    own = _fact("The assistant recommended booking early.", ("a1",), asserted_by=ASSISTANT)
    mixed = _fact("Priya moved to Seattle.", ("a1", "u1"))
    assert assistant_as_user([echo, own, mixed], {"a1"}) == [echo]
    unlabelled = _fact("The assistant recommended booking early.", ("a1",))
    assert assistant_as_user([unlabelled], {"a1"}) == [unlabelled]


@pytest.mark.parametrize(
    ("year", "statement", "expressions", "expected"),
    [
        (None, "Priya's birthday is on 3 March.", (("on 3 March", "--03-03"),), "ok"),
        (None, "Priya's birthday is on 3 March 2026.", (("on 3 March", "2026-03-03"),), "invented"),
        (None, "Priya's birthday is on 3 March 2026.", (), "invented"),
        (2026, "Priya is flying to Lisbon in October 2026.", (("in October", "2026-10"),), "ok"),
        (2026, "Priya is flying to Lisbon in October 2025.", (("in October", "2025-10"),), "wrong"),
        (2026, "Priya is flying to Lisbon in October.", (("in October", "--10"),), "dropped"),
        (2026, "Priya likes Lisbon.", (), "missing"),
        (2026, "Priya may go to Lisbon.", (), "missing"),  # "may" is no month
    ],
)
def test_date_outcomes(year: int | None, statement: str, expressions: tuple, expected: str) -> None:
    said = "on 3 March" if "March" in statement else "in October"
    gold = {"said": said if "Lisbon" not in statement else "in October", "year": year}
    assert date_outcome(gold, [_fact(statement, time_expressions=expressions)]) == expected


def test_an_ill_formed_statement_counts() -> None:
    share, bad = share_ill_formed(["Maya nows work at a clinic.", "Maya works at a clinic."])
    assert share == 0.5 and len(bad) == 1
