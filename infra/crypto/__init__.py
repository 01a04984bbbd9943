"""Crypto: envelope encryption, data keys, key rings, log keys, sealing."""
