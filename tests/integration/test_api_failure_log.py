"""A failure inside the API is logged as one line and a short traceback, with no local
variables (issue 30, item 1): the server's log is a file no erasure reaches.

Before, an erasure that failed inside a running ``provmem api`` was logged as a
traceback of thousands of lines with every frame's local variables (structlog's rich
renderer), and they wrote the turns' text into the log in plaintext.
"""

from __future__ import annotations

from pathlib import Path

from tests.integration.test_erasure_locks import FIRST, accepted
from tests.integration.test_findings_live_api import api_process, embedded

QUOTE = "My name is Zed and I collect Quillfeather pens in Vexmorrow."


async def test_a_failed_erasure_logs_one_line_and_no_local_variables(tmp_path: Path) -> None:
    settings = embedded(tmp_path).model_copy(update={"fault": "erasure.before_receipt/raise"})
    async with api_process(settings, tmp_path) as live, live.client() as client:
        await accepted(client, FIRST, QUOTE, 1)
        answer = await client.post("/v1/erasures", json={"scope": FIRST, "subject": True})
        assert answer.status_code == 500 and answer.json() == {"detail": "internal error"}
        assert (await client.get("/v1/health")).status_code == 200  # it goes on serving
    logged = (tmp_path / "api.log").read_text(errors="replace")
    failed = [line for line in logged.splitlines() if "api.failed" in line]
    assert len(failed) == 1 and "InjectedFault" in logged, logged[-3000:]
    assert "Traceback" in logged and len(logged.splitlines()) < 80, logged[-3000:]
    for said in ("quillfeather", "vexmorrow", "collect"):
        assert said not in logged.lower(), logged[-3000:]
    assert "locals" not in logged
