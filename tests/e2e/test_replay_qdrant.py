"""``provmem replay`` in the shipped stack (docker-compose.yml sets PROVMEM_QDRANT_URL).

On 96a0921 every replay with a Qdrant server was refused ("not wired yet"), so the
README's recovery after a Redis loss did not run in that stack. Now ``--from
fact-changes`` runs (it re-writes the collection's points: docs/replay.md) and ``--from
turns`` runs too (into a collection of its own), refused only beside running workers.
No Qdrant server can run
here (no binary is installable: /work/shared/design.md), so the server is an address
nothing listens on: the replay gets as far as reaching it and says so in one line."""

from __future__ import annotations

import subprocess
import sys

from provmem.config import Settings
from tests.harness import settings_env

COMMAND = [sys.executable, "-m", "provmem.services.cli", "replay", "--runtime", "kafka"]
NOWHERE = "http://127.0.0.1:1"


def _replay(settings: Settings, *args: str) -> tuple[int, str]:
    env = {**settings_env(settings), "PROVMEM_QDRANT_URL": NOWHERE}
    run = subprocess.run([*COMMAND, *args], env=env, capture_output=True, text=True, timeout=300)
    out = (run.stdout + run.stderr).strip()
    assert "Traceback" not in out, out
    # the error is the one line the CLI prints; qdrant-client may warn, from its own
    # thread and so before or after it, that it could not check the server's version
    said = [
        line
        for line in out.splitlines()
        if line and not line[0].isspace() and "Warning" not in line  # the warning's 2 lines
    ]
    assert len(said) == 1, out
    return run.returncode, said[0]


def test_a_replay_from_fact_changes_runs_with_a_qdrant_server(kafka_settings: Settings) -> None:
    code, out = _replay(kafka_settings)
    assert "not wired" not in out, out
    assert code == 2 and f"Qdrant {NOWHERE}: unreachable" in out, out


def test_a_replay_from_turns_runs_with_a_qdrant_server(kafka_settings: Settings) -> None:
    """No longer refused: it re-derives into a collection of its own (docs/replay.md)."""
    code, out = _replay(kafka_settings, "--from", "turns")
    assert "from turns with a Qdrant server" not in out, out
    assert code == 2 and f"Qdrant {NOWHERE}: unreachable" in out, out
