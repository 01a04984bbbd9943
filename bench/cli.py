"""bench/cli: start-up of the ``provmem`` command and a query on a warm data folder,
against ``python -c pass`` in the same run.

    python -m bench.cli [--rounds 7] [--no-bytecode-cache]

Fills a temporary folder with the demo conversation (``provmem demo --data-dir``), runs
one query to warm the OS caches and the query model cache, then, round after round,
times three processes in turn: ``python -c pass`` (the interpreter's own start-up),
``provmem --help`` and ``provmem query <scope> <question> --data-dir <folder>``. Reports
the median and best wall-clock time and the median CPU time of each, the medians over the
baseline, and the host's load average (the cores are shared: wall-clock figures mean
little without it; CPU time less so), and, from one more run of each under
``python -X importtime``, how many modules it imports and the sum of their import times
(the count does not depend on the load). Targets: ``--help`` <= 0.5 s, a warm query <= 1 s.

The commands run as an installed package does, with Python's bytecode cache: the
``PYTHONDONTWRITEBYTECODE`` of a development shell is dropped for them, so the warm-up
writes the cache. ``--no-bytecode-cache`` keeps the environment as it is; in a checkout
without ``__pycache__`` folders every module of the project is then compiled from source
in each run (what earlier figures in docs/benchmarks.md measured).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROVMEM = [sys.executable, "-m", "provmem.services.cli"]
SCOPE = "demo/assistant/alice"
QUESTION = "Where did Alice move to?"


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, timeout=120, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


#: Runs ``-m module args`` or ``-c code``, then prints how many modules were loaded.
COUNTED = """
import atexit, runpy, sys
atexit.register(lambda: print("modules:", len(sys.modules), file=sys.stderr))
flag, target, *sys.argv = sys.argv[1:]
sys.argv.insert(0, target)
if flag == "-m":
    runpy.run_module(target, run_name="__main__", alter_sys=True)
else:
    exec(compile(target, "<string>", "exec"), {"__name__": "__main__"})
"""
#: One line of ``-X importtime``; a line two threads wrote into each other does not match.
IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+\d+ \| +\S+")


def imports(command: list[str], env: dict[str, str]) -> tuple[int, float]:
    """Modules in ``sys.modules`` when ``command`` exits, and the sum of the import times
    ``-X importtime`` reports (each module's own time, seconds)."""
    traced = [command[0], "-X", "importtime", "-c", COUNTED, *command[1:]]
    done = subprocess.run(traced, check=True, capture_output=True, text=True, env=env)
    lines = done.stderr.splitlines()
    counted = [int(x.split()[1]) for x in lines if x.startswith("modules:")]
    own = [int(m[1]) for x in lines if (m := IMPORT_LINE.fullmatch(x))]
    return counted[0], sum(own) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-bytecode-cache", action="store_true")
    options = parser.parse_args()
    env = dict(os.environ)
    if not options.no_bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="provmem-bench-cli-") as folder:
        data = ["--data-dir", str(Path(folder) / "data")]
        subprocess.run([*PROVMEM, "demo", *data], check=True, capture_output=True, env=env)
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "provmem --help": [*PROVMEM, "--help"],
            "provmem query (warm)": [*PROVMEM, "query", SCOPE, QUESTION, *data],
        }
        timed(commands["provmem query (warm)"], env)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(options.rounds):
            for name, command in commands.items():
                times[name].append(timed(command, env))
        counts = {name: imports(command, env) for name, command in commands.items()}
    cache = "off" if options.no_bytecode_cache else "on"
    print(f"{options.rounds} rounds, bytecode cache {cache}, load average {load()}")
    report(times, counts)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def report(
    times: dict[str, list[tuple[float, float]]], counts: dict[str, tuple[int, float]]
) -> None:
    """Wall-clock median and best, CPU median, the medians over the baseline, and the
    modules imported with the sum of their import times."""
    base_wall = statistics.median(w for w, _ in times["python -c pass"])
    base_cpu = statistics.median(c for _, c in times["python -c pass"])
    print(
        f"{'command':<22}{'wall med':>9}{'wall best':>10}{'cpu med':>9}{'+wall':>8}{'+cpu':>8}"
        f"{'modules':>9}{'import s':>10}"
    )
    for name, values in times.items():
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        best = min(w for w, _ in values)
        modules, seconds = counts[name]
        print(
            f"{name:<22}{wall:>9.3f}{best:>10.3f}{cpu:>9.3f}"
            f"{wall - base_wall:>8.3f}{cpu - base_cpu:>8.3f}{modules:>9}{seconds:>10.3f}"
        )


if __name__ == "__main__":
    main()
