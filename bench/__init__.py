"""Benchmarks: each prints absolute figures and a ratio to a baseline measured in the same run."""
