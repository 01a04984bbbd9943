"""A speaker's id written as the name a sentence gives it ("ann" -> "Ann")."""

from __future__ import annotations

import re

USER = "the user"
_ID_LIKE = re.compile(r"[\d_@]|^[^A-Za-z]")


def proper_name(name: str) -> str:
    """A name as a sentence writes it: an all-lower-case name ("sam", an id used as the
    speaker) gets its capitals ("Sam"); any other spelling is the speaker's own. An id that
    is no name ("u_1042", "cust7", "a.b@example.com") is written "the user"."""
    if _ID_LIKE.search(name):
        return USER
    return name.title() if name.islower() else name
