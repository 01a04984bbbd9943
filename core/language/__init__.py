"""Language: English text read as clauses, times, measures and cues (no extraction, no facts)."""
