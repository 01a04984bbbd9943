"""Byte-level residue scanning: find what an erasure removed, by keyed fingerprint only.

At erasure time the cascade records :class:`ErasedMarks`: keyed BLAKE2b-128 fingerprints
(under the deployment's audit key) of the erased ids (evidence ids, fact ids and the
vector points' uuids) and of the erased content's distinctive words and numbers, never
the plaintext. A scan tokenizes raw bytes (every byte of every file under the data
folder, WAL and free pages included; every Redis key and value under the deployment's
prefix; a Qdrant server's payloads; the log's retained records), fingerprints each
distinct token and reports the tokens that are marked, with where they were found.

What is marked: id-shaped tokens (``ev_``/``fact_`` + 32 hex digits, uuids); words of
at least :data:`MIN_WORD` characters that are not stopwords nor part of the stored
records' own vocabulary (field names, statuses); numbers (:func:`number_tokens`). Tokens
that live evidence of the scope still says are left out by the caller (they are no trace
of the erased turns).

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
chance, not a trace: base64 of a text holds none of its words. So is a short word
(:data:`SHORT_WORD`) amid binary bytes: it counts inside printable text only.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .log_reads import partition_records
from .sealed_log import raw_log

__all__ = [
    "SCHEME",
    "ErasedMarks",
    "Hit",
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

#: The fingerprint scheme of the marks (recorded with them).
SCHEME = "residue-blake2b-128/1"
MIN_WORD = 3
MIN_LONE_DIGITS = 6
MIN_GROUPED_DIGITS = 5
#: Base64 characters in a row from which a run is an encoded blob, not text.
MIN_ENCODED_RUN = 64
#: A word this short counts only inside MIN_TEXT_RUN printable bytes: random bytes
#: spell a 3-letter word a few times in 100 MB, and 37% of them are printable, so an
#: 8-byte run around it still comes by chance one time in 25, a 16-byte one in 10^5.
SHORT_WORD = 5
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
    folder = resources.files(f"{__package__}.models") / "bm25"
    words = (folder / "english.txt").read_text(encoding="utf-8").split()
    return frozenset(w.lower() for w in words) | frozenset(_STRUCTURE.split())


_IGNORED = _stopwords()


def _distinctive(token: str) -> bool:
    """A word worth marking (numbers: :func:`number_tokens`)."""
    return not token.isdigit() and len(token) >= MIN_WORD and token not in _IGNORED


def number_tokens(data: bytes) -> Iterator[tuple[tuple[int, int], bytes]]:
    """The numbers worth marking in bytes, as (where: start and end, their digits)."""
    for found in _NUMBER.finditer(data):
        if found.start() and data[found.start() - 1] in _WORDISH:
            continue
        digits = found.group().translate(None, _SEPARATORS)
        grouped = len(digits) < found.end() - found.start()
        if len(digits) >= (MIN_GROUPED_DIGITS if grouped else MIN_LONE_DIGITS):
            yield found.span(), digits


def content_tokens(texts: Iterable[str]) -> set[str]:
    """The distinctive words and numbers of texts, lower-cased, as a scan tokenizes them."""
    found: set[str] = set()
    for text in texts:
        raw = text.encode("utf-8")
        for word in raw.translate(_WORD_BYTES).split():
            token = word.decode("utf-8", "ignore").lower()
            if _distinctive(token):
                found.add(token)
        found.update(digits.decode("ascii") for _, digits in number_tokens(raw))
    return found


def id_tokens(item_ids: Iterable[str]) -> set[str]:
    """Ids as a scan meets them: the id itself and its vector point's uuid."""
    from .vector_points import point_id  # the vector layout names point ids

    ids = set(item_ids)
    return ids | {point_id(i) for i in ids}


@dataclass(frozen=True)
class ErasedMarks:
    """Keyed fingerprints of what one erasure removed (ids apart from words)."""

    ids: frozenset[str]
    words: frozenset[str]
    scheme: str = SCHEME

    def to_json(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "ids": sorted(self.ids), "words": sorted(self.words)}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ErasedMarks:
        if raw.get("scheme") != SCHEME:
            raise ValueError(f"residue marks: unknown scheme {raw.get('scheme')!r}")
        return cls(frozenset(raw["ids"]), frozenset(raw["words"]))


def marks_of(
    key: bytes, item_ids: Iterable[str], erased: Iterable[str], kept: Iterable[str]
) -> ErasedMarks:
    """Marks of erased ids and of the erased texts' tokens that no kept text says."""
    words = content_tokens(erased) - content_tokens(kept)
    return ErasedMarks(
        frozenset(mark(key, i) for i in id_tokens(item_ids)),
        frozenset(mark(key, w) for w in words),
    )


@dataclass(frozen=True)
class Hit:
    """A marked token found: where (file, Redis key, log record...), at which byte, which
    kind (``id`` or ``word``) and the fingerprint (never the token)."""

    location: str
    offset: int
    kind: str
    fingerprint: str


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
        if not token.isascii():  # the plane lower-cased ASCII letters only
            # Bytes that are no UTF-8 at its edges are its binary neighbours (a record
            # header byte); inside it they make it no word (random bytes around letters).
            text = token.decode("utf-8", "replace").strip("\ufffd")
            token = b"" if "\ufffd" in text else text.lower().encode("utf-8")
        hasher = self._keyed.copy()
        hasher.update(token)
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
        self.hits += found
        return found

    def scan_file(self, path: Path, label: str | None = None) -> list[Hit]:
        """Every byte of a file, in overlapping chunks (a file that vanished: nothing)."""
        location = label or str(path)
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

    def scan_folder(self, folder: Path) -> list[Hit]:
        """Every regular file under ``folder`` (named relative to it)."""
        found: list[Hit] = []
        for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
            found += self.scan_file(path, str(path.relative_to(folder)))
        return found

    async def scan_redis(self, client: Any, prefix: str) -> list[Hit]:
        """Every key under ``prefix:`` and its value, whatever its type."""
        found: list[Hit] = []
        async for key in client.scan_iter(match=f"{prefix}:*", count=500):
            name = key.decode("utf-8", "replace")
            found += self.scan_bytes(key, f"redis:{name}")
            for part in await _redis_values(client, key):
                found += self.scan_bytes(part, f"redis:{name}")
        return found

    async def scan_qdrant(self, client: Any, collection: str) -> list[Hit]:
        """Every point of a Qdrant server collection: its id and its payload."""
        found: list[Hit] = []
        offset = None
        while True:
            points, offset = await client.scroll(
                collection, limit=256, offset=offset, with_payload=True, with_vectors=False
            )
            for point in points:
                raw = json.dumps([str(point.id), point.payload]).encode()
                found += self.scan_bytes(raw, f"qdrant:{collection}/{point.id}")
            if offset is None:
                return found

    def scan_records(self, records: Iterable[tuple[str, bytes | None, bytes | None]]) -> list[Hit]:
        """Log records (location, key, value) that the log retains."""
        found: list[Hit] = []
        for location, key, value in records:
            for part in (key, value):
                if part:
                    found += self.scan_bytes(part, location)
        return found


_ZEROS = bytes(64 * 1024)


def _without_zero_tail(data: bytes) -> bytes:
    """The bytes without their trailing zeros: whole zero blocks are compared away first
    (a memcmp each, ten times faster than ``rstrip`` over a preallocated file's tail)."""
    end = len(data)
    while end >= len(_ZEROS) and data[end - len(_ZEROS) : end] == _ZEROS:
        end -= len(_ZEROS)
    return data[:end].rstrip(b"\x00")


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
    return end - start < SHORT_WORD and not _within_run(data, start, end, _PRINTABLE, MIN_TEXT_RUN)


def _within_run(data: bytes, start: int, end: int, kind: frozenset[int], length: int) -> bool:
    """Whether ``data[start:end]`` lies in a run of ``length`` bytes of ``kind``."""
    if not all(c in kind for c in data[start:end]):
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


async def _redis_values(client: Any, key: bytes) -> list[bytes]:
    kind = (await client.type(key)).decode()
    if kind == "string":
        return [await client.get(key) or b""]
    if kind == "hash":
        return [b for pair in (await client.hgetall(key)).items() for b in pair]
    if kind == "set":
        return list(await client.smembers(key))
    if kind == "zset":
        return [m for m, _ in await client.zrange(key, 0, -1, withscores=True)]
    if kind == "list":
        return list(await client.lrange(key, 0, -1))
    return [await client.dump(key) or b""]


async def log_records(
    log: Any, topics: Iterable[str], compacted: Iterable[str] = ()
) -> AsyncIterator[tuple[str, Any, Any]]:
    """What a log retains, as scan input: every record of every partition of the topics;
    of a ``compacted`` topic, what compaction keeps (each key's latest record: a Kafka
    broker's log cleaner drops the older ones on its own schedule). The records as they
    are at rest: under a :class:`~provmem.infra.sealed_log.SealedLog`, never opened."""
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
