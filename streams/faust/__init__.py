"""The distributed runtime's faust-streaming app, its compat shim and health."""
