"""The installed package's tree, drawn from the source folders: ``build/tree/provmem``.

    python -m tests.support.package_tree [build/tree]

pyproject.toml maps the top-level folders onto ``provmem.*`` (``core/`` is
``provmem.core``, ``streams/`` is ``provmem.streams``...). An installed wheel has one
``provmem/`` folder; the source tree has six. Tools that find modules by walking folders
(mypy, grimp and import-linter, pydeps) need the wheel's shape: this builds it from
symbolic links, so every path they report is a source file and nothing is copied.
"""

from __future__ import annotations

import shutil
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def package_dirs() -> dict[str, Path]:
    """pyproject's ``package-dir``: package name -> source folder."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    mapping = config["tool"]["setuptools"]["package-dir"]
    return {name: ROOT / folder for name, folder in mapping.items()}


def build(target: Path) -> Path:
    """Draw ``target/provmem`` as the wheel would lay it out; return the package folder."""
    mapping = package_dirs()
    package = target / "provmem"
    if target.exists():
        shutil.rmtree(target)
    package.mkdir(parents=True)
    for entry in mapping["provmem"].iterdir():
        (package / entry.name).symlink_to(entry)
    for name, folder in mapping.items():
        if name != "provmem":
            (package / name.split(".", 1)[1]).symlink_to(folder, target_is_directory=True)
    return package


if __name__ == "__main__":
    print(build(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "tree")))
