"""Erasure requests (streams/erasure/requests.py): the one decoder and the routes."""

from __future__ import annotations

from typing import Any

from structlog.testing import capture_logs

from provmem.core.events import ErasureCompleted, ErasureRequested
from provmem.core.ports import LogRecord
from provmem.core.scope import partition_for
from provmem.services.erasure.subject import erasure_request
from provmem.streams.erasure.requests import (
    ErasureRouter,
    ErasureStage,
    ScopeRecords,
    control_record,
    erasure_request_in,
    is_control,
)
from provmem.streams.outcome import Outcome
from provmem.streams.pipeline import CONTROL_PREFIX
from provmem.streams.topics import ERASURE_REQUESTS, TopicNames

NAMES = TopicNames("t")
REQUEST = erasure_request("acme/support/u1", ["ev_" + "0" * 32], None, False)


def _record(value: bytes | None, offset: int = 3, key: bytes | None = b"k") -> LogRecord:
    return LogRecord(NAMES.erasure_requests, 0, offset, key, value)


class _Eraser:
    def __init__(self) -> None:
        self.erased: list[tuple[ErasureRequested, int | None]] = []

    async def erase(self, request: ErasureRequested, until: int | None = None) -> Any:
        self.erased.append((request, until))
        return ErasureCompleted.model_construct(residue_found=0)


class _Deriver:
    def __init__(self) -> None:
        self.handled: list[bytes | None] = []

    async def handle_record(self, record: LogRecord, pending: dict[str, bytes]) -> Outcome:
        self.handled.append(record.key)
        return Outcome()


def test_a_filed_request_decodes_to_itself() -> None:
    assert erasure_request_in(_record(ERASURE_REQUESTS.encode(REQUEST))) == REQUEST


def test_a_tombstone_carries_no_request() -> None:
    assert erasure_request_in(_record(None)) is None


def test_an_undecodable_value_is_none_and_a_warning_names_the_record() -> None:
    with capture_logs() as logs:
        assert erasure_request_in(_record(b'{"request_id": 1}', offset=7)) is None
    (warning,) = logs
    assert warning["event"] == "erasure.undecodable"
    assert (warning["topic"], warning["offset"]) == (NAMES.erasure_requests, 7)
    assert "request_id" in warning["reason"]


def test_a_control_record_lands_on_the_scopes_partition_and_decodes() -> None:
    append = control_record(REQUEST, 8)
    assert append.partition == partition_for(REQUEST.scope.key, 8)
    assert append.key == CONTROL_PREFIX + REQUEST.request_id.encode()
    assert is_control(append.key) and not is_control(b"ev_1") and not is_control(None)
    assert erasure_request_in(_record(append.value, key=append.key)) == REQUEST


async def test_the_router_files_each_decodable_request_as_a_control_record() -> None:
    router = ErasureRouter(NAMES, 8)
    records = [_record(ERASURE_REQUESTS.encode(REQUEST)), _record(b"junk"), _record(None)]
    outcome = await router.handle_batch(records)
    assert [(o.topic, o.record) for o in outcome.outgoing] == [
        (NAMES.turns, control_record(REQUEST, 8))
    ]


async def test_the_embedded_stage_runs_each_request() -> None:
    eraser = _Eraser()
    records = [_record(ERASURE_REQUESTS.encode(REQUEST)), _record(b"junk")]
    await ErasureStage(eraser).handle_batch(records)  # type: ignore[arg-type]
    assert eraser.erased == [(REQUEST, None)]


async def test_scope_records_send_turns_to_the_deriver_and_control_records_to_the_eraser() -> None:
    deriver, eraser = _Deriver(), _Eraser()
    records = ScopeRecords(deriver, eraser)  # type: ignore[arg-type]
    control = control_record(REQUEST, 8)
    turn = LogRecord(NAMES.turns, 2, 4, b"ev_1", b"{}")
    control_at = LogRecord(NAMES.turns, 2, 9, control.key, control.value)
    outcome = await records.handle_batch([turn, control_at])
    assert deriver.handled == [b"ev_1"]
    assert eraser.erased == [(REQUEST, 9)]  # erased up to the control record
    (done,) = outcome.outgoing
    assert (done.topic, done.record.partition) == (NAMES.turns, 2)
    assert (done.record.key, done.record.value) == (control.key, None)


async def test_an_undecodable_or_tombstoned_control_record_is_passed_over() -> None:
    deriver, eraser = _Deriver(), _Eraser()
    records = ScopeRecords(deriver, eraser)  # type: ignore[arg-type]
    key = CONTROL_PREFIX + b"er_1"
    junk, tombstone = (LogRecord(NAMES.turns, 0, n, key, v) for n, v in ((1, b"junk"), (2, None)))
    assert (await records.handle_batch([junk, tombstone])).outgoing == []
    assert deriver.handled == [] and eraser.erased == []
