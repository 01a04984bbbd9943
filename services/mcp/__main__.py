"""``python -m provmem.services.mcp``: the same as ``provmem mcp``."""

from provmem.services.mcp.cli import main

main()
