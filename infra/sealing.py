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
from collections.abc import Iterable, Mapping, Sequence

import structlog

from ..core.events import Fact, TurnRecorded
from ..core.ports import BulkStateStore
from .crypto import EvidenceSealer, MissingDataKeyError

__all__ = ["Bodies", "SealedGateState", "ViewSealer"]

_log = structlog.get_logger(__name__)
_TAGS = "index-tags"
_SCOPES = "index-scopes"


class ViewSealer:
    """What the view and index adapters seal with (one per process, keys cached)."""

    def __init__(self, sealer: EvidenceSealer) -> None:
        self._sealer = sealer
        self._scope_key = sealer.deployment_secret(_SCOPES)

    async def seal(self, scope_key: str, plain: str) -> str:
        return await self._sealer.seal_blob(scope_key, plain)

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
        """The subject's BM25 term key (infra/sparse.py: ``keyed_terms``)."""
        return await self._sealer.subject_secret(scope_key, "bm25-terms")

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
    """A :class:`StateStore` whose gate fact records (a fact with its vector, keys
    ``…gate|<scope>|fact|<id>``) are sealed under the subject's data key. A sealed record
    keeps the fact's version and scope readable (``{"fact": {"version", "scope"},
    "sealed": …}``), so a store's JSON field extraction (``load_fields_many``: a subject
    erasure reads versions only) still works without opening anything. Other records
    (indexes of fact ids, ``seen`` marks, the erasure ledger) pass through."""

    def __init__(self, inner: BulkStateStore, sealer: ViewSealer) -> None:
        self.inner = inner
        self._sealer = sealer

    async def load(self, key: str) -> bytes | None:
        return await self._open(await self.inner.load(key))

    async def save(self, key: str, value: bytes) -> None:
        await self.inner.save(key, await self._seal(key, value))

    async def delete(self, key: str) -> None:
        await self.inner.delete(key)

    async def load_many(self, keys: Sequence[str]) -> dict[str, bytes]:
        found = await self.inner.load_many(keys)
        opened = {key: await self._open(raw) for key, raw in found.items()}
        return {key: raw for key, raw in opened.items() if raw is not None}

    async def load_fields_many(
        self, keys: Sequence[str], paths: Sequence[str]
    ) -> dict[str, tuple[object, ...]]:
        """Fields of the visible part (``$.fact.version``, ``$.fact.scope``)."""
        return await self.inner.load_fields_many(keys, paths)

    async def replace_many(self, deletes: Sequence[str], saves: Mapping[str, bytes]) -> None:
        """In one transaction where the inner store can (infra/bulk_state.py: else one
        key at a time)."""
        sealed = {key: await self._seal(key, value) for key, value in saves.items()}
        await self.inner.replace_many(deletes, sealed)

    async def keys_with_prefix(self, prefix: str) -> list[str]:
        found: list[str] = await self.inner.keys_with_prefix(prefix)  # type: ignore[attr-defined]
        return found

    async def _seal(self, key: str, value: bytes) -> bytes:
        if _GATE not in key or _FACT not in key:
            return value
        scope_key = key.split(_GATE, 1)[1].split("|", 1)[0]
        fact = json.loads(value)["fact"]
        visible = {"version": fact["version"], "scope": fact["scope"]}
        sealed = await self._sealer.seal(scope_key, value.decode("utf-8"))
        return json.dumps({"fact": visible, "sealed": sealed}).encode("utf-8")

    async def _open(self, raw: bytes | None) -> bytes | None:
        if raw is None or not raw.startswith(b'{"fact"') or b'"sealed"' not in raw:
            return raw
        plain = await self._sealer.open(json.loads(raw)["sealed"])
        return None if plain is None else plain.encode("utf-8")
