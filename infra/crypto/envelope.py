"""Envelope encryption of evidence: AES-256-GCM under per-subject data keys.

Each subject (``org/project/user``) has a random 256-bit data key, stored only
wrapped (AES-256-GCM) by the master key. Evidence text is sealed under the data
key; its content hash is an HMAC keyed by a key derived from the data key, so a
hash cannot confirm guessed content once the data key is destroyed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import time
from collections.abc import Sequence
from pathlib import Path

import structlog
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from provmem.config import Settings
from provmem.core.events import SealedText
from provmem.core.ports import KeyRingStore, KeyStore
from provmem.infra.crypto.log_keys import LogKeys, Rotation, log_key_id

_NONCE = 12
#: How long a process trusts a data key it read before it asks the key store again: a
#: subject shredded by another process (a worker's erasure) reads as erased here after it.
KEY_CACHE_S = 5.0
_log = structlog.get_logger(__name__)


class MissingDataKeyError(LookupError):
    """The subject's data key is absent or was destroyed (crypto-shredded)."""


def subject_key_id(scope_key: str) -> str:
    """The data key id of a subject; reveals nothing about the scope."""
    return "dk_" + hashlib.sha256(b"provmem-subject\x1f" + scope_key.encode()).hexdigest()[:32]


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


class WrongMasterKeyError(ValueError):
    """A data key was wrapped by another master key than the one configured."""


class ForeignMasterKeyError(ValueError):
    """This process's master key is not the deployment's: it must not start nor append."""


#: The key-store entry holding the deployment's key check (not a data key).
DEPLOYMENT_CHECK = "deployment-key-check"
#: The deployment's own data key (log records that name no subject: infra/log/sealed.py).
#: Its id starts like a subject's (``dk_``), so rotation and the foreign-key checks cover it.
DEPLOYMENT_KEY_ID = "dk_deployment"


def master_fingerprint(master_key: bytes) -> bytes:
    """8 bytes that tell which master key wrapped a data key (reveals nothing of it)."""
    return hashlib.sha256(b"provmem-master\x1f" + master_key).digest()[:8]


class KeyWrapper:
    """Wraps data keys under one master key: fingerprint | nonce | AES-256-GCM(data key)."""

    def __init__(self, master_key: bytes) -> None:
        if len(master_key) != 32:
            raise ValueError("master_key: must be 32 bytes (256 bits)")
        self._aead = AESGCM(master_key)
        self._master = master_key
        self.fingerprint = master_fingerprint(master_key)

    def derive(self, purpose: str) -> bytes:
        """A 256-bit key derived from the master key for one purpose."""
        return hmac.new(self._master, b"provmem-derive\x1f" + purpose.encode(), "sha256").digest()

    def wrap(self, key_id: str, data_key: bytes) -> bytes:
        nonce = os.urandom(_NONCE)
        return self.fingerprint + nonce + self._aead.encrypt(nonce, data_key, key_id.encode())

    def unwrap(self, key_id: str, wrapped: bytes) -> bytes:
        if not self.owns(wrapped):
            raise WrongMasterKeyError(f"data key {key_id}: wrapped by another master key")
        nonce, sealed = wrapped[8 : 8 + _NONCE], wrapped[8 + _NONCE :]
        return self._aead.decrypt(nonce, sealed, key_id.encode())

    def owns(self, wrapped: bytes) -> bool:
        return wrapped[:8] == self.fingerprint

    def check_value(self) -> bytes:
        """The deployment's key check: fingerprint | keyed MAC (proves the key, shows none)."""
        return self.fingerprint + self.derive("deployment-check")[:16]


async def verify_master_key(keys: KeyStore, master: bytes) -> None:
    """Make sure ``master`` is the deployment's master key, before anything is appended.

    The first process of a deployment records the key check (``put_if_absent``: on the
    distributed runtime the Redis cache decides a race and the data-keys topic keeps it);
    every later one compares. A deployment older than the check adopts the key its data
    keys are wrapped with. Raises :class:`ForeignMasterKeyError` naming both fingerprints.
    """
    wrapper = KeyWrapper(master)
    check = wrapper.check_value()
    stored = await keys.get(DEPLOYMENT_CHECK)
    if stored is None:
        await _no_foreign_keys(keys, wrapper)
        stored = await keys.put_if_absent(DEPLOYMENT_CHECK, check)
    if not hmac.compare_digest(stored, check):
        raise ForeignMasterKeyError(_foreign(stored[:8], wrapper.fingerprint))


async def _no_foreign_keys(keys: KeyStore, wrapper: KeyWrapper) -> None:
    for key_id in await keys.key_ids():
        wrapped = await keys.get(key_id) if key_id.startswith("dk_") else None
        if wrapped is not None and not wrapper.owns(wrapped):
            raise ForeignMasterKeyError(_foreign(wrapped[:8], wrapper.fingerprint))


def _foreign(deployment: bytes, own: bytes) -> str:
    return (
        f"master key {own.hex()} is not this deployment's ({deployment.hex()}): its data "
        "keys are wrapped by another master key. Set PROVMEM_MASTER_KEY to the deployment's "
        "key (every process of a deployment shares one); refusing to start or append"
    )


async def rotate_master_key(keys: KeyStore, old: bytes, new: bytes) -> int:
    """Re-wrap every data key from ``old`` to ``new``; resumable; returns keys re-wrapped.

    The event log is not touched: evidence stays sealed under the same data keys. A key
    store recorded on a log rewrites its key ring, so no key wrapped by ``old`` stays
    there (infra/crypto/key_ring.py).
    """
    before, after = KeyWrapper(old), KeyWrapper(new)
    rewrapped = 0
    for key_id in await keys.key_ids():
        wrapped = await keys.get(key_id) if key_id.startswith("dk_") else None
        if wrapped is None or after.owns(wrapped):
            continue
        await keys.replace(key_id, after.wrap(key_id, before.unwrap(key_id, wrapped)))
        rewrapped += 1
    if await keys.get(DEPLOYMENT_CHECK) is not None:
        await keys.replace(DEPLOYMENT_CHECK, after.check_value())
    if isinstance(keys, KeyRingStore):  # no copy wrapped by the old key stays on the log
        await keys.rewrite()
    return rewrapped


class EvidenceSealer:
    """Seals and opens evidence text; the master key never leaves this object."""

    def __init__(self, master_key: bytes, keys: KeyStore) -> None:
        self._wrapper = KeyWrapper(master_key)
        self._master = master_key
        self._keys = keys
        self._cache: dict[str, tuple[bytes, float]] = {}  # key id -> data key, when read
        self._verified = False
        self.log_keys = LogKeys(keys)

    @property
    def keys(self) -> KeyStore:
        """The key store of the wrapped data keys."""
        return self._keys

    async def verify(self) -> None:
        """Refuse a master key that is not the deployment's (:func:`verify_master_key`);
        done once, at start-up and in any case before the first data key is made."""
        if not self._verified:
            await verify_master_key(self._keys, self._master)
            self._verified = True

    async def seal(self, scope_key: str, text: str) -> tuple[SealedText, str]:
        """Encrypt ``text`` for the subject; return the sealed text and its keyed hash."""
        key_id = subject_key_id(scope_key)
        data_key = await self._data_key(key_id, create=True)
        nonce = os.urandom(_NONCE)
        sealed = AESGCM(data_key).encrypt(nonce, text.encode("utf-8"), key_id.encode())
        content_hash = hmac.new(_hash_key(data_key), text.encode("utf-8"), "sha256").hexdigest()
        return SealedText(key_id=key_id, nonce=_b64(nonce), ciphertext=_b64(sealed)), content_hash

    def forget(self, key_id: str) -> None:
        """Drop a cached data key (after it was destroyed)."""
        self._cache.pop(key_id, None)

    def read_again(self, scope_key: str) -> None:
        """Read the subject's data key, log-key epoch and log key from the key store at
        their next use: another process (a worker's erasure) may have destroyed or
        rotated what this one cached, and a turn sealed under a destroyed key reads as
        erased (accepted, never derived)."""
        self.forget(subject_key_id(scope_key))
        log_key = self.log_keys.cached_id(scope_key)
        if log_key is not None:
            self.forget(log_key)

    async def open(self, sealed: SealedText) -> str:
        """Decrypt sealed text; raise :class:`MissingDataKeyError` after crypto-shredding."""
        data_key = await self._data_key(sealed.key_id, create=False)
        nonce = base64.b64decode(sealed.nonce)
        plain = AESGCM(data_key).decrypt(
            nonce, base64.b64decode(sealed.ciphertext), sealed.key_id.encode()
        )
        return plain.decode("utf-8")

    async def _data_key(self, key_id: str, *, create: bool) -> bytes:
        now = time.monotonic()
        cached = self._cache.get(key_id)
        if cached is not None and now - cached[1] < KEY_CACHE_S:
            return cached[0]
        if create:
            await self.verify()
        wrapped = await self._keys.get(key_id)
        if wrapped is None and create:
            wrapped = await self._keys.put_if_absent(key_id, self._wrap(key_id))
        if wrapped is None:
            self._cache.pop(key_id, None)
            raise MissingDataKeyError(key_id)
        if not self._wrapper.owns(wrapped) and not create:
            _log.warning("crypto.foreign_data_key", key_id=key_id)
            raise MissingDataKeyError(f"{key_id}: wrapped by another master key (skipped)")
        data_key = self._unwrap(key_id, wrapped)
        self._cache[key_id] = (data_key, now)
        return data_key

    async def subject_secret(self, scope_key: str, purpose: str) -> bytes:
        """A key derived from the subject's data key for one purpose (keyed term ids,
        entity tags, sealed view bodies): destroyed with the data key."""
        key_id = subject_key_id(scope_key)
        data_key = await self._data_key(key_id, create=True)
        return hmac.new(
            data_key, b"provmem-subject-secret\x1f" + purpose.encode(), "sha256"
        ).digest()

    async def deployment_data_secret(self, purpose: str) -> bytes:
        """A key derived from the deployment's data key for one purpose (keyed record
        keys: infra/log/record_keys.py). Unlike :meth:`deployment_secret` it survives a
        master-key rotation (the data key is re-wrapped, not replaced), so what it keys
        stays comparable: a compacted log's keys must not change."""
        data_key = await self._data_key(DEPLOYMENT_KEY_ID, create=True)
        return hmac.new(
            data_key, b"provmem-deployment-secret\x1f" + purpose.encode(), "sha256"
        ).digest()

    def deployment_secret(self, purpose: str) -> bytes:
        """A key derived from the master key for one purpose (scope tags of the index)."""
        return self._wrapper.derive(purpose)

    async def seal_blob(self, scope_key: str, plain: str) -> str:
        """``plain`` sealed under the subject's data key, as one compact string:
        ``pm1.<key id>.<base64 nonce | AES-256-GCM ciphertext>``."""
        return await self._seal_under(subject_key_id(scope_key), plain.encode("utf-8"))

    async def seal_bytes(self, scope_key: str | None, plain: bytes) -> str:
        """``plain`` bytes sealed like :meth:`seal_blob`: under the subject's data key, or
        (``scope_key`` None) under the deployment's data key (:data:`DEPLOYMENT_KEY_ID`:
        random, wrapped by the master key like a subject's, so a rotation re-wraps it; no
        erasure destroys it), for log records that name no subject or must stay readable
        after one is shredded (erasure requests, ERASE changes: infra/log/sealed.py)."""
        key_id = DEPLOYMENT_KEY_ID if scope_key is None else subject_key_id(scope_key)
        return await self._seal_under(key_id, plain)

    async def seal_log_bytes(self, scope_key: str | None, plain: bytes) -> str:
        """``plain`` sealed like :meth:`seal_bytes`, but under the subject's current *log
        key* (infra/crypto/log_keys.py): what a log record of the subject, or the gate state
        (a changelog on Kafka), is sealed under."""
        if scope_key is None:
            return await self._seal_under(DEPLOYMENT_KEY_ID, plain)
        return await self._seal_under(await self.log_keys.current(scope_key), plain)

    async def rotate_log_key(self, scope_key: str) -> Rotation:
        """Move the subject to a new log-key epoch (its key made first, then named)."""
        epoch = await self.log_keys.epoch(scope_key, fresh=True)
        await self._data_key(log_key_id(scope_key, epoch + 1), create=True)
        return await self.log_keys.advance(scope_key)

    async def shred(self, scope_key: str) -> dict[str, int]:
        """Crypto-shred a subject: its data key, every epoch of its log key, the epoch
        entry; how many of each were destroyed."""
        data_key = subject_key_id(scope_key)
        destroyed = int(await self._keys.destroy(data_key))
        self.forget(data_key)
        logs = await self.destroy_log_keys(await self.log_keys.ids(scope_key))
        await self.log_keys.forget(scope_key)
        return {"data_keys": destroyed, "log_keys": logs}

    async def destroy_log_keys(self, key_ids: Sequence[str]) -> int:
        """Destroy log keys (a subject's retired epochs, or all of them); how many."""
        destroyed = 0
        for key_id in key_ids:
            destroyed += int(await self._keys.destroy(key_id))
            self.forget(key_id)
        return destroyed

    async def _seal_under(self, key_id: str, plain: bytes) -> str:
        data_key = await self._data_key(key_id, create=True)
        nonce = os.urandom(_NONCE)
        sealed = AESGCM(data_key).encrypt(nonce, plain, _blob_aad(key_id))
        return f"{_BLOB}.{key_id}.{_b64(nonce + sealed)}"

    async def open_blob(self, blob: str) -> str:
        """The plaintext of :meth:`seal_blob`; :class:`MissingDataKeyError` once shredded.
        Text that is not a sealed blob (written before sealing) is returned as it is."""
        if not is_blob(blob):
            return blob
        return (await self.open_bytes(blob)).decode("utf-8")

    async def open_bytes(self, blob: str) -> bytes:
        """The plaintext bytes of a sealed blob (:meth:`seal_bytes`, :meth:`seal_blob`);
        :class:`MissingDataKeyError` once its key is shredded, ``cryptography``'s
        ``InvalidTag`` when it was altered."""
        _, key_id, body = blob.split(".", 2)
        raw = base64.b64decode(body)
        cached = key_id in self._cache
        data_key = await self._data_key(key_id, create=False)
        try:
            return AESGCM(data_key).decrypt(raw[:_NONCE], raw[_NONCE:], _blob_aad(key_id))
        except InvalidTag:
            if not cached:
                raise
        self.forget(key_id)  # a key cached before its subject was erased and came back
        data_key = await self._data_key(key_id, create=False)
        return AESGCM(data_key).decrypt(raw[:_NONCE], raw[_NONCE:], _blob_aad(key_id))

    def _wrap(self, key_id: str) -> bytes:
        return self._wrapper.wrap(key_id, AESGCM.generate_key(256))

    def _unwrap(self, key_id: str, wrapped: bytes) -> bytes:
        return self._wrapper.unwrap(key_id, wrapped)


_BLOB = "pm1"


def is_blob(text: str) -> bool:
    """Whether ``text`` is a sealed blob (else plaintext written before sealing)."""
    return text.startswith(_BLOB + ".")


def _blob_aad(key_id: str) -> bytes:
    return b"provmem-blob\x1f" + key_id.encode()


def _hash_key(data_key: bytes) -> bytes:
    return hmac.new(data_key, b"provmem-content-hash", "sha256").digest()


def master_key_file(settings: Settings) -> Path:
    return settings.data_dir / "master.key"


def master_key(settings: Settings) -> bytes:
    """The master key from settings, else the one kept in ``data_dir`` (made on first use)."""
    if settings.master_key is not None:
        return decode_key(settings.master_key.get_secret_value())
    path = master_key_file(settings)
    if not path.exists():
        write_key_file(path, os.urandom(32), exclusive=True)
    return decode_key(path.read_text().strip())


def write_key_file(path: Path, key: bytes, exclusive: bool = False) -> None:
    """Write a key file readable by its owner only, whole or not at all: written and
    synced aside, then put in place atomically. ``exclusive``: only where no file is (the
    first of several processes opening a new folder at once wins, the others read its
    key; a process killed while writing leaves no empty key file behind)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(f".{path.name}.{os.getpid()}.new")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    with os.fdopen(os.open(aside, flags, 0o600), "w") as handle:
        handle.write(base64.b64encode(key).decode())
        handle.flush()
        os.fsync(handle.fileno())
    if not exclusive:
        os.replace(aside, path)
        return
    try:
        os.link(aside, path)  # fails where a key file is: never replaces one
    except FileExistsError:
        pass
    finally:
        aside.unlink()


def decode_key(text: str) -> bytes:
    try:
        key = base64.b64decode(text, validate=True)
    except ValueError as error:
        raise ValueError("master_key: must be base64") from error
    if len(key) != 32:
        raise ValueError("master_key: must decode to 32 bytes")
    return key
