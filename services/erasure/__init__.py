"""Erasure on the service side: subject erasure requests and organisation/project fan-out."""
