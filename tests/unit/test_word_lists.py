"""The word lists in ``core/*/words/*.txt``: each read by a module, tidy, and loaded as
written (comments and blank lines skipped)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from provmem.core.language.wordlists import entries, word_list, word_sequence

CORE = Path(__file__).resolve().parents[2] / "core"
WORD_FILES = sorted(CORE.glob("*/words/*.txt"))
LOADERS = {word_list.__name__, word_sequence.__name__}


def _package(path: Path) -> str:
    return f"provmem.core.{path.parent.parent.name}"


def _lists_read() -> set[tuple[str, str]]:
    """(package, name) of every word list a core module loads."""
    read: set[tuple[str, str]] = set()
    for module in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in LOADERS:
                named = [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
                if len(named) == 2:  # the loader's own calls pass names through
                    read.add((named[0], named[1]))
    return read


def test_there_are_word_files() -> None:
    assert len(WORD_FILES) > 50


def test_every_word_file_is_read_by_a_module() -> None:
    read = _lists_read()
    orphans = [path for path in WORD_FILES if (_package(path), path.stem) not in read]
    assert orphans == []


def test_every_list_a_module_reads_has_its_file() -> None:
    missing = [
        (package, name)
        for package, name in _lists_read()
        if not (CORE / package.rsplit(".", 1)[1] / "words" / f"{name}.txt").is_file()
    ]
    assert missing == []


@pytest.mark.parametrize("path", WORD_FILES, ids=lambda path: path.stem)
def test_a_word_file_is_tidy(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    words = entries("\n".join(lines))
    assert lines[0].startswith("# ")  # what the list is for and who reads it
    assert all(line == line.strip() for line in lines)
    assert len(words) == len(set(words))
    assert all(words)


@pytest.mark.parametrize("path", WORD_FILES, ids=lambda path: path.stem)
def test_a_word_file_loads_its_entries(path: Path) -> None:
    loaded = word_sequence(_package(path), path.stem)
    assert loaded == entries(path.read_text(encoding="utf-8"))
    assert word_list(_package(path), path.stem) == frozenset(loaded)


def test_the_loader_skips_comments_and_blank_lines() -> None:
    text = "# what the list is for\nalpha\n\n  # an indented note\n  beta  \nGamma\n"
    assert entries(text) == ("alpha", "beta", "Gamma")


def test_entries_keep_their_case_and_order() -> None:
    months = word_sequence("provmem.core.language", "months")
    assert months[0] == "january" and months[-1] == "december"
    assert "What" in word_list("provmem.core.retrieval", "question_words")
