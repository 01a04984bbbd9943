"""Test tooling, not shipped: the Tansu broker launcher, the testbed, the worker process."""
