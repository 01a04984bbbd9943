"""The pure core imports no adapter library and no outer layer (also checked by import-linter)."""

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
FORBIDDEN = {
    "faust",
    "aiokafka",
    "redis",
    "qdrant_client",
    "qdrant_edge",
    "fastembed",
    "sqlite3",
    "structlog",
}
OUTER = {"infra", "streams", "services"}


def _imports(path: Path) -> set[tuple[int, str]]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {(0, alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            found.add((node.level, node.module or ""))
    return found


def test_core_imports_no_adapter_library_or_outer_layer() -> None:
    offenders = []
    for path in CORE.rglob("*.py"):
        for level, module in _imports(path):
            top = module.split(".")[0]
            if (level == 0 and top in FORBIDDEN | {"provmem"}) or (level > 1 and top in OUTER):
                offenders.append(f"{path.name}: {module}")
    assert offenders == []
