"""API keys bound to scopes, stored hashed, and the grant every /v1 call is checked against.

A key is issued once as ``pmk_<key id>_<secret>``: the store keeps the key id, its scope
(``org`` or ``org/project``, or a single ``org/project/user``), a name and the SHA-256 of
the secret, never the token. The secret is 256 random bits, so a plain (unsalted) hash is
as strong as a slow one here and costs microseconds per request.

    keys = ApiKeys(store)
    issued = await keys.create("acme/support", name="support bot")
    grant = await keys.authenticate(issued.token)   # -> the key, or None
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, HTTPException, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from provmem.core.ports import ApiKeyStore
from provmem.core.scope import scope_prefix, within

if TYPE_CHECKING:
    from provmem.config import Settings

TOKEN_PREFIX = "pmk"  # noqa: S105 - a token's type tag, not a secret
_KEY_ID_RE = re.compile(r"^[0-9a-f]{16}$")


class ApiKey(BaseModel):
    """A stored key: what it may reach, never the token itself."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key_id: str
    name: str = ""
    scope: str = Field(description="org, org/project or org/project/user")
    secret_sha256: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


@dataclass(frozen=True)
class IssuedKey:
    """A new key and its token: the token is shown once and is not stored."""

    key: ApiKey
    token: str


@dataclass(frozen=True)
class Grant:
    """What one request may reach: everything (``scope`` None, auth off) or one scope."""

    scope: str | None
    key_id: str | None = None

    def allows(self, scope_key: str) -> bool:
        return self.scope is None or within(scope_key, self.scope)

    def require(self, scope_key: str) -> None:
        """403 unless the grant reaches ``scope_key``."""
        if not self.allows(scope_key):
            raise HTTPException(403, f"scope {scope_key}: not permitted for this API key")

    def prefix(self, text: str) -> str:
        """A scope of any depth from a request: 422 when malformed, 403 outside the grant."""
        try:
            prefix = scope_prefix(text)
        except ValueError as error:
            raise HTTPException(422, str(error)) from error
        self.require(prefix)
        return prefix


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _split(token: str) -> tuple[str, str] | None:
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != TOKEN_PREFIX or not _KEY_ID_RE.match(parts[1]):
        return None
    return parts[1], parts[2]


class ApiKeys:
    """Create, list, revoke and check API keys."""

    def __init__(self, store: ApiKeyStore) -> None:
        self._store = store

    async def create(self, scope: str, name: str = "") -> IssuedKey:
        key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
        key = ApiKey(
            key_id=key_id,
            name=name,
            scope=scope_prefix(scope),
            secret_sha256=_digest(secret),
            created_at=datetime.now(UTC),
        )
        await self._store.put(key_id, key.model_dump_json().encode())
        return IssuedKey(key, f"{TOKEN_PREFIX}_{key_id}_{secret}")

    async def get(self, key_id: str) -> ApiKey | None:
        raw = await self._store.get(key_id)
        return None if raw is None else ApiKey.model_validate_json(raw)

    async def list(self) -> list[ApiKey]:
        return [ApiKey.model_validate_json(raw) for raw in await self._store.records()]

    async def revoke(self, key_id: str) -> ApiKey:
        """Revoke a key for good (its record stays, for the audit trail)."""
        key = await self.get(key_id)
        if key is None:
            raise LookupError(f"API key {key_id}: not found")
        if key.revoked:
            return key
        revoked = key.model_copy(update={"revoked_at": datetime.now(UTC)})
        await self._store.put(key_id, revoked.model_dump_json().encode())
        return revoked

    async def authenticate(self, token: str) -> ApiKey | None:
        """The live key a token belongs to, or None (malformed, unknown, wrong or revoked)."""
        split = _split(token)
        if split is None:
            return None
        key = await self.get(split[0])
        if key is None or key.revoked:
            return None
        return key if hmac.compare_digest(key.secret_sha256, _digest(split[1])) else None

    async def any(self) -> bool:
        return await self._store.count() > 0


class Unauthenticated(Exception):  # noqa: N818 - reads as the condition it is
    """No usable credentials: the API answers 401."""


async def grant_for(token: str | None, keys: ApiKeys, auth: str) -> Grant:
    """The grant of a request's token. Without a token, everything is reachable only when
    auth is explicitly off *and* no key exists yet; otherwise the caller must authenticate."""
    if token is None:
        if auth == "off" and not await keys.any():
            return Grant(None)
        raise Unauthenticated("an API key is required (Authorization: Bearer pmk_...)")
    key = await keys.authenticate(token)
    if key is None:
        raise Unauthenticated("invalid or revoked API key")
    return Grant(key.scope, key.key_id)


_bearer = HTTPBearer(
    auto_error=False, description="An API key from `provmem keys create --scope ORG[/PROJECT]`"
)


async def _grant(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)],
) -> Grant:
    """The request's grant (a FastAPI dependency); 401 without usable credentials."""
    state = request.app.state.provmem  # the API's state: its keys and settings
    token = credentials.credentials if credentials is not None else None
    try:
        return await grant_for(token, state.keys, state.settings.api_auth)
    except Unauthenticated as error:
        raise HTTPException(401, str(error), headers={"WWW-Authenticate": "Bearer"}) from None


GrantDep = Annotated[Grant, Depends(_grant)]


def open_key_store(settings: Settings) -> ApiKeyStore:
    """The key store of the runtime ``settings`` names."""
    from provmem.streams.runtime.components import runtime_for

    store: ApiKeyStore = runtime_for(settings).open_key_store()
    return store


__all__ = [
    "ApiKey",
    "ApiKeyStore",
    "ApiKeys",
    "Grant",
    "GrantDep",
    "IssuedKey",
    "Unauthenticated",
    "grant_for",
    "open_key_store",
    "scope_prefix",
    "within",
]
