"""Which log records are sealed, under which key: the policy of infra/log/sealed.py.

=================  =======================================================================
topic              sealed under
=================  =======================================================================
turns              the subject's log key (infra/crypto/log_keys.py; the whole turn: speaker,
                   session, ids; the text inside is sealed under its data key already);
                   an erasure control record: the deployment's data key
fact-changes       the subject's log key; an ERASE change (no fact, no content): the
                   deployment's, so readers still apply it after the subject is shredded
dead-letters       the data key of the subject the failed record names; the deployment's
                   when it names none (malformed input) and for re-drive markers
erasure-requests   the deployment's data key (a request outlives its subject's key)
=================  =======================================================================

Receipts (counts and keyed fingerprints), data keys, API key records and tombstones stay
as they are. The envelope shows the scope key (``org/project/user``) where it is known.

Record keys that name an evidence item or a fact (turns, fact-changes, and a dead
letter's, should one carry a key) are keyed fingerprints (infra/log/record_keys.py), the
tombstones' too; an erasure control record's key (``erasure|<request id>``) and a
re-drive marker's stay as they are: they name no subject.
"""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from functools import partial
from typing import Any

from pydantic import ValidationError

from provmem.core.ports import Append, EventLog
from provmem.core.scope import Scope
from provmem.infra.crypto.envelope import EvidenceSealer
from provmem.infra.log.sealed import LogSealer, SealedLog, Sealing, sealing
from provmem.streams.outcome import REDRIVEN_MARKER
from provmem.streams.pipeline import CONTROL_PREFIX
from provmem.streams.topics import TopicNames

__all__ = ["keyed_record", "log_sealer", "sealed_log"]


def log_sealer(sealer: EvidenceSealer, names: TopicNames) -> LogSealer:
    """The record sealer of a deployment's topics (the faust workers call it directly)."""
    return LogSealer(sealer, partial(record_sealing, names), partial(keyed_record, names))


def sealed_log(log: EventLog, sealer: EvidenceSealer, names: TopicNames) -> SealedLog:
    """``log`` with the deployment's records sealed on append and opened on read."""
    return sealing(log, log_sealer(sealer, names))


def record_sealing(names: TopicNames, topic: str, record: Append) -> Sealing | None:
    """The sealing of one record appended to ``topic`` (None: it stays as it is)."""
    body = _json(record.value)
    if topic == names.turns:
        control = (record.key or b"").startswith(CONTROL_PREFIX)
        return _deployment(body) if control else _subject(body)
    if topic == names.fact_changes:
        erase = body.get("op") == "ERASE" and body.get("fact") is None
        return _deployment(body) if erase else _subject(body)
    if topic == names.dead_letters:
        return replace(_subject(_letter_origin(body)), log_key=False)
    if topic == names.erasure_requests:
        return _deployment(body)
    return None


def keyed_record(names: TopicNames, topic: str, record: Append) -> bool:
    """Whether a record's key is keyed: every key on turns (but a control record's),
    fact-changes and dead-letters (but a re-drive marker's)."""
    key = record.key or b""
    if topic == names.turns:
        return not key.startswith(CONTROL_PREFIX)
    if topic == names.dead_letters:
        return key != REDRIVEN_MARKER
    return topic == names.fact_changes


def _subject(body: dict[str, Any]) -> Sealing:
    scope = _scope(body)
    return Sealing(None if scope is None else scope.key, _shown(scope))


def _deployment(body: dict[str, Any]) -> Sealing:
    return Sealing(None, _shown(_scope(body)))


def _letter_origin(letter: dict[str, Any]) -> dict[str, Any]:
    """The failed record a dead letter holds, as JSON (its envelope, when it was sealed)."""
    encoded = letter.get("value_b64")
    if not isinstance(encoded, str):
        return {}
    try:
        return _json(base64.b64decode(encoded, validate=True))
    except ValueError:
        return {}


def _scope(body: dict[str, Any]) -> Scope | None:
    try:
        return Scope.model_validate(body.get("scope"))
    except (ValidationError, TypeError):
        return None


def _shown(scope: Scope | None) -> dict[str, str] | None:
    if scope is None:
        return None
    return {"org": scope.org, "project": scope.project, "user": scope.user}


def _json(value: bytes | None) -> dict[str, Any]:
    try:
        found = json.loads(value or b"")
    except (ValueError, UnicodeDecodeError):
        return {}
    return found if isinstance(found, dict) else {}
