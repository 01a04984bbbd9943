"""Dead letters as an operator handles them through the CLI: list, show, re-drive."""

from __future__ import annotations

import json
from pathlib import Path

from provmem.config import Settings
from provmem.core.capture import TurnInput, record_turn
from provmem.core.ports import Append
from provmem.streams.runtime.components import build
from provmem.streams.topics import TURNS
from tests.e2e.test_cli import provmem
from tests.harness import said


async def _append_broken_turn(data: Path, fixed: Path) -> None:
    """A turn record with no speaker on the log (as a foreign producer might write it);
    the same record with its speaker goes to ``fixed``."""
    components = await build(Settings(runtime="embedded", data_dir=data))
    try:
        turn = TurnInput.model_validate(said("t9", "I play the cello."))
        sealed, content_hash = await components.sealer.seal(turn.resolved_scope().key, turn.text)
        good = TURNS.encode(record_turn(turn, sealed, content_hash))
        fixed.write_bytes(good)
        broken = {k: v for k, v in json.loads(good).items() if k != "speaker"}
        record = Append(0, b"t9", json.dumps(broken).encode())
        await components.log.append(components.names.turns, [record])
    finally:
        await components.close()


async def test_list_show_and_redrive_a_dead_letter(tmp_path: Path) -> None:
    data, fixed = tmp_path / "d", tmp_path / "fixed.json"
    await _append_broken_turn(data, fixed)
    where = ["--data-dir", str(data)]

    listed = provmem("dlq", "list", *where)
    assert listed.returncode == 0, listed.stderr
    assert "derive" in listed.stdout and "speaker: Field required" in listed.stdout
    (letter,) = json.loads(provmem("dlq", "list", "--json", *where).stdout)
    shown = json.loads(provmem("dlq", "show", str(letter["offset"]), *where).stdout)
    assert "cello" not in shown["value_text"]  # the text is sealed, even in a dead letter

    missing = provmem("dlq", "redrive", "999", *where)
    assert missing.returncode == 2 and "not found" in missing.stderr
    done = provmem("dlq", "redrive", str(letter["offset"]), "--value-file", str(fixed), *where)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "re-drove" in done.stdout
    facts = json.loads(provmem("facts", "acme/support/alice", "--json", *where).stdout)
    assert [f["statement"] for f in facts] == ["Alice plays the cello."]
    assert "no dead letters" in provmem("dlq", "list", *where).stdout
    again = provmem("dlq", "redrive", str(letter["offset"]), *where)
    assert again.returncode == 2 and "already re-driven" in again.stderr
