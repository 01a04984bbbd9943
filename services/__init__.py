"""Entry points and the service layer: settings, bootstrap, memory service, CLI."""
