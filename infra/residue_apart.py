"""The byte scan of a data folder, run in a child process of its own.

Closing any file descriptor of a SQLite database drops every POSIX lock the process
holds on that file (sqlite.org, "How To Corrupt An SQLite Database File", 2.2): another
process then believes it is alone, checkpoints and deletes the WAL, and every later
commit of this process goes to a deleted file. A process that holds connections to the
folder's databases (an API, an MCP server, an erasure inside either) therefore never
open()s their files to read their bytes: a child process does, which holds no
connection and no lock, so its opens and closes touch none of the parent's. The same
holds for the vector index's folder, which its engine keeps locked.

    hits = scanner.scan_folder(data_dir)                      # every file
    hits = scanner.scan_folder(data_dir, (".db", ".db-wal"))  # the SQLite files only

(infra/residue.py ``scan_apart`` starts this module as ``python -m`` and reads its answer.)

The key and the marks go to the child on its stdin (never on its command line, which
any user of the machine can read); the hits come back on its stdout as JSON.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

from provmem.infra.residue import ErasedMarks, ResidueScanner

__all__ = ["main"]


def main() -> None:
    """The child: read the request on stdin, scan, write the hits on stdout."""
    request = json.loads(sys.stdin.buffer.read())
    scanner = ResidueScanner(bytes.fromhex(request["key"]), ErasedMarks.from_json(request["marks"]))
    folder, suffixes = Path(request["folder"]), tuple(request["suffixes"])
    skip, free_only = tuple(request.get("skip", ())), bool(request.get("free_only"))
    hits = scanner.scan_folder_here(folder, suffixes, skip, free_only)
    sys.stdout.write(json.dumps([asdict(hit) for hit in hits]))


if __name__ == "__main__":
    main()
