"""Byte-level residue scanning: find what an erasure removed, by keyed fingerprint only.

At erasure time the cascade records :class:`ErasedMarks`: keyed BLAKE2b-128 fingerprints
(under the deployment's audit key) of the erased ids (evidence ids, fact ids and the
vector points' uuids) and of the erased content's distinctive words and numbers, never
the plaintext. A scan tokenizes raw bytes (every byte of every file under the data
folder, WAL and free pages included; every Redis key and value under the deployment's
prefix; a Qdrant server's payloads; the log's retained records), fingerprints each
distinct token and reports the tokens that are marked, with where they were found.

What is marked (scheme /2) is what only the erased content says, so that a hit means
content of the erased subject and nothing else: id-shaped tokens (``ev_``/``fact_`` + 32
hex digits, uuids); *rare words* of at least :data:`MIN_RARE` letters that no
:func:`dictionary` holds (a name like "Quetzalbrook", never "name" or "distance") and
*identifiers* mixing letters and digits; numbers (:func:`number_tokens`); and *spans*,
every run of :data:`SPAN` words of the erased text, whatever its words (a quote is found
whole or in part, in any spelling of its punctuation). Never marked: what the stores'
own files say (:class:`Common`: the words and spans of a baseline scan of a fresh data
folder of this version, its SQLite schema, vector-index config and records' field names)
and what live evidence of the scope still says (left out by the caller: no trace of the
erased turns). Scheme /1 (before) marked every word of 3+ characters that was no
stopword: its ledger entries are still audited with their marks.

A number is one token however it is written: digit groups joined by separators
("555-0142", "+1 (555) 010-7788", "12,500.00") are read as their digits alone, so a phone
number, an account number or an amount is found in any of its spellings. It is marked
only when it carries enough digits to be the content's and not the stores' own: a lone
digit run of at least :data:`MIN_LONE_DIGITS` digits, a grouped one of at least
:data:`MIN_GROUPED_DIGITS` in all. Shorter numbers (a vector size of 384, a revision
201, a count in a receipt, a year) are everywhere in configs and records and would be
found whatever was erased; a digit run touching a letter (inside a hex id, base64) is no
number. A scan counts a number only where it would have been marked, so a mark made from
a grouped amount is not met by a lone structural number with the same digits.

A word or number that seems to stand inside a long run of base64 characters
(:data:`MIN_ENCODED_RUN`: a sealed record's ciphertext, between its ``+`` and ``/``) is
chance, not a trace: base64 of a text holds none of its words. So is a word shorter
than :data:`SHORT_WORD` amid binary bytes (a vector file's floats): it counts inside
printable text only.

The scan of a data folder runs in a child process (infra/residue_apart.py): a process
holding SQLite connections never opens and closes their files (it would drop its locks).

This module is longer than most (~630 lines) on purpose: what is marked and what a scan
counts must agree token for token (the same tokenizer, dictionary, number and base64
rules), and kept apart they would drift; the folder, Redis, Qdrant and log readers only
feed bytes to the one scanner.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache, partial
from importlib import resources
from pathlib import Path
from typing import Any

from provmem.core.ports import HeldBytes
from provmem.infra.stores.sqlite_free import free_regions, is_database, mapped

__all__ = [
    "SCHEME",
    "scan_apart",
    "ErasedMarks",
    "Hit",
    "ResidueScanFailed",
    "ResidueScanner",
    "audit_key",
    "content_tokens",
    "id_tokens",
    "ledger_box",
    "log_records",
    "mark",
    "marks_of",
    "number_tokens",
]

#: The fingerprint scheme of the marks (recorded with them). /2: rare words, identifiers,
#: numbers and 3-word spans, never a dictionary word nor one of the stores' own.
SCHEME = "residue-blake2b-128/2"
#: /1: every word of 3+ characters that was no stopword (a ledger entry made so is still
#: audited with its marks).
LEGACY_SCHEME = "residue-blake2b-128/1"
MIN_WORD = 3
#: A single word is marked from this many letters, when no dictionary holds it.
MIN_RARE = 5
#: An identifier (letters and digits mixed, "inv2024x") is marked from this many.
MIN_IDENTIFIER = 6
#: Words in a span mark: a run this long of the erased text, whatever its words.
SPAN = 3
MIN_LONE_DIGITS = 6
MIN_GROUPED_DIGITS = 5
#: Base64 characters in a row from which a run is an encoded blob, not text.
MIN_ENCODED_RUN = 64
#: A word this short counts only inside MIN_TEXT_RUN printable bytes: random bytes
#: (a vector file's floats) spell a given 5-letter word about once in 30 GB, so a
#: folder of 100 MB and a hundred marks meets one one time in three; 37% of random
#: bytes are printable, so a 16-byte run around it comes by chance one time in 10^5.
#: From 8 letters a word is no chance anywhere (once in 10^19 bytes).
SHORT_WORD = 8
MIN_TEXT_RUN = 16
_CHUNK = 8 * 1024 * 1024
_OVERLAP = 4096  # longest token read whole across a chunk boundary


def _plane(keep: bytes) -> bytes:
    """A ``bytes.translate`` table: kept bytes lower-cased, every other byte a space."""
    return bytes((c | 0x20 if 65 <= c <= 90 else c) if c in keep else 32 for c in range(256))


_ALNUM = bytes(range(48, 58)) + bytes(range(65, 91)) + bytes(range(97, 123))
_WORD_BYTES = _plane(_ALNUM + bytes(range(0x80, 0x100)))
_ID_BYTES = _plane(_ALNUM + b"_-")
_ID = re.compile(
    rb"(?:ev|fact)_[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
)
# Digit groups joined by a separator ("555-0142", "12,500.00", "(555) 010"; not a list's
# ", "), the whole not touching a letter, a digit or a word byte (the byte before is
# checked by number_tokens: a lookbehind first would cost the regex its fast search for
# a first digit, five times slower over the long zero runs of preallocated files).
_NUMBER = re.compile(rb"[0-9][0-9]*+(?:(?:\) | \(|[-./,() ])[0-9]++)*+(?![0-9A-Za-z_\x80-\xff])")
_WORDISH = frozenset(_ALNUM + b"_" + bytes(range(0x80, 0x100)))
_SEPARATORS = b"-./,() "
_DIGITS = b"0123456789"
_BASE64 = frozenset(_ALNUM + b"+/=")
_PRINTABLE = frozenset(bytes(range(0x20, 0x7F)) + b"\t\n\r")
# Words every stored record carries whatever the content (field names, statuses, ops).
_STRUCTURE = """
schema version evidence scope org project user agent session source uri turn speaker
captured deletion content hash text key nonce ciphertext action say correct retract
approve reject target fact reason statement ids support start end entities slot value
negated valid from signals status active superseded deleted needs review confidence
supersedes extraction last verified change add noop update erase caused kind time
rules null true false none subject organization dense bm25 payload provmem seal sealed
deployment
"""


def audit_key(master_key: bytes) -> bytes:
    """The deployment's audit key: derived from the master key, used for nothing else."""
    return hashlib.blake2b(b"provmem-residue-audit", key=master_key, digest_size=32).digest()


def mark(key: bytes, token: str) -> str:
    """The keyed fingerprint of one token."""
    return hashlib.blake2b(token.encode("utf-8"), key=key, digest_size=16).hexdigest()


def _stopwords() -> frozenset[str]:
    folder = resources.files("provmem.infra.models") / "bm25"
    words = (folder / "english.txt").read_text(encoding="utf-8").split()
    return frozenset(w.lower() for w in words) | frozenset(_STRUCTURE.split())


_IGNORED = _stopwords()


@cache
def dictionary() -> frozenset[str]:
    """Common words: the whole words of the embedding model's vocabulary (the 22,501 of
    BERT's uncased WordPiece list: English words, common names and places), stopwords
    and the records' field names. A single word is marked only when it is none of them."""
    tokenizer = resources.files("provmem.infra.models") / "minilm" / "tokenizer.json"
    vocab = json.loads(tokenizer.read_text(encoding="utf-8"))["model"]["vocab"]
    return frozenset(w for w in vocab if w.isalpha()) | _IGNORED


def _distinctive(token: str) -> bool:
    """A word worth marking under the legacy scheme (numbers: :func:`number_tokens`)."""
    return not token.isdigit() and len(token) >= MIN_WORD and token not in _IGNORED


def _rare(token: str) -> bool:
    """A word worth marking alone: a rare word (a name no dictionary holds) or an
    identifier (letters and digits mixed). Numbers: :func:`number_tokens`."""
    if token.isalpha():
        return len(token) >= MIN_RARE and token not in dictionary()
    mixed = not token.isdigit() and any(c.isdigit() for c in token)
    return mixed and len(token) >= MIN_IDENTIFIER and token.isalnum()


def number_tokens(data: bytes) -> Iterator[tuple[tuple[int, int], bytes]]:
    """The numbers worth marking in bytes, as (where: start and end, their digits)."""
    for found in _NUMBER.finditer(data):
        if found.start() and data[found.start() - 1] in _WORDISH:
            continue
        digits = found.group().translate(None, _SEPARATORS)
        grouped = len(digits) < found.end() - found.start()
        if len(digits) >= (MIN_GROUPED_DIGITS if grouped else MIN_LONE_DIGITS):
            yield found.span(), digits


def text_tokens(text: str) -> list[str]:
    """The words of a text, lower-cased, as a scan tokenizes bytes (letters and digits;
    everything else separates)."""
    words = text.encode("utf-8").translate(_WORD_BYTES).split()
    return [w.decode("utf-8", "ignore").lower() for w in words]


def content_tokens(texts: Iterable[str], legacy: bool = False) -> set[str]:
    """The words and numbers of texts that are marked alone, lower-cased, as a scan
    tokenizes them: rare words, identifiers, numbers (``legacy``: every word of 3+
    characters that is no stopword, the scheme before)."""
    keep = _distinctive if legacy else _rare
    found: set[str] = set()
    for text in texts:
        found.update(token for token in text_tokens(text) if keep(token))
        raw = text.encode("utf-8")
        found.update(digits.decode("ascii") for _, digits in number_tokens(raw))
    return found


def content_spans(texts: Iterable[str]) -> set[str]:
    """Every run of :data:`SPAN` words of the texts (joined by a space)."""
    found: set[str] = set()
    for text in texts:
        tokens = text_tokens(text)
        found.update(" ".join(tokens[i : i + SPAN]) for i in range(len(tokens) - SPAN + 1))
    return found


def id_tokens(item_ids: Iterable[str]) -> set[str]:
    """Ids as a scan meets them: the id itself and its vector point's uuid."""
    from provmem.infra.vectors.points import point_id  # the vector layout names point ids

    ids = set(item_ids)
    return ids | {point_id(i) for i in ids}


@dataclass(frozen=True)
class Common:
    """What no mark may be, besides the :func:`dictionary`: the words and spans of the
    stores' own files (schema, config, vector-index files, records' field names), from
    a baseline scan of a fresh data folder of this version (streams/erasure/baseline.py)."""

    words: frozenset[str] = frozenset()
    spans: frozenset[str] = frozenset()

    @classmethod
    def of_texts(cls, texts: Iterable[str]) -> Common:
        texts = list(texts)
        words = {t for text in texts for t in text_tokens(text)}
        return cls(frozenset(words), frozenset(content_spans(texts)))

    @classmethod
    def of_bytes(cls, data: bytes) -> Common:
        """The words and spans of bytes as a scan tokenizes them."""
        tokens = [_normal(t) for t in _without_zero_tail(data).translate(_WORD_BYTES).split()]
        runs = (tokens[i : i + SPAN] for i in range(len(tokens) - SPAN + 1))
        spans = {" ".join(run) for run in runs if all(run)}
        return cls(frozenset(t for t in tokens if t), frozenset(spans))

    def __or__(self, other: Common) -> Common:
        return Common(self.words | other.words, self.spans | other.spans)


@dataclass(frozen=True)
class ErasedMarks:
    """Keyed fingerprints of what one erasure removed: ids, single words and numbers
    (``words``), runs of :data:`SPAN` words (``spans``)."""

    ids: frozenset[str]
    words: frozenset[str]
    spans: frozenset[str] = frozenset()
    span_words: frozenset[str] = frozenset()  # a scan's prefilter, never a hit alone
    scheme: str = SCHEME

    def to_json(self) -> dict[str, Any]:
        return {
            "scheme": self.scheme,
            "ids": sorted(self.ids),
            "words": sorted(self.words),
            "spans": sorted(self.spans),
            "span_words": sorted(self.span_words),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ErasedMarks:
        scheme = raw.get("scheme")
        if scheme not in (SCHEME, LEGACY_SCHEME):
            raise ValueError(f"residue marks: unknown scheme {scheme!r}")
        spans, span_words = frozenset(raw.get("spans", ())), frozenset(raw.get("span_words", ()))
        return cls(frozenset(raw["ids"]), frozenset(raw["words"]), spans, span_words, str(scheme))


def marks_of(
    key: bytes,
    item_ids: Iterable[str],
    erased: Iterable[str],
    kept: Iterable[str],
    common: Common = Common(),
) -> ErasedMarks:
    """Marks of erased ids and of the erased texts' distinctive words, numbers and
    spans that no kept text says and that are not ``common`` (the stores' own)."""
    erased, kept = list(erased), list(kept)
    words = content_tokens(erased) - content_tokens(kept) - common.words
    spans = content_spans(erased) - content_spans(kept) - common.spans
    return ErasedMarks(
        frozenset(mark(key, i) for i in id_tokens(item_ids)),
        frozenset(mark(key, w) for w in words),
        frozenset(mark(key, s) for s in spans),
        frozenset(mark(key, w) for s in spans for w in s.split(" ")),
    )


@dataclass(frozen=True)
class Hit:
    """A marked token found: where (file, Redis key, log record...), at which byte, which
    kind (``id``, ``word`` or ``span``) and the term's keyed fingerprint (never the term)."""

    location: str
    offset: int
    kind: str
    fingerprint: str

    @property
    def store(self) -> str:
        """The store the location belongs to (``log``, ``redis``, ``qdrant``; under the
        data folder: ``log_file``, ``views``, ``vector_index``, else ``files``)."""
        head = self.location.split(":", 1)[0]
        if head in ("log", "redis", "qdrant") and ":" in self.location:
            return head
        first = Path(self.location).parts[0] if self.location else ""
        if first.startswith("log.db"):
            return "log_file"
        if first.startswith("views"):
            return "views"
        return "vector_index" if first.startswith("vectors") else "files"

    def to_json(self) -> dict[str, Any]:
        """What a report shows: store, location, offset, kind and the term's fingerprint."""
        return {"store": self.store, "location": self.location, "offset": self.offset,
                "kind": self.kind, "term": self.fingerprint}  # fmt: skip


@dataclass
class ResidueScanner:
    """Scans bytes for the marks of one erasure."""

    key: bytes
    marks: ErasedMarks
    hits: list[Hit] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._keyed = hashlib.blake2b(key=self.key, digest_size=16)

    def _mark(self, token: bytes) -> str:
        """:func:`mark` of a scanned token; the keyed state is set up once per scanner,
        not once per token (a scan hashes every distinct token of the bytes)."""
        hasher = self._keyed.copy()
        hasher.update(token if token.isascii() else _normal(token).encode("utf-8"))
        return hasher.hexdigest()

    def scan_bytes(self, data: bytes, location: str, base: int = 0) -> list[Hit]:
        """Hits in one buffer (``base``: the buffer's offset in its file). Bytes are mapped
        to lower-case token bytes or spaces in one C pass (``bytes.translate``), so a scan
        runs at memory speed; a zero tail (most of a preallocated file) is not scanned."""
        data = _without_zero_tail(data)
        words, ids = data.translate(_WORD_BYTES), data.translate(_ID_BYTES)
        numbers: dict[bytes, list[tuple[int, int]]] = {}
        for span, digits in number_tokens(data):
            numbers.setdefault(digits, []).append(span)
        # a word-plane token that can be a marked word (cheap: before it is hashed)
        candidates = {t for t in set(words.split()) if len(t) >= MIN_WORD and not t.isdigit()}
        found = []
        for kind, tokens, where in (
            ("word", candidates, partial(_places, words)),
            ("word", numbers.keys(), numbers.__getitem__),
            ("id", _ids(ids), lambda t: [(ids.find(t), 0)]),
        ):
            wanted = self.marks.ids if kind == "id" else self.marks.words
            for token in tokens:
                if (print_ := self._mark(token)) not in wanted:
                    continue
                places = [p for p in where(token) if kind == "id" or not _by_chance(data, *p)]
                if places:
                    found.append(Hit(location, base + places[0][0], kind, print_))
        found += self._span_hits(data, location, base)
        self.hits += found
        return found

    def _span_hits(self, data: bytes, location: str, base: int) -> list[Hit]:
        """Runs of :data:`SPAN` words: only where every word is one a span mark holds
        (``span_words``, a keyed prefilter: a common word alone is never a hit), each
        distinct run hashed once."""
        if not self.marks.spans:
            return []
        plane = data.translate(_WORD_BYTES)
        tokens = plane.split()
        wanted = {t for t in set(tokens) if self._mark(t) in self.marks.span_words}
        found: dict[str, Hit] = {}
        seen: set[bytes] = set()
        for i in range(len(tokens) - SPAN + 1):
            run = tokens[i : i + SPAN]
            if not all(t in wanted for t in run) or (span := b" ".join(run)) in seen:
                continue
            seen.add(span)
            if (print_ := self._mark(span)) in self.marks.spans and print_ not in found:
                found[print_] = Hit(location, base + _offset(plane, run), "span", print_)
        return list(found.values())

    def scan_folder(
        self,
        folder: Path,
        suffixes: tuple[str, ...] = (),
        skip: tuple[str, ...] = (),
        free_only: bool = False,
    ) -> list[Hit]:
        """Every regular file under ``folder`` (named relative to it; ``suffixes``: only the
        files whose names end so; ``skip``: not what lies under these entries of the
        folder; ``free_only``: of a SQLite database file, its free space only), read by a
        child process (infra/residue_apart.py): this process may hold SQLite connections
        to them, and closing any descriptor of a database file would drop its POSIX locks
        on it."""
        found = scan_apart(self.key, self.marks, folder, suffixes, skip, free_only)
        self.hits += found
        return found

    def scan_folder_here(
        self,
        folder: Path,
        suffixes: tuple[str, ...] = (),
        skip: tuple[str, ...] = (),
        free_only: bool = False,
    ) -> list[Hit]:
        """:meth:`scan_folder` in this process: only in one that holds no connection to a
        database under ``folder`` (the child of :meth:`scan_folder`)."""
        found: list[Hit] = []
        for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
            location = path.relative_to(folder)
            if location.parts[0] in skip:
                continue
            if suffixes and not path.name.endswith(suffixes):
                continue
            if free_only and is_database(path):
                found += self._scan_free(path, str(location))
            else:
                found += self._scan_file(path, str(location))
        return found

    def _scan_free(self, path: Path, location: str) -> list[Hit]:
        """The free space of a SQLite database file (infra/stores/sqlite_free.py)."""
        data = mapped(path)
        if data is None:
            return []
        found: dict[tuple[str, str], Hit] = {}
        try:
            for base, region in free_regions(data):
                for hit in self.scan_bytes(region, location, base):
                    found.setdefault((hit.kind, hit.fingerprint), hit)
        finally:
            data.close()
        return list(found.values())

    def _scan_file(self, path: Path, location: str) -> list[Hit]:
        """Every byte of a file, in overlapping chunks (a file that vanished: nothing)."""
        found: dict[tuple[str, str], Hit] = {}
        try:
            with path.open("rb") as handle:
                for base, chunk in _chunks(handle):
                    for hit in self.scan_bytes(chunk, location, base):
                        found.setdefault((hit.kind, hit.fingerprint), hit)
        except (FileNotFoundError, IsADirectoryError):
            return []
        self.hits = [h for h in self.hits if h.location != location] + list(found.values())
        return list(found.values())

    async def scan_held(self, store: HeldBytes) -> list[Hit]:
        """Everything a store outside the data folder holds (a Redis namespace, a Qdrant
        server's collection), read through its process's own client."""
        found: list[Hit] = []
        async for location, data in store.held_bytes():
            found += self.scan_bytes(data, location)
        return found

    def scan_records(self, records: Iterable[tuple[str, bytes | None, bytes | None]]) -> list[Hit]:
        """Log records (location, key, value) that the log retains."""
        found: list[Hit] = []
        for location, key, value in records:
            for part in (key, value):
                if part:
                    found += self.scan_bytes(part, location)
        return found


#: The module a child process runs to scan a folder (infra/residue_apart.py).
_APART = "provmem.infra.residue_apart"


class ResidueScanFailed(RuntimeError):
    """The child process of a byte scan did not finish its scan."""


def scan_apart(
    key: bytes,
    marks: ErasedMarks,
    folder: Path,
    suffixes: tuple[str, ...] = (),
    skip: tuple[str, ...] = (),
    free_only: bool = False,
) -> list[Hit]:
    """The hits of ``marks`` in the files under ``folder`` (but ``skip``: entries of it),
    read by a child process."""
    request = {
        "key": key.hex(),
        "marks": marks.to_json(),
        "folder": str(folder),
        "suffixes": list(suffixes),
        "skip": list(skip),
        "free_only": free_only,
    }
    done = subprocess.run(  # noqa: S603 - this interpreter, this module, no shell
        [sys.executable, "-P", "-m", _APART],  # -P: no folder of cwd shadows provmem
        input=json.dumps(request).encode("utf-8"),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        raise ResidueScanFailed(
            f"the byte scan of {folder} stopped (exit {done.returncode}): "
            f"{reason[0] if reason else 'no message'}"
        )
    return [Hit(**hit) for hit in json.loads(done.stdout)]


_ZEROS = bytes(64 * 1024)


def _without_zero_tail(data: bytes) -> bytes:
    """The bytes without their trailing zeros: whole zero blocks are compared away first
    (a memcmp each, ten times faster than ``rstrip`` over a preallocated file's tail)."""
    end = len(data)
    while end >= len(_ZEROS) and data[end - len(_ZEROS) : end] == _ZEROS:
        end -= len(_ZEROS)
    return data[:end].rstrip(b"\x00")


def _normal(token: bytes) -> str:
    """A scanned token as a mark is made of it: the plane lower-cased ASCII letters only;
    bytes that are no UTF-8 at its edges are its binary neighbours (a record header
    byte), and inside it they make it no word (random bytes around letters): ``""``."""
    if token.isascii():
        return token.decode("ascii")
    text = token.decode("utf-8", "replace").strip("\ufffd")
    return "" if "\ufffd" in text else text.lower()


def _offset(plane: bytes, run: list[bytes]) -> int:
    """Where a run of tokens first stands in a plane (found again only for a hit)."""
    pattern = rb"(?<![^ ])" + rb" +".join(re.escape(t) for t in run) + rb"(?![^ ])"
    found = re.search(pattern, plane)
    return found.start() if found else 0


def _ids(plane: bytes) -> set[bytes]:
    """The distinct id-shaped tokens of an id plane."""
    return {i for t in set(plane.split()) if b"_" in t or b"-" in t for i in _ID.findall(t)}


def _places(plane: bytes, token: bytes) -> Iterator[tuple[int, int]]:
    """Where a token stands in a plane (start, end): whole, not inside a longer token."""
    start = plane.find(token)
    while start >= 0:
        end = start + len(token)
        if (start == 0 or plane[start - 1] == 32) and (end == len(plane) or plane[end] == 32):
            yield start, end
        start = plane.find(token, end)


def _by_chance(data: bytes, start: int, end: int) -> bool:
    """Whether a word or number found at ``data[start:end]`` is one random bytes make:
    inside a run of base64 characters that no text makes (:data:`MIN_ENCODED_RUN`: a
    sealed record's ciphertext, any encoded blob; base64 of a text holds none of its
    words), or a short word (:data:`SHORT_WORD`) amid binary bytes (a vector's floats),
    not inside :data:`MIN_TEXT_RUN` printable bytes (a field, a line)."""
    if _within_run(data, start, end, _BASE64, MIN_ENCODED_RUN):
        return True
    if not data[start:end].translate(None, _DIGITS + _SEPARATORS):
        return False  # a number: random bytes spell a given 5+ digits once in 10^12 bytes
    in_text = _within_run(data, start, end, _PRINTABLE, MIN_TEXT_RUN, whole=False)
    return end - start < SHORT_WORD and not in_text


def _within_run(
    data: bytes, start: int, end: int, kind: frozenset[int], length: int, whole: bool = True
) -> bool:
    """Whether ``data[start:end]`` lies in a run of ``length`` bytes of ``kind`` (``whole``
    False: its own bytes may be others, a word's UTF-8 letters)."""
    if whole and not all(c in kind for c in data[start:end]):
        return False
    left, right = start, end
    while left > 0 and data[left - 1] in kind and right - left < length:
        left -= 1
    while right < len(data) and data[right] in kind and right - left < length:
        right += 1
    return right - left >= length


def _chunks(handle: Any) -> Iterator[tuple[int, bytes]]:
    """Chunks of a file that overlap by :data:`_OVERLAP` bytes, with their offsets."""
    base = 0
    while data := handle.read(_CHUNK + _OVERLAP):
        yield base, data
        if len(data) < _CHUNK + _OVERLAP:
            return
        base += _CHUNK
        handle.seek(base)


async def log_records(
    log: Any, topics: Iterable[str], compacted: Iterable[str] = ()
) -> AsyncIterator[tuple[str, Any, Any]]:
    """What a log retains, as scan input: every record of every partition of the topics;
    of a ``compacted`` topic, what compaction keeps (each key's latest record: a Kafka
    broker's log cleaner drops the older ones on its own schedule). The records as they
    are at rest: under a :class:`~provmem.infra.log.sealed.SealedLog`, never opened."""
    from provmem.infra.log.reads import partition_records
    from provmem.infra.log.sealed import raw_log

    log = raw_log(log)
    latest_only = set(compacted)
    for topic in topics:
        for partition in range(await log.partitions(topic)):
            records = [r async for r in partition_records(log, topic, partition)]
            if topic in latest_only:
                last = {r.key: r.offset for r in records if r.key is not None}
                records = [r for r in records if r.key is None or last[r.key] == r.offset]
            for record in records:
                yield f"log:{topic}[{partition}]@{record.offset}", record.key, record.value


_SEALED = "sealed:"


def ledger_box(key: bytes) -> tuple[Callable[[object], str], Callable[[Any], Any]]:
    """Seal and open the ledger's ids and scope under a key derived from the audit key
    (AES-256-GCM, JSON inside): the ledger is at rest too. Open returns an entry written
    before sealing as it is."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    aead = AESGCM(hashlib.blake2b(b"provmem-ledger", key=key, digest_size=32).digest())

    def seal(value: object) -> str:
        nonce = os.urandom(12)
        sealed = aead.encrypt(nonce, json.dumps(value).encode("utf-8"), b"ledger")
        return _SEALED + base64.b64encode(nonce + sealed).decode("ascii")

    def open_(value: Any) -> Any:
        if not (isinstance(value, str) and value.startswith(_SEALED)):
            return value
        raw = base64.b64decode(value[len(_SEALED) :])
        return json.loads(aead.decrypt(raw[:12], raw[12:], b"ledger"))

    return seal, open_
