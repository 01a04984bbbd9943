"""Event logs: the embedded SQLite log, Kafka, and sealing at the log boundary."""
