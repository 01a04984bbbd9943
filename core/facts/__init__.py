"""Facts: the write gate, a scope's memory, contradictions and corrections."""
