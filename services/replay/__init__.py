"""Replay: rebuild every view from the log into a new generation, check it, switch it in."""
