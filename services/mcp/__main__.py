"""``python -m provmem.services.mcp``: the same as ``provmem mcp``."""

from .cli import main

main()
