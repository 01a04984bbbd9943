"""A logged failure shows its innermost frames, never their local variables (they may
hold what a user said): the CLI's and the SDK's structlog configurations alike."""

from __future__ import annotations

import logging

import pytest
import structlog

from provmem.services.memory.logs import FRAMES, configure_logging, short_traceback
from provmem.services.sdk.facade_setup import configure_logging as sdk_logging

SAID = "Quillfeather"


def _fail(depth: int) -> None:
    said = SAID  # a local variable holding what a user said
    if depth:
        _fail(depth - 1)
    raise RuntimeError(f"failed after {len(said)} characters")


def _logged_failure() -> None:
    try:
        _fail(20)  # deeper than FRAMES
    except RuntimeError:
        structlog.get_logger("provmem.test").exception("erasure.failed", request_id="er_1")


def test_the_cli_logs_a_failure_without_locals(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("INFO")
    _logged_failure()
    logged = capsys.readouterr().err
    assert "erasure.failed" in logged and "RuntimeError: failed after 12" in logged
    assert SAID not in logged
    assert 0 < logged.count('  File "') <= FRAMES  # of 22


@pytest.mark.parametrize("json", [False, True])
def test_the_sdk_logs_a_failure_without_locals(
    json: bool, caplog: pytest.LogCaptureFixture
) -> None:
    sdk_logging("INFO", json=json)
    with caplog.at_level(logging.INFO, logger="provmem"):
        _logged_failure()
    logged = caplog.text
    assert "erasure.failed" in logged and "RuntimeError" in logged
    assert SAID not in logged


def test_a_short_traceback_keeps_the_innermost_frames_of_each_chained_error() -> None:
    try:
        try:
            _fail(30)
        except RuntimeError as error:
            raise ValueError("while erasing") from error
    except ValueError as error:
        text = short_traceback((ValueError, error, error.__traceback__))
    assert text.count('  File "') <= 2 * FRAMES and "ValueError: while erasing" in text
    assert SAID not in text
