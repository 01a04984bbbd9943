"""The demo conversation: a few turns that show facts, duplicates and provenance."""

from __future__ import annotations

from typing import Any

DEMO_SCOPE = "demo/assistant/alice"

_TURNS = [
    ("Alice", "Hi there! I just moved to Lisbon for a new job at Tidewater Labs."),
    ("assistant", "Congratulations on the move! How are you settling in?"),
    ("Alice", "Pretty well. My dog Biscuit loves the beach near Cascais."),
    ("Alice", "I am allergic to peanuts, so please never suggest satay."),
    ("Alice", "I just moved to Lisbon for a new job at Tidewater Labs."),
    ("Alice", "My sister Joana visits every December."),
]

DEMO_QUESTIONS = [
    "Where did Alice move to?",
    "What is Alice allergic to?",
    "What is the name of my dog?",
]


def demo_turns() -> list[dict[str, Any]]:
    """The demo turns as publishable objects, one minute apart."""
    return [
        {
            "scope": DEMO_SCOPE,
            "speaker": speaker,
            "text": text,
            "turn_id": f"demo-{index}",
            "session": "s1",
            "captured_at": f"2026-05-08T13:{index:02d}:00+00:00",
        }
        for index, (speaker, text) in enumerate(_TURNS)
    ]
