"""The clause parser (infra/models/clause_parser.py) on spaCy's real English pipeline:
which commas join two main clauses, and what the default extractor then writes."""

import tempfile
from pathlib import Path

import pytest

from provmem import Memory
from provmem.config import Settings
from provmem.infra.models.clause_parser import SpacyClauseParser

SPLICES = [
    ("We bought the house last month, the closing took forever.", 1),
    ("I run 3 times a week, my longest run so far is 12 km.", 1),
    ("The lease ends in March, the landlord wants to raise the rent to $1,900.", 1),
    ("The lab switched to a new centrifuge, the old one kept overheating.", 1),
    ("I'm translating a novel from Portuguese, I'm at 40% after the first pass.", 1),
]
KEPT_TOGETHER = [
    "When I was young, I lived in Paris.",  # a subordinate opening
    "Since Gina lost her job, things have been tough.",
    "My sister, who lives in Boston, is a nurse.",  # a relative clause
    "Tara, Ana's sister, is based in Seattle.",  # an apposition
    "I love hiking, swimming, and biking.",  # a list
    "Honestly, I think it went well.",
    "If it rains, we will stay in.",
    "Thanks, that helps a lot.",  # no main clause before the comma
    "I'm determined to find the right spot - when I do, I'm sure the rest will follow!",
    "So, is that normal?",
    "If I move, should I sell the car?",
    # a question after a statement stays with it (measured on the blind split at stop 38:
    # more values read from questions, but more stale ones beside them; docs/benchmarks.md)
    "I've only sold 4 of the prints so far, is that normal?",
]


@pytest.mark.parametrize(("text", "count"), SPLICES)
def test_a_comma_between_two_main_clauses_is_a_break(text: str, count: int) -> None:
    breaks = SpacyClauseParser().comma_breaks(text)
    assert len(breaks) == count and all(text[b] == "," for b in breaks)


@pytest.mark.parametrize("text", KEPT_TOGETHER)
def test_a_comma_inside_one_clause_is_no_break(text: str) -> None:
    assert SpacyClauseParser().comma_breaks(text) == ()


def test_memory_writes_each_side_of_a_splice_as_its_own_fact(tmp_path: Path) -> None:
    """The default (``parse_clauses`` on) against the word rules alone, on the same turns."""
    turns = [text for text, _ in SPLICES[:4]]
    statements = {}
    for parse in (True, False):
        folder = Path(tempfile.mkdtemp(dir=tmp_path)) / "d"
        with Memory(settings=Settings(data_dir=folder, parse_clauses=parse)) as memory:
            for n, text in enumerate(turns):
                memory.add([{"role": "user", "content": text}], user_id="kim", session_id=f"s{n}")
            statements[parse] = {f.statement for f in memory.facts(user_id="kim")}
    assert "Kim's longest run so far is 12 km." in statements[True]
    assert "The landlord wants to raise the rent to $1,900." in statements[True]
    assert not [s for s in statements[True] if ", the " in s or ", Kim's" in s], statements[True]
    assert [s for s in statements[False] if ", the " in s or ", Kim's" in s]  # the rules alone
