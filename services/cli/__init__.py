"""The ``provmem`` command line: Typer sub-apps composed in :mod:`.app`, shared options
in :mod:`.options`."""
