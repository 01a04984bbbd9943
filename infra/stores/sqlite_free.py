"""The free space of a SQLite database file: where a deleted row's bytes can stay.

secure_delete zeroes a deleted cell, but a page rebalance can leave a stale copy of a cell
in a page's unallocated space, its freeblocks or a page put on the freelist
(sqlite.org/fileformat2.html: 1.3 the database header, 1.4 the freelist, 1.6 b-tree
pages). :func:`free_regions` yields those regions, not zero, so a scan for an erasure's
marks reads only them (a live row is found by the audit's own reads, and no rewrite of
the file would remove it), at the cost of reading the file, not of tokenizing it.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from pathlib import Path

__all__ = ["free_regions", "is_database", "mapped"]

MAGIC = b"SQLite format 3\x00"
_LEAF = {10: 8, 13: 8}  # b-tree page types and their header sizes
_INTERIOR = {2: 12, 5: 12}


def mapped(path: Path) -> mmap.mmap | None:
    """The file read-only in memory (None: empty or gone); the caller closes it."""
    try:
        with path.open("rb") as handle:
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None


def is_database(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def free_regions(data: bytes | mmap.mmap) -> Iterator[tuple[int, bytes]]:
    """(offset, bytes) of each free region of the database ``data`` holding a non-zero
    byte: whole freelist pages, and each b-tree page's unallocated space and freeblocks."""
    size = int.from_bytes(data[16:18], "big")
    size = 65536 if size == 1 else size
    free = _freelist(data, size)
    for number in range(1, len(data) // size + 1):
        start = (number - 1) * size
        page = data[start : start + size]
        regions = [(0, page)] if number in free else _page_free(page, 100 if number == 1 else 0)
        for offset, region in regions:
            if region.strip(b"\x00"):
                yield start + offset, region


def _freelist(data: bytes | mmap.mmap, size: int) -> set[int]:
    """The page numbers on the freelist: its trunk pages and the leaves they list."""
    pages: set[int] = set()
    trunk = int.from_bytes(data[32:36], "big")
    while trunk and trunk not in pages and trunk * size <= len(data):
        pages.add(trunk)
        at = (trunk - 1) * size
        count = int.from_bytes(data[at + 4 : at + 8], "big")
        for i in range(min(count, size // 4 - 2)):
            pages.add(int.from_bytes(data[at + 8 + 4 * i : at + 12 + 4 * i], "big"))
        trunk = int.from_bytes(data[at : at + 4], "big")
    return pages


def _page_free(page: bytes, header_at: int) -> list[tuple[int, bytes]]:
    """A b-tree page's unallocated space and freeblocks (nothing of another page)."""
    kind = page[header_at] if header_at < len(page) else 0
    header = _LEAF.get(kind) or _INTERIOR.get(kind)
    if header is None:
        return []  # an overflow page or a pointer-map page: live content or none
    cells = int.from_bytes(page[header_at + 3 : header_at + 5], "big")
    content = int.from_bytes(page[header_at + 5 : header_at + 7], "big") or 65536
    gap_at = header_at + header + 2 * cells
    regions = [(gap_at, page[gap_at:content])] if gap_at < content else []
    block = int.from_bytes(page[header_at + 1 : header_at + 3], "big")
    seen: set[int] = set()
    while block and block not in seen and block + 4 <= len(page):
        seen.add(block)
        length = int.from_bytes(page[block + 2 : block + 4], "big")
        regions.append((block, page[block : block + length]))
        block = int.from_bytes(page[block : block + 2], "big")
    return regions
