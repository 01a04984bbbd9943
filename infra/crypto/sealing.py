"""Sealing of derived data at rest: view bodies, index tags, keyed term ids.

The views (SQLite, Redis) and the vector index keep no personal plaintext. Each adapter
takes a :class:`ViewSealer` and stores:

- bodies (a fact and its history versions, an evidence record) sealed under the
  subject's data key (:meth:`EvidenceSealer.seal_blob`): crypto-shredded with the key;
- index keys that name people or things (entities, slots) as tags: a keyed hash under a
  key derived from the subject's data key, so after shredding nothing links them;
- the vector index's scope filter as a tag under a key derived from the master key (an
  erasure deletes a scope's points by it, also after the subject key is gone).

Without a sealer (``None``) the adapters store plaintext (unit and contract tests of the
adapters' own behaviour; every runtime wires one).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import structlog

from provmem.core.events import Fact, TurnRecorded
from provmem.core.ports import BulkStateStore
from provmem.infra.crypto.envelope import EvidenceSealer, MissingDataKeyError
from provmem.infra.log.record_keys import KeyPrint, RecordKeys

__all__ = ["Bodies", "SealedGateState", "ViewSealer"]

_log = structlog.get_logger(__name__)
_TAGS = "index-tags"
_SCOPES = "index-scopes"


class ViewSealer:
    """What the view and index adapters seal with (one per process, keys cached)."""

    def __init__(self, sealer: EvidenceSealer) -> None:
        self._sealer = sealer
        self._scope_key = sealer.deployment_secret(_SCOPES)
        self._keys = RecordKeys(sealer)

    async def seal(self, scope_key: str, plain: str) -> str:
        return await self._sealer.seal_blob(scope_key, plain)

    async def seal_log(self, scope_key: str, plain: str) -> str:
        """Sealed under the subject's current log key (the gate state, whose changelog is
        a topic on Kafka: infra/crypto/log_keys.py), as a blob like :meth:`seal`."""
        return await self._sealer.seal_log_bytes(scope_key, plain.encode("utf-8"))

    async def open(self, stored: str | bytes) -> str | None:
        """The plaintext of a stored body; None when its subject was crypto-shredded."""
        text = stored.decode("utf-8") if isinstance(stored, bytes) else stored
        try:
            return await self._sealer.open_blob(text)
        except MissingDataKeyError:
            _log.warning("sealing.shredded_body")
            return None

    async def tag(self, scope_key: str, kind: str, value: str) -> str:
        """A keyed tag of an index value of the subject (an entity, a slot)."""
        key = await self.tag_key(scope_key)
        return _hex(key, f"{kind}\x1f{value}")

    async def tags(self, scope_key: str, kind: str, values: Iterable[str]) -> list[str]:
        key = await self.tag_key(scope_key)
        return [_hex(key, f"{kind}\x1f{value}") for value in values]

    async def tag_key(self, scope_key: str) -> bytes:
        """The subject's tag key (derived from its data key, which the sealer caches)."""
        return await self._sealer.subject_secret(scope_key, _TAGS)

    async def term_key(self, scope_key: str) -> bytes:
        """The subject's BM25 term key (infra/models/sparse.py: ``keyed_terms``)."""
        return await self._sealer.subject_secret(scope_key, "bm25-terms")

    async def key_printer(self) -> KeyPrint:
        """The keyed fingerprint of an id in a state key (the log's record keys' own)."""
        return await self._keys.printer()

    def scope_tag(self, scope_key: str) -> str:
        """The scope as the vector index's filter key (keyed by the deployment)."""
        return "sc_" + _hex(self._scope_key, scope_key)


def _hex(key: bytes, value: str) -> str:
    return hmac.new(key, value.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


class Bodies:
    """What a view adapter stores for a body or an index value: sealed and tagged with a
    :class:`ViewSealer`, plaintext without one."""

    def __init__(self, sealer: ViewSealer | None) -> None:
        self.sealer = sealer

    async def seal(self, scope_key: str, plain: str) -> str:
        return plain if self.sealer is None else await self.sealer.seal(scope_key, plain)

    async def open(self, stored: str | bytes) -> str | None:
        if self.sealer is None:
            return stored.decode("utf-8") if isinstance(stored, bytes) else stored
        return await self.sealer.open(stored)

    async def fact(self, stored: str | bytes) -> Fact | None:
        plain = await self.open(stored)
        return None if plain is None else Fact.model_validate_json(plain)

    async def turn(self, stored: str | bytes) -> TurnRecorded | None:
        plain = await self.open(stored)
        return None if plain is None else TurnRecorded.model_validate_json(plain)

    async def tags(self, scope_key: str, kind: str, values: Iterable[str]) -> list[str]:
        if self.sealer is None:
            return list(values)
        return await self.sealer.tags(scope_key, kind, values)

    async def tag(self, scope_key: str, kind: str, value: str) -> str:
        return (await self.tags(scope_key, kind, [value]))[0]


_GATE, _FACT = "gate|", "|fact|"


class SealedGateState:
    """A :class:`StateStore` of the gate's records, sealed and keyed at rest.

    - A fact record (a fact with its vector, ``…gate|<scope>|fact|<id>``) is sealed under
      the subject's log key (infra/crypto/log_keys.py: on Kafka this state is a changelog
      topic), keeping the fact's version and scope readable
      (``{"fact": {"version", "scope"}, "sealed": …}``), so a store's JSON field
      extraction (``load_fields_many``: a subject erasure reads versions only) still works
      without opening anything.
    - A scope's index (``…gate|<scope>|index``: its fact ids) is sealed under the
      subject's log key too (``{"index": 1, "sealed": …}``); an empty one (a subject
      erasure writes it after the key is gone) stays as it is.
    - The id in a fact record's or a ``seen`` mark's key is a keyed fingerprint
      (infra/log/record_keys.py): on Kafka the table's changelog keeps each key, a deleted
      one as a tombstone. A key stored raw (an older store) is still read and deleted.

    Other records (the erasure ledger) pass through."""

    def __init__(self, inner: BulkStateStore, sealer: ViewSealer) -> None:
        self.inner = inner
        self._sealer = sealer

    async def load(self, key: str) -> bytes | None:
        for stored in await self._forms(key):
            raw = await self.inner.load(stored)
            if raw is not None:
                return await self._open(raw)
        return None

    async def save(self, key: str, value: bytes) -> None:
        forms = await self._forms(key)
        await self.inner.save(forms[0], await self._seal(key, value))

    async def delete(self, key: str) -> None:
        for stored in await self._forms(key):
            await self.inner.delete(stored)

    async def load_many(self, keys: Sequence[str]) -> dict[str, bytes]:
        found = await self._many(keys, self.inner.load_many)
        opened = {key: await self._open(raw) for key, raw in found.items()}
        return {key: raw for key, raw in opened.items() if raw is not None}

    async def load_fields_many(
        self, keys: Sequence[str], paths: Sequence[str]
    ) -> dict[str, tuple[object, ...]]:
        """Fields of the visible part (``$.fact.version``, ``$.fact.scope``)."""

        async def read(stored: Sequence[str]) -> dict[str, tuple[object, ...]]:
            return await self.inner.load_fields_many(stored, paths)

        return await self._many(keys, read)

    async def replace_many(self, deletes: Sequence[str], saves: Mapping[str, bytes]) -> None:
        """In one transaction where the inner store can (infra/stores/bulk_state.py: else one
        key at a time); a deleted key goes in both its forms."""
        gone = [stored for key in deletes for stored in await self._forms(key)]
        sealed = {
            (await self._forms(key))[0]: await self._seal(key, value)
            for key, value in saves.items()
        }
        await self.inner.replace_many(gone, sealed)

    async def keys_with_prefix(self, prefix: str) -> list[str]:
        """The keys as stored (keyed ids)."""
        found: list[str] = await self.inner.keys_with_prefix(prefix)  # type: ignore[attr-defined]
        return found

    async def _many(
        self, keys: Sequence[str], read: Callable[[Sequence[str]], Awaitable[dict[str, _V]]]
    ) -> dict[str, _V]:
        """A bulk read of ``keys``: keyed forms first, then the raw ones not found."""
        forms = {key: await self._forms(key) for key in keys}
        keyed = {f[0]: key for key, f in forms.items()}
        found = {keyed[s]: value for s, value in (await read(list(keyed))).items()}
        older = {f[1]: key for key, f in forms.items() if len(f) > 1 and key not in found}
        if older:
            found.update({older[s]: value for s, value in (await read(list(older))).items()})
        return found

    async def _forms(self, key: str) -> tuple[str, ...]:
        """The key as stored (its id keyed), then as an older store kept it (raw)."""
        if _GATE not in key:
            return (key,)
        head, kind, item = key.rsplit("|", 2) if key.count("|") >= 3 else (key, "", "")
        if kind not in _KEYED_KINDS or not item or item.startswith(_KEYED):
            return (key,)
        printer = await self._sealer.key_printer()
        return (f"{head}|{kind}|{printer(item).decode('ascii')}", key)

    async def _seal(self, key: str, value: bytes) -> bytes:
        if _GATE in key and key.endswith(_INDEX):
            return await self._seal_index(key, value)
        if _GATE not in key or _FACT not in key:
            return value
        fact = json.loads(value)["fact"]
        visible = {"version": fact["version"], "scope": fact["scope"]}
        sealed = await self._sealer.seal_log(_scope_of(key), value.decode("utf-8"))
        return json.dumps({"fact": visible, "sealed": sealed}).encode("utf-8")

    async def _seal_index(self, key: str, value: bytes) -> bytes:
        if not json.loads(value).get("facts"):
            return value  # names no fact (a cleared scope: its key may be gone)
        sealed = await self._sealer.seal_log(_scope_of(key), value.decode("utf-8"))
        return json.dumps({"index": 1, "sealed": sealed}).encode("utf-8")

    async def _open(self, raw: bytes | None) -> bytes | None:
        if raw is None or not raw.startswith((b'{"fact"', b'{"index"')):
            return raw
        if b'"sealed"' not in raw:
            return raw
        plain = await self._sealer.open(json.loads(raw)["sealed"])
        return None if plain is None else plain.encode("utf-8")


_V = TypeVar("_V")
_KEYED_KINDS = ("fact", "seen")
_KEYED = "rk1_"
_INDEX = "|index"


def _scope_of(key: str) -> str:
    return key.split(_GATE, 1)[1].split("|", 1)[0]
