"""bench/cli: start-up of the ``provmem`` command and a query on a warm data folder,
against ``python -c pass`` in the same run.

    python -m bench.cli [--rounds 7]

Fills a temporary folder with the demo conversation (``provmem demo --data-dir``), runs
one query to warm the OS caches and the query model cache, then, round after round,
times three processes in turn: ``python -c pass`` (the interpreter's own start-up),
``provmem --help`` and ``provmem query <scope> <question> --data-dir <folder>``. Reports
the median and best wall-clock time of each, the medians over the baseline, and the host's
load average (the cores are shared: wall-clock figures mean little without it). Targets:
``--help`` <= 0.5 s, a warm query <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROVMEM = [sys.executable, "-m", "provmem.services.cli"]
SCOPE = "demo/assistant/alice"
QUESTION = "Where did Alice move to?"


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory(prefix="provmem-bench-cli-") as folder:
        data = ["--data-dir", str(Path(folder) / "data")]
        subprocess.run([*PROVMEM, "demo", *data], check=True, capture_output=True)
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "provmem --help": [*PROVMEM, "--help"],
            "provmem query (warm)": [*PROVMEM, "query", SCOPE, QUESTION, *data],
        }
        timed(commands["provmem query (warm)"])
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                times[name].append(timed(command))
    report(times, rounds)


def report(times: dict[str, list[float]], rounds: int) -> None:
    baseline = statistics.median(times["python -c pass"])
    print(f"{rounds} rounds, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'command':<24}{'median s':>10}{'best s':>10}{'over baseline s':>18}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<24}{median:>10.3f}{min(values):>10.3f}{median - baseline:>18.3f}")


if __name__ == "__main__":
    main()
