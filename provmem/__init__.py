"""provmem: provenance-grounded long-term memory for AI agents.

    from provmem import Memory
    m = Memory()
    m.add([{"role": "user", "content": "I moved to Lisbon in May."}], user_id="alice")
    found = m.search("Where does alice live?", user_id="alice")  # str(found): readable

``Memory`` blocks, ``AsyncMemory`` is for asyncio; both run the embedded runtime on a
data folder, or talk to a server with ``url=`` and ``api_key=``. ``provmem.client`` is
the HTTP SDK. Importing this package loads nothing heavy: the runtime (stores, embedding
model) is loaded when a memory opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from provmem.services.sdk.facade import (
        AsyncMemory,
        Bundle,
        CorrectionRefusedError,
        Memory,
        RejectedError,
        SearchResult,
        configure_logging,
    )

__all__ = [
    "AsyncMemory",
    "CorrectionRefusedError",
    "Bundle",
    "Memory",
    "RejectedError",
    "SearchResult",
    "configure_logging",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in __all__:
        from provmem.services.sdk import facade

        return getattr(facade, name)
    raise AttributeError(f"module 'provmem' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
