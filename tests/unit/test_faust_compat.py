"""The faust patch (streams/faust/compat.py): the version gate, and the private consumer
API the delivery fence patches, on the faust-streaming that is installed.

If faust renames ``Consumer._new_offset``, changes its parameters, or stops calling it
from its commit path, these tests fail before a worker silently loses the fence."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from typing import Any

import faust
import pytest
from faust.transport.consumer import Consumer
from faust.types import TP

from provmem.streams.faust.compat import (
    STRAY_TASK_WAIT_S,
    UntestedFaustError,
    fence_commits,
    installed_version,
    quick_stop_worker,
    require_tested_faust,
    shape_problems,
)


def test_the_installed_faust_is_a_tested_one() -> None:
    assert require_tested_faust() == installed_version()


@pytest.mark.parametrize("found", ["0.16.0", "0.14.9", "1.0.0", "0.16.0rc1"])
def test_an_untested_version_is_refused_naming_it_and_the_range(found: str) -> None:
    with pytest.raises(UntestedFaustError) as refused:
        require_tested_faust(found)
    assert found in str(refused.value)
    assert ">=0.15.0,<0.16.0" in str(refused.value)


def test_a_version_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(UntestedFaustError, match="not a version number"):
        require_tested_faust("dev")


def test_the_private_method_has_the_shape_the_fence_relies_on() -> None:
    method = vars(Consumer)["_new_offset"]
    assert list(inspect.signature(method).parameters) == ["self", "tp"]
    assert "self._new_offset(tp)" in inspect.getsource(Consumer._filter_committable_offsets)
    assert shape_problems() == []


@pytest.fixture
def consumer() -> Iterator[Any]:
    """A real faust consumer (it connects to nothing until started)."""
    app = faust.App("compat-test", broker="kafka://127.0.0.1:1", store="memory://")
    yield app.consumer


def test_the_fence_holds_a_real_consumers_commit_at_the_frontier(consumer: Any) -> None:
    tp = TP("turns", 0)
    consumer._acked[tp].extend(range(0, 10))  # faust: records 0..9 handled
    consumer._acked_index[tp].update(range(0, 10))
    fence_commits(consumer, lambda partition: 4 if partition == ("turns", 0) else None)
    assert consumer._filter_committable_offsets([tp]) == {tp: 4}


def test_without_a_frontier_the_fence_leaves_faust_s_offset(consumer: Any) -> None:
    tp = TP("turns", 1)
    consumer._acked[tp].extend(range(0, 3))
    consumer._acked_index[tp].update(range(0, 3))
    fence_commits(consumer, lambda partition: None)
    assert consumer._filter_committable_offsets([tp]) == {tp: 3}


def test_a_quick_stop_worker_lets_ending_tasks_end_and_cancels_stray_ones() -> None:
    """mode's shutdown, as faust's worker runs it: stray tasks are waited for briefly,
    then cancelled, and the loop closes (no fixed 1 s pauses)."""
    from faust.worker import Worker

    worker = object.__new__(quick_stop_worker(Worker))
    loop = asyncio.new_event_loop()
    vars(worker)["_loop"] = loop
    ended = loop.create_task(asyncio.sleep(STRAY_TASK_WAIT_S / 10, result="ended"))
    stray = loop.create_task(asyncio.sleep(3600))
    worker._gather_all()
    loop.run_until_complete(asyncio.gather(stray, return_exceptions=True))
    loop.run_until_complete(worker._sentinel_task())
    loop.close()
    assert ended.result() == "ended"
    assert stray.cancelled()


def test_a_worker_base_without_modes_shutdown_steps_is_refused() -> None:
    with pytest.raises(UntestedFaustError, match="_sentinel_task"):
        quick_stop_worker(type("Worker", (), {"_gather_all": lambda self: None}))
