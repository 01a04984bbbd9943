"""No personal plaintext at rest: after publishing, no word of the turns (nor a speaker's
name) is readable in the views, the vector index or Redis, on either runtime.

The residue scanner (infra/residue.py) tokenizes every byte of every file under the data
folder and every Redis key and value under the deployment's prefix, and looks for the
turns' distinctive words and numbers by keyed fingerprint.
"""

from __future__ import annotations

import os
from pathlib import Path

import redis.asyncio as aioredis

from provmem.infra.residue import Hit, ResidueScanner, audit_key, marks_of
from tests.conftest import REDIS_URL
from tests.harness import Runtime, said

SCOPE = "acme/support/u4711"  # the user id names nobody: the scope is an identifier
SAYS = [
    "My phone number is 5550142 and I live in Quetzalbrook.",
    "My cat Zanzibarite loves the Vorpalfield bakery.",
    "I work at Globexoria as a nurse since 2019.",
    "Actually, I moved to Porthmoria last month.",
]
SPEAKER = "Wilhelmina"
KEY = audit_key(os.urandom(32))
#: Files that hold the log (turns are sealed there; fact changes are not yet: see
#: docs/ARCHITECTURE.md, "What is sealed") and the master key file.
NOT_VIEWS = ("log.db", "master.key")


def _plaintext_hits(hits: list[Hit]) -> list[Hit]:
    return [h for h in hits if not h.location.startswith(NOT_VIEWS)]


async def test_no_word_of_the_turns_is_readable_in_views_index_or_redis(runtime: Runtime) -> None:
    memory = runtime.memory
    turns = [said(f"t{i}", text, i, SCOPE) | {"speaker": SPEAKER} for i, text in enumerate(SAYS)]
    await memory.publish(turns)
    await memory.settle()
    facts = await memory.facts(SCOPE)
    assert len(facts) >= 3
    recollection = await memory.query(SCOPE, "Where does Wilhelmina live?")
    assert recollection is not None  # the sealed views and index still answer

    scanner = ResidueScanner(KEY, marks_of(KEY, [], [*SAYS, SPEAKER], []))
    assert len(scanner.marks.words) >= 12
    found = scanner.scan_folder(runtime.settings.data_dir)
    if runtime.settings.runtime == "kafka":
        client = aioredis.Redis.from_url(REDIS_URL)
        found += await scanner.scan_redis(client, runtime.settings.redis_prefix)
        await client.aclose()
    assert _plaintext_hits(found) == []


async def test_the_scanner_reads_plaintext_where_there_is_some(tmp_path: Path) -> None:
    """The check above can fail: the same scan finds the words in a plain file."""
    (tmp_path / "plain.json").write_text(f'{{"statement": "{SAYS[0]}", "speaker": "{SPEAKER}"}}')
    scanner = ResidueScanner(KEY, marks_of(KEY, [], [*SAYS, SPEAKER], []))
    assert len(scanner.scan_folder(tmp_path)) == 6  # phone number 5550142 live quetzalbrook, name
