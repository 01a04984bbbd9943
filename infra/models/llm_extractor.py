"""An optional LLM claim extractor for any OpenAI-compatible chat-completions endpoint.

Off by default (the rules extractor is). The model must quote the supporting text of each
claim verbatim; a claim whose quote cannot be found in the turn is dropped, and every
kept claim passes the same :func:`provmem.core.extraction.validation.validate_claim` as the rules'
claims, so an invented word sends it to review instead of memory.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import httpx

from provmem.core.claim import Claim, Slot
from provmem.core.events import SpeakerRole
from provmem.core.extraction.validation import validate_claim

PROMPT = """You extract long-term memory facts from one conversation turn.
Speaker: {speaker}. Time of the turn: {captured_at}.
Return JSON: {{"claims": [{{"statement": str, "quote": str, "slot": \
{{"subject": str, "attribute": str, "value": str}} | null, "negated": bool, \
"correction": bool}}]}}.
Rules: one atomic, self-contained statement per claim; write the speaker's name instead of
I/me/my; write absolute dates ("on 7 May 2023") instead of relative ones; use only words
from the turn, the speaker's name and dates; "quote" is the exact supporting text copied
verbatim from the turn; keep negations; no claims for greetings, questions or chit-chat.
Turn:
{text}"""


class LLMExtractionError(RuntimeError):
    """The endpoint failed or answered something that is not the expected JSON."""


class OpenAICompatibleExtractor:
    """Claims from ``POST {base_url}/chat/completions`` (JSON output, temperature 0)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 30.0,
        client: httpx.Client | None = None,
    ) -> None:
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._model = model
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.Client(timeout=timeout)
        self._headers = headers

    @property
    def version(self) -> str:
        return f"llm/{self._model}"

    def extract(
        self,
        text: str,
        *,
        speaker: str,
        captured_at: datetime,
        role: SpeakerRole = "user",
        participants: Sequence[str] = (),
    ) -> list[Claim]:
        if role != "user":
            return []  # the prompt asks for the speaker's facts: only a user's turn has them
        content = self._complete(text, speaker, captured_at)
        claims = [_claim(item, text) for item in _items(content)]
        return [
            validate_claim(claim, text, speaker=speaker, captured_at=captured_at)
            for claim in claims
            if claim is not None
        ]

    def _complete(self, text: str, speaker: str, captured_at: datetime) -> str:
        prompt = PROMPT.format(speaker=speaker, captured_at=captured_at.isoformat(), text=text)
        body = {
            "model": self._model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [{"role": "user", "content": prompt}],
        }
        try:
            response = self._client.post(self._url, json=body, headers=self._headers)
            response.raise_for_status()
            return str(response.json()["choices"][0]["message"]["content"])
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as error:
            raise LLMExtractionError(f"chat completion failed: {error}") from error


def _items(content: str) -> list[dict[str, Any]]:
    raw = re.sub(r"^```(?:json)?\s*|\s*```$", "", content.strip())
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as error:
        raise LLMExtractionError(f"not JSON: {content[:200]!r}") from error
    items = parsed.get("claims", []) if isinstance(parsed, dict) else parsed
    if not isinstance(items, list):
        raise LLMExtractionError("'claims' is not a list")
    return [item for item in items if isinstance(item, dict)]


def _claim(item: dict[str, Any], text: str) -> Claim | None:
    statement, quote = item.get("statement"), item.get("quote")
    if not isinstance(statement, str) or not isinstance(quote, str) or not statement.strip():
        return None
    span = locate(quote, text)
    if span is None:
        return None
    return Claim(
        statement=statement.strip(),
        spans=(span,),
        slot=_slot(item.get("slot")),
        negated=item.get("negated") is True,
        correction=item.get("correction") is True,
    )


def locate(quote: str, text: str) -> tuple[int, int] | None:
    """The span of ``quote`` in ``text``: exact, else ignoring case and runs of spaces."""
    quote = quote.strip().strip("\"'“”")
    if not quote:
        return None
    start = text.find(quote)
    if start >= 0:
        return start, start + len(quote)
    words = [re.escape(word) for word in quote.split()]
    match = re.search(r"\s+".join(words), text, re.I)
    return match.span() if match else None


def _slot(raw: object) -> Slot | None:
    if not isinstance(raw, dict):
        return None
    parts = [raw.get(name) for name in ("subject", "attribute", "value")]
    if not all(isinstance(part, str) and part.strip() for part in parts):
        return None
    subject, attribute, value = (str(part).strip().lower() for part in parts)
    return Slot(subject, attribute.replace(" ", "_"), value)
