"""Batched ingest: what the broker has already delivered is stored in one transaction, then acknowledged.

After a stall or at room load the client's queue holds many messages; writing them one autocommitted
statement at a time makes the floor pay a commit per message. Here every message waiting in the queue
(up to MAX_BATCH) is handled inside one store transaction, and the QoS 1 acknowledgements go to the
broker only after the commit: if the floor dies or the commit fails, the broker delivers the whole batch
again and the store's keys make the second delivery harmless. When a statement inside fails, the store
rolls the whole batch back (TransactionAborted) and its messages are handled again one at a time.

Batches are small (MAX_BATCH): the browsers' live stream gets a batch's alerts right after its commit, so
an alert waits for at most one batch of work in front of it. The retained QoS 0 state costs no write here
(the ingest keeps it in memory and writes it coalesced, controller/floor/ingest.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from controller.floor.errors import TransactionAborted

log = logging.getLogger(__name__)
MAX_BATCH = 50


class Messages(Protocol):
    """aiomqtt's message iterator: async iteration plus the number of messages already queued."""

    def __aiter__(self) -> Messages: ...

    async def __anext__(self) -> Any: ...

    def __len__(self) -> int: ...


def payload_of(msg: Any) -> bytes:
    raw = msg.payload
    return bytes(raw) if isinstance(raw, bytes | bytearray) else str(raw).encode()


async def consume(messages: Messages, handle: Callable[[str, bytes], Awaitable[None]],
                  transaction: Callable[[], AbstractAsyncContextManager[None]], ack: Callable[[Any], None],
                  *, max_batch: int = MAX_BATCH, on_batch: Callable[[int], None] | None = None) -> None:
    """Handle messages batch by batch: one transaction each, acknowledged after its commit."""
    async for first in messages:
        batch = [first]
        while len(messages) and len(batch) < max_batch:
            batch.append(await anext(messages))  # already queued: returns at once
        try:
            async with transaction():
                for msg in batch:
                    await handle(str(msg.topic), payload_of(msg))
        except TransactionAborted as exc:
            # A statement failed and the store undid the whole batch (a deadlock between two floors on
            # one database, a full disk, a value the database refuses). One at a time, each message
            # commits or fails alone: stored, quarantined, or held for the store (Ingest.handle).
            log.warning("floor: a batch of %d messages was rolled back (%s); storing them one by one",
                        len(batch), exc)
            for msg in batch:
                await handle(str(msg.topic), payload_of(msg))
        for msg in batch:
            ack(msg)
        if on_batch is not None:
            on_batch(len(batch))
        await asyncio.sleep(0)  # let the live streams send this batch before the next one is taken
