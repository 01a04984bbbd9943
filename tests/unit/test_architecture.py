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


# Roles. Beyond the layers, three kinds of module have a role the import graph shows:
# the composition roots build the adapters, a ports.py declares and builds nothing, and
# the front ends stand side by side, each over the service core. (The service core's
# side, memory/erasure/replay importing no front end, is an import-linter contract.)

#: Where the adapters of the ports live: their classes are what a composition root builds.
ADAPTER_PACKAGES = (
    "provmem.infra.log.kafka",
    "provmem.infra.log.embedded",
    "provmem.infra.stores",
    "provmem.infra.vectors",
    "provmem.infra.models",
    "provmem.infra.crypto.logged_keys",
)
#: The composition roots: every module of the runtimes' folder, and the two services that
#: build adapters of their own, each for a reason.
ROOT_PACKAGE = "provmem.streams.runtime"
NAMED_ROOTS = {
    "provmem.services.replay.run": "a replay builds its target generation's gate state",
    "provmem.services.cli.admin": "calibration loads the embedding model it fits against",
}


def _bound_names(module: str, path: Path, tree: ast.AST) -> dict[str, str]:
    """Each name a module binds by ``from x import name``: the qualified name it imports."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _resolve(module, path, node)
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{target}.{alias.name}"
    return bound


def _exports() -> dict[str, dict[str, str]]:
    """Per shipped module, the names it imports (so a re-export is followed to its source)."""
    return {
        module: _bound_names(module, path, ast.parse(path.read_text()))
        for module, path in _modules()
    }


def _origin(qualified: str, exports: dict[str, dict[str, str]]) -> str:
    """Where a name is defined, following re-exports (a door module's) to their source."""
    seen = set()
    while qualified not in seen:
        seen.add(qualified)
        module, _, name = qualified.rpartition(".")
        if name not in exports.get(module, {}):
            break
        qualified = exports[module][name]
    return qualified


def _adapters_built(
    module: str, path: Path, tree: ast.AST, exports: dict[str, dict[str, str]]
) -> list[str]:
    """The adapter classes a module calls (constructs); an exception raised is not one."""
    bound = _bound_names(module, path, tree)
    raised = {
        id(node.exc)
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
    }
    built = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in raised:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        if name[:1].isupper() and name in bound:
            origin = _origin(bound[name], exports)
            if origin.startswith(ADAPTER_PACKAGES):
                built.append(f"{module}:{node.lineno} builds {origin}")
    return built


def _builds_adapters(module: str) -> bool:
    return module == ROOT_PACKAGE or module.startswith(f"{ROOT_PACKAGE}.") or module in NAMED_ROOTS


def test_only_the_composition_roots_build_adapters() -> None:
    exports = _exports()
    offenders = [
        found
        for module, path in _modules()
        if _layer(module) != "infra" and not _builds_adapters(module)
        for found in _adapters_built(module, path, ast.parse(path.read_text()), exports)
    ]
    assert offenders == []


def test_the_adapter_check_sees_one_built_through_a_door() -> None:
    """A stream module that builds a Kafka log, imported through a re-exporting door, is
    caught; raising an adapter's exception is not building it."""
    exports = {"provmem.streams.door": {"Log": "provmem.infra.log.kafka.KafkaEventLog"}}
    source = "from provmem.streams.door import Log\nlog = Log('kafka:9092')\nraise Log()"
    path = ROOT / "streams" / "planted.py"
    built = _adapters_built("provmem.streams.planted", path, ast.parse(source), exports)
    assert built == ["provmem.streams.planted:2 builds provmem.infra.log.kafka.KafkaEventLog"]
    assert not _builds_adapters("provmem.streams.planted")
    assert _builds_adapters("provmem.streams.runtime.kafka")


#: What a ports module may not import: adapters, what builds them, the services above.
PORTS_NEVER_IMPORT = ("provmem.infra", ROOT_PACKAGE, "provmem.services")


def _ports_breaches(module: str, path: Path, tree: ast.Module) -> list[str]:
    """What a ports.py holds beyond declarations: its top level is imports, type aliases
    and constants, and classes that are Protocols, dataclasses, enums or exceptions; a
    function there is a private default of a port's field (``_nothing``), never public."""
    found = [
        f"{module} imports {imported}"
        for imported in _imports_in(module, path, tree)
        if imported.startswith(PORTS_NEVER_IMPORT) or imported.split(".")[0] in ADAPTER_LIBRARIES
    ]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith(
            "_"
        ):
            found.append(f"{module} defines function {node.name}")
        elif isinstance(node, ast.ClassDef) and not _declares(node):
            found.append(f"{module} defines class {node.name}")
    return found


def _declares(node: ast.ClassDef) -> bool:
    """A Protocol, a dataclass, an enum or an exception."""
    bases = {ast.unparse(base).rpartition(".")[2] for base in node.bases}
    decorators = {ast.unparse(d).partition("(")[0].rpartition(".")[2] for d in node.decorator_list}
    return (
        "Protocol" in bases
        or "dataclass" in decorators
        or any(base.endswith(("Enum", "Error", "Exception")) for base in bases)
    )


def _imports_in(module: str, path: Path, tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            found.add(_resolve(module, path, node))
    return found


def test_ports_modules_declare_and_build_nothing() -> None:
    offenders = [
        breach
        for module, path in _modules()
        if path.name == "ports.py"
        for breach in _ports_breaches(module, path, ast.parse(path.read_text()))
    ]
    assert offenders == []


def test_the_ports_check_sees_an_adapter_and_a_builder() -> None:
    source = (
        "from provmem.infra.vectors.sealed import SealedVectorIndex\n"
        "class Store(Protocol): ...\n"
        "class Cache:\n    pass\n"
        "def build(index): return SealedVectorIndex(index)\n"
        "def _default() -> None: return None\n"
    )
    path = ROOT / "streams" / "erasure" / "ports.py"
    breaches = _ports_breaches("provmem.streams.erasure.ports", path, ast.parse(source))
    assert breaches == [
        "provmem.streams.erasure.ports imports provmem.infra.vectors.sealed",
        "provmem.streams.erasure.ports defines class Cache",
        "provmem.streams.erasure.ports defines function build",
    ]


#: The front ends, side by side over the service core (services/memory, erasure, replay).
FRONT_ENDS = ("api", "cli", "mcp", "sdk", "adapters")
#: The crossings between front ends there are, each with its reason; any other fails.
CROSSINGS = {
    ("adapters", "provmem.services.sdk.facade"): "the framework adapters wrap the SDK facade",
    ("mcp", "provmem.services.sdk.facade"): "the MCP server drives the SDK facade",
    ("mcp", "provmem.services.sdk.facade_setup"): "the MCP server's embedded settings",
    ("cli", "provmem.services.api.app"): "`provmem serve` runs the HTTP API",
    ("cli", "provmem.services.api.auth"): "`provmem keys` manages the API's keys",
    ("mcp", "provmem.services.api.auth"): "the MCP server checks the API's keys",
    ("sdk", "provmem.services.api.changes"): "the embedded SDK streams changes as the API",
}


def _front_end(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["provmem", "services"] and len(parts) > 2 and parts[2] in FRONT_ENDS:
        return parts[2]
    return None


def _crossings(module: str, imported: set[str], known: set[str]) -> set[tuple[str, str]]:
    """(front end, module of another front end) for each module of another it imports."""
    own = _front_end(module)
    if own is None:
        return set()
    return {
        (own, name) for name in imported if name in known and _front_end(name) not in (None, own)
    }


def _front_end_crossings() -> set[tuple[str, str]]:
    modules = dict(_modules())
    known = set(modules)
    return {
        crossing
        for module, path in modules.items()
        for crossing in _crossings(module, _imports(module, path), known)
    }


def test_front_ends_import_each_other_only_where_named() -> None:
    crossings = _front_end_crossings()
    assert crossings - set(CROSSINGS) == set()
    assert set(CROSSINGS) - crossings == set(), "a named crossing is gone: drop it"


def test_the_front_end_check_sees_a_crossing() -> None:
    known = {"provmem.services.cli.app", "provmem.services.mcp.server", "provmem.services.memory"}
    imported = {"provmem.services.cli.app", "provmem.services.memory", "provmem.core.scope"}
    found = _crossings("provmem.services.mcp.server", imported, known)
    assert found == {("mcp", "provmem.services.cli.app")}
    assert found - set(CROSSINGS) == found
