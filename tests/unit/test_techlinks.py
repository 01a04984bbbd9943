"""bench/techlinks: a link between two facts is gold, false or unlabelled by the gold items."""

from datetime import UTC, datetime

from bench.techlinks import fact_labels, gold_sentences, label_link, links, links_report
from provmem.core.events import Fact, SupportSpan
from provmem.core.scope import Scope

SCOPE = Scope.parse("org/tech-01/maya")
CONV = {
    "scope": SCOPE.key,
    "turns": [
        {"turn_id": "t:1", "text": "Hi. The suite has 40 tests. The image is 1GB."},
        {"turn_id": "t:2", "text": "We have 55 tests now."},
    ],
    "updates": [
        {"key": "tests", "original": {"turn_id": "t:1", "text": "The suite has 40 tests."},
         "updated": {"turn_id": "t:2", "text": "We have 55 tests now."}},
        {"key": "image", "original": {"turn_id": "t:1", "text": "The image is 1GB."},
         "updated": {"turn_id": "t:2", "text": "We have 55 tests now."}},
    ],
    "contradictions": [],
}  # fmt: skip


def _fact(fact_id: str, evidence: str, start: int, end: int, **links: object) -> Fact:
    return Fact(
        fact_id=fact_id, scope=SCOPE, statement=fact_id, evidence_ids=(evidence,),
        support=(SupportSpan(evidence_id=evidence, start=start, end=end),),
        extraction_version="t/1", last_verified_at=datetime(2026, 1, 1, tzinfo=UTC), version=1,
        **links,  # type: ignore[arg-type]
    )  # fmt: skip


def test_a_fact_is_labelled_by_the_gold_sentences_its_support_overlaps() -> None:
    sentences = gold_sentences(CONV)
    turn_of = {"e1": "t:1", "e2": "t:2"}
    assert fact_labels(_fact("a", "e1", 4, 27), turn_of, sentences) == {"update:tests"}
    assert fact_labels(_fact("b", "e1", 0, 3), turn_of, sentences) == set()


def test_links_are_counted_once_and_judged_by_their_labels() -> None:
    old = _fact("old", "e1", 28, 45, conflicts_with=("new",))
    new = _fact("new", "e2", 0, 21, supersedes="old", conflicts_with=("old",))
    assert len(links([old, new])) == 1
    report = links_report([CONV], {SCOPE.key: [old, new]}, {"e1": "t:1", "e2": "t:2"})
    assert (report["gold"], report["false"], report["unlabelled"]) == (1, 0, 0)
    assert label_link({"update:image"}, {"update:tests"}) == "false"
    assert label_link(set(), {"update:tests"}) == "unlabelled"
