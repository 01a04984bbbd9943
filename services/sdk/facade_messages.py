"""Chat messages as provmem turns: a string, OpenAI- or Anthropic-style messages (role
``user``/``assistant``/``system``/``tool``, content a string or a list of parts), or
provmem turns (``speaker`` and ``text``). Pure: no I/O.

>>> turns = to_turns([{"role": "user", "content": "I moved to Lisbon."}],
...                  Context("acme/app/alice", "alice", None, _AT))
>>> turns[0]["speaker"], turns[0]["text"]
('alice', 'I moved to Lisbon.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from provmem.core.capture import TurnInput

Role = Literal["user", "assistant", "system", "tool"]
ROLES: dict[str, Role] = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "system": "system",
    "developer": "system",  # OpenAI's newer name for system instructions
    "tool": "tool",
    "function": "tool",  # OpenAI's older name for tool results
}
_TEXT_PARTS = {"text", "input_text", "output_text"}
_AT = datetime(2026, 5, 8, 13, 56, tzinfo=UTC)


@dataclass(frozen=True)
class Context:
    """Where the messages of one ``add`` go and when they were said."""

    scope: str
    user_name: str
    session: str | None
    at: datetime
    agent: str | None = None


def capture_time(at: datetime | str | None) -> datetime:
    """``at`` as an aware datetime (now when None); ValueError names ``at``."""
    if at is None:
        return datetime.now(UTC)
    when = datetime.fromisoformat(at) if isinstance(at, str) else at
    if when.tzinfo is None:
        raise ValueError("at: needs a time zone (e.g. datetime.now(UTC) or '...+00:00')")
    return when


def to_turns(messages: Any, context: Context) -> list[dict[str, Any] | None]:
    """One turn per message, in order; None for a message without text (an image, a
    tool call): it is reported as skipped, not published. Each message is captured one
    microsecond after the previous one, so identical lines stay distinct turns."""
    items = [messages] if isinstance(messages, str | Mapping | TurnInput) else list(messages)
    return [
        _turn(item, f"messages[{i}]", context, context.at + timedelta(microseconds=i))
        for i, item in enumerate(items)
    ]


def _turn(item: Any, where: str, context: Context, at: datetime) -> dict[str, Any] | None:
    if isinstance(item, str):
        item = {"role": "user", "content": item}
    if isinstance(item, TurnInput):
        return item.model_dump(mode="json", exclude_none=True)
    if not isinstance(item, Mapping):
        raise TypeError(f"{where}: expected a string, a chat message or a turn, got {item!r}")
    if "role" not in item and ("speaker" in item or "text" in item):
        return _provmem_turn(item, context, at)
    return _chat_turn(item, where, context, at)


def _provmem_turn(item: Mapping[str, Any], context: Context, at: datetime) -> dict[str, Any]:
    """A provmem turn as given; scope, time and session default to the call's."""
    defaults: dict[str, Any] = {"scope": context.scope, "captured_at": at.isoformat()}
    if context.session is not None:
        defaults["session"] = context.session
    if context.agent is not None:
        defaults["agent"] = context.agent
    return {**defaults, **item}


def _chat_turn(
    item: Mapping[str, Any], where: str, context: Context, at: datetime
) -> dict[str, Any] | None:
    role = ROLES.get(str(item.get("role", "")).lower())
    if role is None:
        known = ", ".join(sorted(set(ROLES.values())))
        raise ValueError(f"{where}.role: {item.get('role')!r} is not one of {known}")
    role, content = _tool_results_apart(role, item.get("content"))
    text = message_text(content, f"{where}.content")
    if not text.strip():
        return None
    turn: dict[str, Any] = {
        "scope": context.scope,
        "speaker": speaker(role, item.get("name"), context.user_name),
        "text": text,
        "captured_at": at.isoformat(),
    }
    if context.session is not None:
        turn["session"] = context.session
    if context.agent is not None:
        turn["agent"] = context.agent
    return with_role(turn, role)


def _tool_results_apart(role: Role, content: Any) -> tuple[Role, Any]:
    """A user message carrying tool results (Anthropic's ``tool_result`` parts) is a tool
    turn when it holds nothing else, else the user's text without them: a tool's answer
    is never the user's evidence."""
    if role != "user" or not isinstance(content, Sequence) or isinstance(content, str):
        return role, content
    results = [p for p in content if isinstance(p, Mapping) and p.get("type") == "tool_result"]
    if not results:
        return role, content
    said = [p for p in content if not (isinstance(p, Mapping) and p.get("type") == "tool_result")]
    if message_text(said, "content").strip():
        return role, said
    return "tool", results


def speaker(role: Role, name: Any, user_name: str) -> str:
    """Who said it: the user's turns are the user's, the assistant's the agent's."""
    if isinstance(name, str) and name.strip():
        return name.strip()
    return user_name if role == "user" else role


def with_role(turn: dict[str, Any], role: Role) -> dict[str, Any]:
    """THE one place where a message's role reaches its turn.

    TurnRecorded v2 adds an optional ``role`` (user|assistant|system|tool). Until the
    capture model accepts it, the role only chooses the speaker (see :func:`speaker`);
    once ``TurnInput`` has the field, it is passed through from here, unchanged."""
    if "role" in TurnInput.model_fields:
        turn["role"] = role
    return turn


def message_text(content: Any, where: str) -> str:
    """The text of a message's content: a string, or the text parts of a list (images,
    audio, files and tool calls carry no text to remember)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        content = [content]
    if not isinstance(content, Sequence):
        raise TypeError(f"{where}: expected a string or a list of parts, got {content!r}")
    texts = (_part_text(part, f"{where}[{i}]") for i, part in enumerate(content))
    return "\n".join(text for text in texts if text.strip())


def _part_text(part: Any, where: str) -> str:
    if isinstance(part, str):
        return part
    if not isinstance(part, Mapping):
        raise TypeError(f"{where}: expected a content part (a dict), got {part!r}")
    kind = part.get("type")
    if kind in _TEXT_PARTS:
        return _text_of(part.get("text"), f"{where}.text")
    if kind == "tool_result":  # Anthropic: a tool's answer inside a user message
        return message_text(part.get("content"), f"{where}.content")
    return ""


def _text_of(text: Any, where: str) -> str:
    """A text part's words: a string, or OpenAI Assistants' ``{"value": ...}``."""
    if isinstance(text, Mapping) and "value" in text:
        text = text["value"]
    if text is None or isinstance(text, str):
        return text or ""
    raise TypeError(f"{where}: expected a string, got {type(text).__name__}")


__all__ = ["ROLES", "Context", "Role", "capture_time", "message_text", "to_turns", "with_role"]
