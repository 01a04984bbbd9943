"""The embedded log reads and compacts one scope's records (issue 30 item 4): the scope
its sealed envelope shows, indexed; a record that shows none belongs to every scope."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from provmem.core.ports import Append, Cleanup, TopicConfig
from provmem.infra.log.embedded import EmbeddedEventLog, envelope_scope

TOPIC = "t.turns"


def sealed(user: str, body: str) -> bytes:
    scope = f'{{"org":"acme","project":"p","user":"{user}"}}'
    return f'{{"seal":1,"scope":{scope},"sealed":"pm1.k.{body}"}}'.encode()


async def a_log(path: Path) -> EmbeddedEventLog:
    log = EmbeddedEventLog(path)
    await log.ensure_topics([TopicConfig(TOPIC, 2, Cleanup.COMPACT)])
    return log


async def appended(log: EmbeddedEventLog) -> None:
    await log.append(
        TOPIC,
        [
            Append(0, b"k1", sealed("ann", "one")),
            Append(0, b"k2", sealed("bob", "two")),
            Append(0, b"k1", None),  # a tombstone shows no scope
            Append(0, b"k3", sealed("ann", "three")),
            Append(0, b"c", b"plain control"),  # unsealed: no scope
            Append(1, b"k4", sealed("ann", "elsewhere")),
        ],
    )


def test_the_scope_is_read_from_the_envelope_only() -> None:
    assert envelope_scope(sealed("ann", "x")) == "acme/p/ann"
    assert envelope_scope(None) is None
    assert envelope_scope(b'{"text":"{\\"seal\\":1,\\"scope\\":"}') is None
    escaped = b'{"seal":1,"scope":{"org":"a","project":"p","user":"x\\"y"},"sealed":"s"}'
    assert envelope_scope(escaped) is None  # unparsed: read with every scope, never lost


async def test_a_scope_read_holds_its_records_and_those_of_no_scope_in_log_order(
    tmp_path: Path,
) -> None:
    log = await a_log(tmp_path / "log.db")
    await appended(log)
    ann = await log.read_scope(TOPIC, 0, "acme/p/ann", 0, 100)
    assert [(r.offset, r.key) for r in ann] == [(0, b"k1"), (2, b"k1"), (3, b"k3"), (4, b"c")]
    assert [r.offset for r in await log.read_scope(TOPIC, 0, "acme/p/ann", 3, 1)] == [3]
    bob = await log.read_scope(TOPIC, 0, "acme/p/bob", 0, 100)
    assert [r.offset for r in bob] == [1, 2, 4]
    await log.close()


async def test_a_scope_compaction_keeps_the_latest_of_each_key_of_the_scope_alone(
    tmp_path: Path,
) -> None:
    log = await a_log(tmp_path / "log.db")
    await appended(log)
    await log.append(TOPIC, [Append(0, b"k2", sealed("bob", "two again"))])
    assert await log.compact_scope("acme/p/ann", 0, TOPIC) == 1  # k1's turn before its tombstone
    left = [(r.offset, r.key) for r in await log.read(TOPIC, 0, 0, 100)]
    assert left == [(1, b"k2"), (2, b"k1"), (3, b"k3"), (4, b"c"), (5, b"k2")]  # bob's waits
    assert await log.compact(TOPIC) == 1
    await log.close()


async def test_a_log_written_before_the_scope_column_gets_it_on_open(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    log = await a_log(path)
    await appended(log)
    await log.close()
    conn = sqlite3.connect(path)
    conn.execute("DROP INDEX records_by_scope")
    conn.execute("ALTER TABLE records DROP COLUMN scope")  # as an older version wrote it
    conn.commit()
    conn.close()
    reopened = EmbeddedEventLog(path)
    ann = await reopened.read_scope(TOPIC, 0, "acme/p/ann", 0, 100)
    assert [r.offset for r in ann] == [0, 2, 3, 4]
    await reopened.close()
    assert [
        r.offset for r in await (await a_log(path)).read_scope(TOPIC, 1, "acme/p/ann", 0, 9)
    ] == [0]
