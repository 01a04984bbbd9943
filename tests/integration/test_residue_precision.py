"""An erasure audit a compliance officer can trust (issue 30, item 3): a finding means
content of the erased subject, and nothing else. Tests that can fail both ways.

Clean: a 3-turn and a ~370-turn subject (varied chat turns from bench/chatgen) erased
with ``provmem erase SCOPE --subject`` exit 0 with 0 findings, the receipt lists the
evidence and facts that went (keyed fingerprints of their ids) and ``provmem audit
erasure`` agrees and names them. Before, a mark of a
common word ("name") met log.db's schema text and the 3-turn erasure exited 1; the
369-turn one found 50 false hits (SQLite schema, Qdrant config keys, an earlier
receipt's field names, float bytes of vector files).

Planted: a copy of an erased quote left in a file of the data folder, in Redis (Kafka
runtime) or on a log topic (both runtimes) is found, reported with its store, location,
offset and the term's keyed fingerprint (never the quote), and fails the receipt.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.chatgen import generate
from provmem import Memory
from provmem.core.ports import Append
from provmem.infra.log.sealed import raw_log
from provmem.infra.stores.redis_client import redis_client
from provmem.services.erasure.subject import erasure_request
from tests.harness import Runtime, said

SUBJECT = "default/default/zed"
QUOTE = "My favourite food is ramen with extra chili oil."
THREE = [
    QUOTE,
    "I work as a nurse at the city hospital.",
    "My sister Ana has a cat called Pimenta.",
]


def chat_turns(count: int) -> list[str]:
    """``count`` varied turns of ordinary chats (users' and assistants' alike)."""
    return [t["text"] for chat in generate(7, 16) for t in chat["turns"]][:count]


def provmem(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "provmem.services.cli", *args, "--data-dir", str(folder)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)


def remembered(folder: Path, texts: list[str]) -> None:
    memory = Memory(path=folder)
    try:
        for start in range(0, len(texts), 50):
            batch = [{"role": "user", "content": t} for t in texts[start : start + 50]]
            memory.add(batch, user_id="zed", session_id="s1", strict=False)
    finally:
        memory.close()


def erased(folder: Path) -> tuple[int, dict[str, Any]]:
    """``provmem erase SUBJECT --subject``: its exit code and receipt."""
    run = provmem(folder, "erase", SUBJECT, "--subject", "--json")
    receipt: dict[str, Any] = json.loads(run.stdout)
    return run.returncode, receipt


def audited(folder: Path, request_id: str) -> tuple[int, dict[str, Any]]:
    run = provmem(folder, "audit", "erasure", request_id)
    report: dict[str, Any] = json.loads(run.stdout)
    return run.returncode, report


@pytest.mark.parametrize("turns", [3, 370])
def test_a_clean_subject_erasure_exits_0_with_no_finding(tmp_path: Path, turns: int) -> None:
    texts = THREE if turns == 3 else chat_turns(turns)
    remembered(tmp_path, texts)
    code, receipt = erased(tmp_path)
    assert (code, receipt["residue_found"]) == (0, 0), receipt
    assert receipt["evidence_erased"] >= min(turns, 300) and receipt["facts_erased"] > 0
    code, report = audited(tmp_path, receipt["request_id"])
    assert (code, report["total"], report["findings"]) == (0, 0, []), report
    assert len(report["erased"]["evidence_ids"]) == receipt["evidence_erased"]
    assert len(report["erased"]["fact_ids"]) == receipt["facts_erased"]
    listed = (len(receipt["erased_evidence"]), len(receipt["erased_facts"]))  # fingerprints
    assert listed == (receipt["evidence_erased"], receipt["facts_erased"]), receipt
    assert not {*report["erased"]["evidence_ids"]} & {*receipt["erased_evidence"]}


def test_a_planted_copy_of_an_erased_quote_in_the_folder_fails_the_receipt(
    tmp_path: Path,
) -> None:
    remembered(tmp_path, THREE)
    planted = tmp_path / "exports" / "notes.txt"
    planted.parent.mkdir()
    planted.write_text(f"copied by hand: {QUOTE.upper()}\n")
    code, receipt = erased(tmp_path)
    assert code == 1 and receipt["residue_found"] > 0, receipt
    code, report = audited(tmp_path, receipt["request_id"])
    assert code == 1 and report["residue"]["bytes_files"] > 0, report
    where = {(f["store"], f["location"], f["kind"]) for f in report["findings"]}
    assert ("files", "exports/notes.txt", "span") in where, report
    assert all(len(f["term"]) == 32 and f["offset"] >= 16 for f in report["findings"])
    assert "ramen" not in json.dumps(report).lower()  # the term is a keyed fingerprint
    planted.unlink()
    assert audited(tmp_path, receipt["request_id"])[0] == 0  # nothing else was found


async def test_a_planted_quote_in_redis_or_on_a_topic_fails_the_receipt(runtime: Runtime) -> None:
    """Kafka: a copy in a Redis key of the deployment; both runtimes: a copy on a topic
    of the log (the dead letters, which the audit reads record by record)."""
    memory, settings, scope = runtime.memory, runtime.settings, "acme/support/alice"
    await memory.publish([said("a0", QUOTE, 0, scope), said("a1", THREE[1], 1, scope)])

    async def derived() -> bool:
        return await runtime.caught_up() and bool(await memory.facts(scope))

    await runtime.settle(derived)
    names = memory.components.names
    copy = Append(0, None, f"exported: {QUOTE}".encode())
    await raw_log(memory.components.log).append(names.dead_letters, [copy])
    if settings.runtime == "kafka":
        client = redis_client(settings.redis_url)
        await client.set(f"{settings.redis_prefix}:exports:alice", QUOTE.lower())
        await client.aclose()
    receipt = await runtime.erase(erasure_request(scope, [], None, True))
    wanted = 2 if settings.runtime == "kafka" else 1  # the topic, and Redis
    assert receipt.residue_found >= wanted, receipt
