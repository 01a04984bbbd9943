"""Stream wiring: the topic registry, the pipeline handlers and the two runtimes."""
