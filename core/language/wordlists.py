"""Word lists read from data files: ``<package>/words/<name>.txt`` beside the code.

A file holds one entry per line; blank lines and lines opening with ``#`` are skipped,
every entry is taken as written (no case folding) and each file is read once. Reading a
package's own data is the only I/O here: the files ship inside the wheel.

    >>> "the" in word_list("provmem.core.language", "function_words")
    True
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

COMMENT = "#"


@cache
def word_sequence(package: str, name: str) -> tuple[str, ...]:
    """The entries of ``<package>/words/<name>.txt`` in file order (for lists whose order
    counts: months by number, suffixes tried in turn)."""
    text = files(package).joinpath("words", f"{name}.txt").read_text(encoding="utf-8")
    return entries(text)


@cache
def word_list(package: str, name: str) -> frozenset[str]:
    """The entries of ``<package>/words/<name>.txt`` as a set."""
    return frozenset(word_sequence(package, name))


def entries(text: str) -> tuple[str, ...]:
    """A word file's entries: stripped lines, less blanks and ``#`` comments."""
    lines = (line.strip() for line in text.splitlines())
    return tuple(line for line in lines if line and not line.startswith(COMMENT))
