"""Erasure: one request from its filing to its receipt, the cascade, the audits."""
