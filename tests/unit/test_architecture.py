"""The import structure: services -> streams -> infra -> core, never back; a pure core.

Each top-level folder is one layer of the ``provmem`` package (``core/`` is
``provmem.core`` and so on, see pyproject's package-dir). A module may import its own
layer and the layers below it, never one above; the core imports no adapter library;
the shipped package imports nothing from ``tests``; imports (deferred ones too) form
no cycle. The runtimes are chosen in their composition roots (``streams/runtime/``):
outside them at most two places compare ``settings.runtime`` with a runtime's name.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("core", "infra", "streams", "services")  # lowest first
SHIPPED = (*LAYERS, "schemas")
ROOTS = ROOT / "streams" / "runtime"  # the composition roots choose the runtime
MAX_RUNTIME_BRANCHES = 2  # outside the roots
ADAPTER_LIBRARIES = {
    "faust",
    "aiokafka",
    "redis",
    "qdrant_client",
    "qdrant_edge",
    "fastembed",
    "sqlite3",
    "structlog",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if parts[:2] == ["services", "root"]:  # the root package ``provmem`` (package-dir)
        parts = parts[2:]
    return ".".join(["provmem", *parts])


def _modules() -> Iterator[tuple[str, Path]]:
    for folder in SHIPPED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield _module_name(path), path


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imports(module: str, path: Path) -> set[str]:
    """Absolute names of what a module imports anywhere in it, deferred imports too
    (``from pkg import mod`` counts as ``pkg.mod``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, path, node)
            found.add(target)
            found |= {f"{target}.{alias.name}" for alias in node.names}
    return found


def _layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if parts[0] == "provmem" and len(parts) > 1 and parts[1] in LAYERS else None


def test_every_layer_imports_only_its_own_and_the_layers_below() -> None:
    offenders = []
    for module, path in _modules():
        own = _layer(module)
        if own is None:
            continue
        for imported in _imports(module, path):
            other = _layer(imported)
            if other is not None and LAYERS.index(other) > LAYERS.index(own):
                offenders.append(f"{module} imports {imported}")
    assert offenders == []


def test_core_imports_no_adapter_library() -> None:
    offenders = [
        f"{module} imports {imported}"
        for module, path in _modules()
        if _layer(module) == "core"
        for imported in _imports(module, path)
        if imported.split(".")[0] in ADAPTER_LIBRARIES
    ]
    assert offenders == []


def test_shipped_package_imports_no_test_tooling() -> None:
    offenders = [
        f"{module} imports {imported}"
        for module, path in _modules()
        for imported in _imports(module, path)
        if imported.split(".")[0] == "tests"
    ]
    assert offenders == []


def test_imports_form_no_cycle() -> None:
    modules = dict(_modules())
    graph = {
        module: sorted(name for name in _imports(module, path) if name in modules)
        for module, path in modules.items()
    }
    cycles = _cycles(graph)
    assert cycles == []


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """One example cycle per strongly connected group found by a depth-first walk."""
    done: set[str] = set()
    found: list[list[str]] = []

    def walk(node: str, trail: list[str]) -> None:
        if node in trail:
            found.append([*trail[trail.index(node) :], node])
            return
        if node in done:
            return
        for target in graph[node]:
            walk(target, [*trail, node])
        done.add(node)

    for node in graph:
        walk(node, [])
    return found


def test_every_package_folder_is_declared_in_pyproject() -> None:
    declared = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    folders = {module for module, path in _modules() if path.name == "__init__.py"}
    assert folders - declared == set()


def test_the_checks_see_a_backward_import() -> None:
    """The layer check resolves relative imports: ``...services`` from streams is caught."""
    path = ROOT / "streams" / "runtime" / "components.py"
    node = ast.parse("from ...services.memory import memory").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _layer(_resolve("provmem.streams.runtime.components", path, node)) == "services"


def _runtime_branches(tree: ast.AST) -> int:
    """Comparisons of a ``runtime`` attribute with a string (``settings.runtime ==
    "kafka"``, ``!=``, ``in (...)``)."""
    count = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = any(isinstance(side, ast.Attribute) and side.attr == "runtime" for side in sides)
        literal = any(
            isinstance(c, ast.Constant) and isinstance(c.value, str)
            for side in sides
            for c in ast.walk(side)
        )
        count += named and literal
    return count


def test_runtime_branches_live_in_the_composition_roots() -> None:
    found = {
        module: branches
        for module, path in _modules()
        if ROOTS not in path.parents
        and (branches := _runtime_branches(ast.parse(path.read_text())))
    }
    assert sum(found.values()) <= MAX_RUNTIME_BRANCHES, found


def test_the_runtime_branch_count_sees_a_branch() -> None:
    source = 'if settings.runtime == "kafka": pass\nok = c.settings.runtime != "embedded"'
    assert _runtime_branches(ast.parse(source)) == 2
    assert _runtime_branches(ast.parse("if runtime.derives_in_workers: pass")) == 0
