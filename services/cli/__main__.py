"""``python -m provmem.services.cli``: the ``provmem`` command."""

from provmem.services.cli.app import main

main()
