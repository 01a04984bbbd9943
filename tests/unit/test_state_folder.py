"""Claiming a worker's state folder: one live holder per slot, slots reused once free."""

from __future__ import annotations

from pathlib import Path

import pytest

from provmem.config import Settings
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


def test_a_gate_generation_has_its_own_tables_and_the_others_go(tmp_path: Path) -> None:
    """faust keeps one changelog offset per database whatever topic it came from, so a
    worker of another gate generation must not open the databases of the one before."""
    from provmem.infra.stores.generations import Generation
    from provmem.streams.faust.app import generation_folder, on_generation

    (tmp_path / "v1" / "tables").mkdir(parents=True)
    assert generation_folder(tmp_path, Generation()) == tmp_path
    assert (tmp_path / "v1" / "tables").is_dir()  # generation 0 keeps its tables
    second = generation_folder(tmp_path, Generation(2, 2))
    assert second == tmp_path / "g2" and second.is_dir()
    assert not (tmp_path / "v1").exists()  # generation 0's are gone
    (second / "v1").mkdir()
    assert generation_folder(tmp_path, Generation(3, 2)) == second  # views only: the same gate
    assert (second / "v1").is_dir()
    assert generation_folder(tmp_path, Generation(4, 4)) == tmp_path / "g4"
    assert not second.exists()
    settings = Settings(consumer_group="provmem")
    assert on_generation(settings, Generation(4, 4)).consumer_group == "provmem.g4"
    assert on_generation(settings, Generation(4, 0)).consumer_group == "provmem"
