"""Claiming a worker's state folder: one live holder per slot, slots reused once free."""

from __future__ import annotations

from pathlib import Path

import pytest

from provmem.streams.faust import state_folder
from provmem.streams.faust.state_folder import claim_state_folder, worker_name


def test_each_claim_takes_the_first_free_slot(tmp_path: Path) -> None:
    first = claim_state_folder(tmp_path, "host")
    second = claim_state_folder(tmp_path, "host")
    assert (first.path.name, second.path.name) == ("host-0", "host-1")
    first.release()
    again = claim_state_folder(tmp_path, "host")
    assert again.path == first.path  # a restarted worker finds its folder again
    assert again.path.is_dir()


def test_all_slots_held_is_an_error_naming_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(state_folder, "MAX_SLOTS", 1)
    held = claim_state_folder(tmp_path, "host")
    with pytest.raises(RuntimeError, match="worker_name: all 1 state folders of 'host'"):
        claim_state_folder(tmp_path, "host")
    held.release()


def test_the_worker_name_defaults_to_the_host_name() -> None:
    assert worker_name("w1") == "w1"
    assert worker_name(None)  # the host name
