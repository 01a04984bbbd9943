"""A TCP proxy in front of a Kafka broker whose fetches can be stalled (tests only).

While stalled, a Fetch request (Kafka API key 1) waits in the proxy, and so does every
request after it on its connection: the broker never sees them, as when a broker under
load or a wedged connection never answers a fetch. Other requests (metadata, offsets,
produce) on other connections pass. The broker must advertise the proxy's port
(``TansuBroker(advertised_port=...)``), or clients reach it directly after bootstrap.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct

FETCH = 1


class StallingProxy:
    """Forwards every connection to ``upstream_port``; :meth:`stall` holds fetches."""

    def __init__(self, upstream_port: int, host: str = "127.0.0.1") -> None:
        self._upstream = (host, upstream_port)
        self._host = host
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._held = asyncio.Condition()
        self.fetches_held = 0
        self._server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> StallingProxy:
        self._server = await asyncio.start_server(self._serve, self._host, 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    def stall(self) -> None:
        self._flowing.clear()

    def release(self) -> None:
        self._flowing.set()

    async def held(self, fetches: int) -> None:
        """Wait until ``fetches`` fetch requests were held since the proxy started."""
        async with self._held:
            await self._held.wait_for(lambda: self.fetches_held >= fetches)

    async def close(self) -> None:
        self.release()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, client: asyncio.StreamReader, to_client: asyncio.StreamWriter) -> None:
        try:
            broker, to_broker = await asyncio.open_connection(*self._upstream)
        except OSError:
            to_client.close()
            return
        pipes = [self._requests(client, to_broker), _pipe(broker, to_client)]
        with contextlib.suppress(Exception):
            await asyncio.gather(*pipes)
        for writer in (to_broker, to_client):
            writer.close()

    async def _requests(
        self, client: asyncio.StreamReader, to_broker: asyncio.StreamWriter
    ) -> None:
        """Frame by frame (a 4-byte size, then the request, whose first 2 bytes are its
        API key), holding a fetch while stalled."""
        try:
            while True:
                head = await client.readexactly(4)
                body = await client.readexactly(struct.unpack(">i", head)[0])
                if struct.unpack(">h", body[:2])[0] == FETCH and not self._flowing.is_set():
                    async with self._held:
                        self.fetches_held += 1
                        self._held.notify_all()
                    await self._flowing.wait()
                to_broker.write(head + body)
                await to_broker.drain()
        finally:
            to_broker.close()


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    finally:
        sink.close()
