"""``python -m provmem.services.cli``: the ``provmem`` command."""

from .app import main

main()
