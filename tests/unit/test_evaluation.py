"""Metric definitions of ``provmem eval`` on hand-built cases whose values are known."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provmem.services.tools import evaluation_metrics as m
from provmem.services.tools.evaluation_data import (
    DatasetFormatError,
    RawBM25,
    load_samples,
    normalize_ids,
    questions,
)
from provmem.services.tools.evaluation_metrics import CitingFact, Layer, Ranked
from provmem.services.tools.evaluation_plots import EvaluationReport, Miss


def fact(fact_id: str, *turns: str, tokens: int = 10, context: tuple[str, ...] = ()) -> Ranked:
    return Ranked(fact_id, turns, tokens, context)


def raw(turn: str, tokens: int = 10) -> Ranked:
    return Ranked(None, (turn,), tokens)


RANKED = [fact("f1", "D1:1"), raw("D1:9"), fact("f2", "D1:2", "D1:3")]


@pytest.mark.parametrize(("k", "expected"), [(1, 0.5), (2, 0.5), (3, 1.0), (20, 1.0)])
def test_recall_at_k_is_the_share_of_gold_turns_cited_by_the_top_k(k: int, expected: float):
    assert m.coverage(["D1:1", "D1:3"], RANKED, k) == expected


@pytest.mark.parametrize(
    ("budget", "expected"),
    [
        (50, 0.5),  # only the third item fits: D1:3
        (128, 0.5),  # the first fits, the second and third no longer do
        (160, 1.0),  # first and third (the second is skipped, not a stop)
        (450, 1.0),
    ],
)
def test_budget_recall_keeps_items_greedily_in_rank_order(budget: int, expected: float):
    ranked = [fact("f1", "D1:1", tokens=100), raw("D1:9", 300), fact("f2", "D1:3", tokens=50)]
    assert m.budget_coverage(["D1:1", "D1:3"], ranked, budget) == expected


def test_budget_recall_is_zero_when_nothing_fits():
    assert m.budget_coverage(["D1:1"], [fact("f1", "D1:1", tokens=600)], 512) == 0.0


def test_multi_hop_all_covered_and_missed_turns():
    assert m.all_covered(["D1:1", "D1:2"], RANKED, 3)
    assert not m.all_covered(["D1:1", "D1:2"], RANKED, 2)
    assert m.missed(["D1:1", "D1:2", "D7:7"], RANKED, 2) == ["D1:2", "D7:7"]


def test_false_cache_hit_needs_answer_path_and_no_fact_with_gold_in_top_k():
    gold = ["D1:9"]
    assert m.false_cache_hit("ANSWER", gold, RANKED, 10)  # only a raw turn holds it
    assert not m.false_cache_hit("ESCALATE", gold, RANKED, 10)
    assert not m.false_cache_hit("ANSWER", ["D1:2"], RANKED, 10)
    assert m.false_cache_hit("ANSWER", ["D1:2"], RANKED, 2)  # the fact is ranked 3rd


def test_abstention_is_escalation_or_no_fact_holding_the_evidence():
    assert m.abstained("ESCALATE", ["D1:1"], RANKED, 10)
    assert not m.abstained("ANSWER", ["D1:1"], RANKED, 10)
    assert m.abstained("ANSWER", ["D1:9"], RANKED, 10)
    assert m.abstained("ANSWER", ["D1:1"], [], 10)


def test_unverifiable_omissions_are_raw_tier_turns_no_active_fact_cites():
    ranked = [raw("D1:1"), fact("f1", "D1:2", context=("D1:3", "D1:4"))]
    cited = {"D1:2", "D1:4"}
    gold = ["D1:1", "D1:2", "D1:3", "D1:4", "D1:5"]
    assert m.unverifiable_omissions(gold, ranked, cited) == ["D1:1", "D1:3"]


@pytest.mark.parametrize(
    ("ranked", "expected"),
    [
        (["new", "x"], True),
        (["x", None, "new"], True),
        (["old", "new"], False),
        (["new", "old"], True),
        (["x", "old"], False),
        ([], False),
    ],
)
def test_successor_must_rank_above_the_superseded_fact(ranked: list[str | None], expected: bool):
    assert m.successor_first(ranked, "new", "old") is expected


def test_duplicate_flags_mark_facts_close_to_an_earlier_one():
    vectors = [[1.0, 0.0], [3.0, 0.1], [0.0, 1.0], [0.0, 2.0], [0.7, 0.7]]
    assert m.duplicate_flags(vectors, 0.95) == [False, True, False, True, False]
    assert m.duplicate_flags([], 0.95) == []


@pytest.mark.parametrize(
    ("spans", "length", "expected"),
    [
        ([(0, 5), (6, 10)], 10, True),
        ([(0, 11)], 10, False),
        ([(4, 4)], 10, False),
        ([], 10, False),
        ([(0, 5)], None, False),
    ],
)
def test_spans_must_lie_inside_readable_evidence(spans, length, expected):
    assert m.spans_inside(spans, length) is expected


def citing(status: str = "active", position: int = 0, similarity: float = 1.0) -> CitingFact:
    return CitingFact("f", status, position, similarity)


@pytest.mark.parametrize(
    ("captured", "facts", "layer"),
    [
        (False, [], Layer.CAPTURE),
        (True, [], Layer.EXTRACTION),
        (True, [citing(position=2, similarity=0.3)], Layer.WRITE_GATE),
        (True, [citing("needs-review")], Layer.WRITE_GATE),
        (True, [citing("superseded")], Layer.CANONICAL),
        (True, [citing("deleted"), citing("needs-review")], Layer.CANONICAL),
        (True, [citing(position=2, similarity=0.8)], Layer.RETRIEVAL),
        (True, [citing(position=1, similarity=0.1), citing()], Layer.RETRIEVAL),
        (True, [citing()], Layer.RETRIEVAL),
    ],
)
def test_a_lost_turn_is_blamed_on_the_first_layer_that_lost_it(captured, facts, layer):
    assert m.first_losing_layer(captured, facts) is layer


def asked(category: str, gold: tuple[str, ...], path: str, ranked: list[Ranked]) -> m.Asked:
    return m.Asked(category, gold, path, tuple(ranked), 1.0)


def test_category_rows_aggregate_per_category_and_overall():
    rows = m.category_rows(
        [
            asked("single-hop", ("D1:1",), "ANSWER", [fact("f1", "D1:1")]),
            asked("single-hop", ("D1:2",), "ANSWER", [raw("D1:2")]),
            asked("multi-hop", ("D1:1", "D1:2"), "ESCALATE", [fact("f1", "D1:1")]),
            asked("adversarial", ("D1:1",), "ANSWER", [fact("f1", "D1:1")]),
            asked("adversarial", ("D1:1",), "ESCALATE", [fact("f1", "D1:1")]),
        ],
        "adversarial",
    )
    assert rows["single-hop"]["recall@10"] == 1.0
    assert rows["single-hop"]["false_cache_hit_rate"] == 0.5
    assert rows["multi-hop"]["recall@10"] == 0.5
    assert rows["multi-hop"]["all_covered@10"] == 0.0
    assert rows["multi-hop"]["multi_evidence_n"] == 1
    assert rows["overall"]["n"] == 3
    assert rows["overall"]["recall@10"] == pytest.approx(2.5 / 3)
    assert rows["overall"]["escalation_rate"] == pytest.approx(1 / 3)
    assert rows["adversarial"] == {"n": 2, "abstention_rate": 0.5, "escalation_rate": 0.5}


def test_locomo_ids_are_split_unpadded_and_checked():
    known = {"D8:6", "D9:17", "D30:5"}
    assert normalize_ids(["D8:6; D9:17", "D30:05", "D99:1"], known) == ("D8:6", "D9:17", "D30:5")


def sample(**overrides: object) -> dict[str, object]:
    value: dict[str, object] = {
        "sample_id": "s1",
        "conversation": {
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"dia_id": "D1:1", "speaker": "A", "text": "I live in Oslo."}],
        },
        "qa": [
            {"question": "Where?", "evidence": ["D1:1"], "category": 4},
            {"question": "Unknown?", "evidence": ["D7:1"], "category": 4},
            {"question": "Trick?", "evidence": [], "category": 5},
        ],
    }
    return value | overrides


def test_questions_keep_resolvable_gold_and_every_adversarial_one():
    found = questions(sample())
    assert [(q.text, q.gold, q.label) for q in found] == [
        ("Where?", ("D1:1",), "single-hop"),
        ("Trick?", (), "adversarial"),
    ]


@pytest.mark.parametrize(
    ("broken", "field"),
    [
        ({"conversation": None}, "'conversation'"),
        ({"qa": [{"answer": "x"}]}, "qa[0]: missing field 'question'"),
        (
            {"conversation": {"session_1": [{"dia_id": "D1:1", "speaker": "A", "text": "x"}]}},
            "missing field 'session_1_date_time'",
        ),
        (
            {
                "conversation": {
                    "session_1_date_time": "1:56 pm on 8 May, 2023",
                    "session_1": [{"speaker": "A", "text": "x"}],
                }
            },
            "session_1[0]: missing field 'dia_id'",
        ),
    ],
)
def test_a_file_not_in_locomo_format_names_the_missing_field(tmp_path: Path, broken, field):
    item = sample(**broken)
    if broken.get("conversation", 1) is None:
        del item["conversation"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([item]))
    with pytest.raises(DatasetFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        load_samples(path)


def test_a_jsonl_turn_file_is_rejected_clearly(tmp_path: Path):
    path = tmp_path / "turns.jsonl"
    path.write_text('{"text": "hi"}\n{"text": "there"}\n')
    with pytest.raises(DatasetFormatError, match="not a LoCoMo JSON file"):
        load_samples(path)


def test_raw_bm25_ranks_the_turn_sharing_rare_terms_first():
    bm25 = RawBM25(["the cat sat", "I am allergic to peanuts", "the dog ran"])
    assert bm25.rank("what is she allergic to?", 2)[0] == 1


def report() -> EvaluationReport:
    row = m.category_rows([asked("single-hop", ("D1:1",), "ANSWER", [fact("f1", "D1:1")])], "x")
    return EvaluationReport(
        dataset="tiny.json",
        samples=1,
        turns=4,
        systems={"provmem": row, "bm25": row, "dense": row},
        store={
            "facts": 5,
            "status:active": 4,
            "status:needs-review": 1,
            "unsupported": 1,
            "grounded": 3,
            "duplicates": 1,
        },
        gate={"ADD": 4, "NOOP": 1, "advisor_calls": 0},
        write_ms_per_turn=2.5,
        llm_calls=0,
        updates={"n": 2, "successor_first": 1},
        misses=[Miss("s1", "Where?", "single-hop", "D1:2", "ev_1", "extraction", (), None)],
        seconds=1.0,
    )


def test_report_metrics_follow_their_definitions():
    metrics = report().metrics()
    assert metrics["memory"]["provenance_coverage"] == 0.75
    assert metrics["memory"]["unsupported_extraction_rate"] == 0.2
    assert metrics["memory"]["duplicate_memory_rate"] == 0.25
    assert metrics["gate"]["candidates"] == 5 and metrics["gate"]["merge_call_rate"] == 0.0
    assert metrics["write_cost"] == {
        "ms_per_turn": 2.5,
        "tokens_per_turn": 0,
        "llm_calls_per_turn": 0.0,
    }
    assert metrics["temporal_update"]["successor_first_rate"] == 0.5
    assert metrics["failures"]["by_layer"]["extraction"] == 1


def test_report_writes_json_markdown_and_plots(tmp_path: Path):
    built = report()
    built.write(tmp_path)
    assert json.loads((tmp_path / "report.json").read_text())["memory"]["active_facts"] == 4
    assert "| extraction | s1 | Where? | D1:2 | ev_1 |" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "recall_vs_tokens.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "failures_by_layer.png").stat().st_size > 1000
    assert "[" not in built.summary()  # printed through rich: no markup brackets
