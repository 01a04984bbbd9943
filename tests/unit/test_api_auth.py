"""Pure parts of the API layer: key scopes, token shape, SSE cursors and the SSE reader."""

from __future__ import annotations

import pytest

from provmem.services.api.auth import Grant, scope_prefix, within
from provmem.services.api.changes import Cursor, scope_partitions
from provmem.services.sdk.client import _EventReader


def test_a_scope_prefix_names_the_bad_part() -> None:
    assert scope_prefix("acme/support") == "acme/support"
    with pytest.raises(ValueError, match="scope.project"):
        scope_prefix("acme/-bad")
    with pytest.raises(ValueError, match="scope.user"):
        scope_prefix("acme/support/")
    assert scope_prefix("a/b/c/d").startswith("a/b/sid0.")  # a user id may hold a slash


def test_a_grant_reaches_its_scope_and_below_only() -> None:
    grant = Grant("acme")
    assert grant.allows("acme/support/alice") and grant.allows("acme")
    assert not grant.allows("acme2/support/alice")
    assert not Grant("acme/support").allows("acme/sales/bob")
    assert Grant(None).allows("anything/at/all")
    assert within("acme/support/alice", "acme/support/alice")


def test_a_cursor_round_trips_and_refuses_foreign_partitions() -> None:
    cursor = Cursor.decode("0:5,2:7", [0, 1, 2])
    assert cursor.offsets == {0: 5, 1: 0, 2: 7}
    assert Cursor.decode(cursor.encode(), [0, 1, 2]) == cursor
    with pytest.raises(ValueError, match="Last-Event-ID"):
        Cursor.decode("9:1", [0, 1])
    with pytest.raises(ValueError, match="partition:offset"):
        Cursor.decode("0:x", [0])


def test_a_user_scope_reads_one_partition_a_wider_one_all() -> None:
    assert len(scope_partitions("acme/support/alice", 8)) == 1
    assert scope_partitions("acme/support", 4) == [0, 1, 2, 3]


def test_the_event_reader_skips_heartbeats_and_keeps_the_last_id() -> None:
    reader = _EventReader()
    lines = ["retry: 1000", "", ": heartbeat", "", "id: 0:1", "event: fact-changed"]
    assert [reader.feed(line) for line in lines] == [None] * len(lines)
    assert reader.feed("data: {}") is None
    assert reader.feed("") == ("0:1", "{}")
