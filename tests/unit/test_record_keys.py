"""Keyed record keys (infra/log/record_keys.py): what the sealed log appends under, and how
readers find the id a tombstone names without the id ever being a key."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from provmem.core.events import FactOp
from provmem.core.ports import Append, LogRecord
from provmem.core.stages import fact_changed
from provmem.infra.crypto.envelope import EvidenceSealer, rotate_master_key
from provmem.infra.log.embedded import EmbeddedEventLog
from provmem.infra.log.record_keys import PLAIN_KEYS, RecordKeys, is_keyed
from provmem.infra.log.sealed import raw_log, record_keys
from provmem.infra.stores.embedded import EmbeddedKeyStore, EmbeddedStores
from provmem.services.api.changes import Cursor, change_frames
from provmem.services.sdk.facade_backends import frame_change
from provmem.streams.indexing import TombstonedTurns
from provmem.streams.outcome import REDRIVEN_MARKER
from provmem.streams.pipeline import CONTROL_PREFIX
from provmem.streams.runtime.sealed_topics import sealed_log
from provmem.streams.topics import FACT_CHANGES, TURNS, TopicNames
from tests.factories import turn
from tests.unit.test_gate_store import one_fact

NAMES = TopicNames("rk")
EVIDENCE = "ev_" + "1" * 32


def _sealer(tmp_path: Path, master: bytes | None = None) -> EvidenceSealer:
    keys = EmbeddedKeyStore(EmbeddedStores(tmp_path / "keys.db"))
    return EvidenceSealer(master or os.urandom(32), keys)


async def _log(tmp_path: Path):  # type: ignore[no-untyped-def]
    inner = EmbeddedEventLog(tmp_path / "log.db")
    await inner.ensure_topics(NAMES.configs(2))
    return sealed_log(inner, _sealer(tmp_path), NAMES)


async def test_a_record_key_is_a_deterministic_keyed_fingerprint(tmp_path: Path) -> None:
    keys = RecordKeys(_sealer(tmp_path))
    key = await keys.key_of(EVIDENCE.encode())
    assert is_keyed(key) and EVIDENCE.encode() not in key
    assert await keys.key_of(EVIDENCE.encode()) == key  # compaction by key still works
    assert await keys.key_of(key) == key  # a keyed key is not keyed twice (a re-drive)
    assert (await keys.printer())(EVIDENCE) == key
    other = RecordKeys(_sealer(tmp_path / "other"))  # another deployment's data key
    assert await other.key_of(EVIDENCE.encode()) != key
    assert await PLAIN_KEYS.key_of(EVIDENCE.encode()) == EVIDENCE.encode()


async def test_a_master_key_rotation_keeps_the_record_keys(tmp_path: Path) -> None:
    old, new = os.urandom(32), os.urandom(32)
    before = await RecordKeys(_sealer(tmp_path, old)).key_of(EVIDENCE.encode())
    store = EmbeddedKeyStore(EmbeddedStores(tmp_path / "keys.db"))
    assert await rotate_master_key(store, old, new) >= 1
    after = await RecordKeys(EvidenceSealer(new, store)).key_of(EVIDENCE.encode())
    assert after == before  # derived from the deployment's data key, re-wrapped not replaced


async def test_the_sealed_log_keys_turns_fact_changes_and_tombstones_only(tmp_path: Path) -> None:
    log = await _log(tmp_path)
    recorded = turn("hello").model_copy(update={"evidence_id": EVIDENCE})
    control = CONTROL_PREFIX + b"req_1"
    await log.append(NAMES.turns, [Append(0, EVIDENCE.encode(), TURNS.encode(recorded))])
    await log.append(NAMES.turns, [Append(0, EVIDENCE.encode(), None), Append(0, control, None)])
    await log.append(NAMES.fact_changes, [Append(0, b"fact_1", None)])
    await log.append(NAMES.dead_letters, [Append(0, REDRIVEN_MARKER, b"{}")])
    await log.append(NAMES.erasure_receipts, [Append(0, b"req_1", b"{}")])
    at_rest = raw_log(log)
    turns = await at_rest.read(NAMES.turns, 0, 0, 10)
    keyed = await record_keys(log).key_of(EVIDENCE.encode())
    assert [r.key for r in turns] == [keyed, keyed, control]  # the tombstone too
    (fact,) = await at_rest.read(NAMES.fact_changes, 0, 0, 10)
    assert is_keyed(fact.key)
    assert [r.key for r in await at_rest.read(NAMES.dead_letters, 0, 0, 10)] == [REDRIVEN_MARKER]
    assert [r.key for r in await at_rest.read(NAMES.erasure_receipts, 0, 0, 10)] == [b"req_1"]
    assert await at_rest.compact(NAMES.turns) == 1  # the turn goes, its tombstone stays


async def test_a_tombstone_is_named_by_the_turns_met_the_log_or_its_raw_key(
    tmp_path: Path,
) -> None:
    log = await _log(tmp_path)
    recorded = turn("hello").model_copy(update={"evidence_id": EVIDENCE})
    await log.append(NAMES.turns, [Append(1, EVIDENCE.encode(), TURNS.encode(recorded))])
    await log.append(NAMES.turns, [Append(1, EVIDENCE.encode(), None)])
    tombstone = (await log.read(NAMES.turns, 1, 1, 1))[0]
    legacy = LogRecord(NAMES.turns, 1, 2, b"ev_older", None)  # a log before keyed keys
    keys = record_keys(log)
    assert await TombstonedTurns(keys).ids([tombstone, legacy]) == ["ev_older"]
    assert await TombstonedTurns(keys, log).ids([tombstone]) == [EVIDENCE]  # read back
    met = TombstonedTurns(keys)
    await met.remember([recorded])
    assert await met.ids([tombstone]) == [EVIDENCE]
    held = TombstonedTurns(keys, held=HeldPoints(["ev_" + "2" * 32, EVIDENCE]))
    assert await held.ids([tombstone]) == [EVIDENCE]  # among the index's own points


@dataclass
class HeldPoints:
    """An index's evidence points, as :class:`~provmem.core.ports.ListedItems` lists them."""

    ids: list[str]

    async def item_ids(self, kind: str) -> list[str]:
        return self.ids if kind == "evidence" else []


async def test_a_stream_turns_a_keyed_fact_tombstone_into_the_erase_it_stands_for(
    tmp_path: Path,
) -> None:
    log = await _log(tmp_path)
    known = one_fact()
    change = fact_changed(FactOp.ADD, known, "", "")
    added = Append(0, known.fact_id.encode(), FACT_CHANGES.encode(change))
    await log.append(NAMES.fact_changes, [added])
    await log.append(NAMES.fact_changes, [Append(0, known.fact_id.encode(), None)])
    [tombstone] = await log.read(NAMES.fact_changes, 0, 1, 10)
    assert is_keyed(tombstone.key or b"")  # the id is never the key
    scope = known.scope.key
    at_start = {known.fact_id: (known.scope, known.version)}  # what the views knew
    frames = change_frames(log, NAMES.fact_changes, scope, Cursor({0: 1}), 3600.0, at_start)
    assert await anext(frames) == "retry: 1000\n\n"
    erased = frame_change(await anext(frames))
    assert erased is not None and erased.op is FactOp.ERASE
    assert erased.fact_id == known.fact_id
