"""The suite's per-file times, kept so that xdist starts the longest files first.

``--dist loadfile`` hands out whole files in collection order (with
``--no-loadscope-reorder``); the conftest orders files by the seconds recorded in
``durations.json`` (longest first), so the long Kafka files do not start last and make a
tail. Refresh the record from a run's JUnit XML::

    python -m pytest ... --junitxml=/tmp/suite.xml
    python -m tests.support.durations /tmp/suite.xml
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

RECORD = Path(__file__).with_name("durations.json")
#: Seconds assumed per test of a file the record does not know yet.
UNKNOWN_TEST_S = 1.0


def recorded() -> dict[str, float]:
    """File path (as pytest names it) -> seconds, from the record; empty without one."""
    if not RECORD.exists():
        return {}
    data: dict[str, float] = json.loads(RECORD.read_text())
    return data


def file_seconds(junit_xml: Path) -> dict[str, float]:
    """Seconds per test file (setup, call and teardown of each of its tests)."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ElementTree.parse(junit_xml).iter("testcase"):
        module = case.get("classname", "").split(".")
        while module and not module[-1].startswith("test_"):
            module.pop()  # a test class's name
        if module:
            seconds["/".join(module) + ".py"] += float(case.get("time", 0))
    return dict(seconds)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    times = file_seconds(Path(argv[0]))
    ordered = dict(sorted(times.items(), key=lambda item: -item[1]))
    RECORD.write_text(json.dumps({k: round(v, 1) for k, v in ordered.items()}, indent=1) + "\n")
    print(f"{len(ordered)} files, {sum(ordered.values()):.0f} s in all -> {RECORD}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
