"""Composition root of the floor screen: store, ingest, broker link and web server under one task group."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiohttp import web

from controller.floor.config import FloorConfig
from controller.floor.gaps import Streams
from controller.floor.gcwatch import GcWatch
from controller.floor.hub import Hub
from controller.floor.ingest import Ingest
from controller.floor.ledger import Ledger
from controller.floor.link import BrokerLink, floor_client_id
from controller.floor.store import Store, open_store
from controller.floor.web import Floor, build_app

log = logging.getLogger("cardtable.floor")


class FloorService:
    def __init__(self, cfg: FloorConfig, *, clock: Callable[[], float] = time.time) -> None:
        self.cfg = cfg
        self.store: Store = open_store(cfg.store)
        self.hub = Hub()
        self.ingest = Ingest(store=self.store, hub=self.hub, prefix=cfg.broker.prefix, dealers=cfg.dealers,
                             clock=clock, rooms=cfg.broker.rooms)
        # Sequence numbers: gaps, duplicates, resend requests, broker drop counters (gaps.py); a floor
        # sharing its subscription with others sees part of each stream and tracks through the database
        client_id = floor_client_id(cfg.broker.client_id, cfg.store)
        ledger = None if cfg.broker.share_group is None else Ledger(self.store, client_id)
        self.streams = Streams(self.ingest, prefix=cfg.broker.prefix, rooms=cfg.broker.rooms, ledger=ledger)
        self.link = BrokerLink(cfg.broker, ingest=self.streams, store=self.store,  # type: ignore[arg-type]
                               client_id=client_id)
        self.link.transaction = self.ingest.batch  # the browsers see a batch's alerts once it is committed
        self.link.subscriptions += self.streams.subscriptions()
        self.link.with_client.append(self.streams.pump)
        self.link.on_change.append(lambda up: self.hub.publish({"type": "broker", "connected": up}))
        self.link.on_ack_published.append(
            lambda ack: self.hub.publish({"type": "ack_sent", "table": ack.table, "id": ack.alert_id}))
        self.gc = GcWatch()  # collections' pauses on the health page (a long one delays every alert)
        self.floor = Floor(cfg=cfg, store=self.store, hub=self.hub, ingest=self.ingest,
                           acks_pending=self.link.acks_pending, link_stats=self.link_statistics,
                           gc_stats=self.gc.statistics, clock=clock)
        self._runner: web.AppRunner | None = None
        self.port = 0

    def link_statistics(self) -> dict[str, Any]:
        """The health page's broker block: the link, plus gaps, resends and broker drops per table."""
        return {**self.link.statistics(), "streams": self.streams.statistics()}

    @property
    def url(self) -> str:
        host = self.cfg.web.host if self.cfg.web.host not in ("0.0.0.0", "::") else "127.0.0.1"
        return f"http://{host}:{self.port}"

    async def start(self) -> None:
        """Open the store and start serving HTTP; the broker link runs separately (run_link)."""
        await self.store.open()
        await self.ingest.load()
        await self.streams.load(self.store)
        await self.floor.restore_sessions()
        self._runner = web.AppRunner(build_app(self.floor), access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.cfg.web.host, self.cfg.web.port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.cfg.web.port
        self.gc.install()  # from here on: a failed start's collections are not the floor's pauses

    def freeze_startup(self) -> None:
        """What start-up made (modules, config, the web app: ~60,000 objects) lives as long as the process:
        frozen, no later full collection walks it again (12 ms each on an idle machine). For the floor
        process only (serve): a process that starts floors again and again (tests) would keep every
        object of the earlier ones. Its own collection is not timed as a floor pause."""
        self.gc.remove()
        gc.collect()
        gc.freeze()
        self.gc.install()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.ingest.flush_states()
        await self.streams.save(self.store)
        await self.store.close()
        self.gc.remove()


@contextlib.asynccontextmanager
async def running(cfg: FloorConfig) -> AsyncIterator[FloorService]:
    """The service with its broker link running, for tests and embedding; stopped on exit."""
    svc = FloorService(cfg)
    await svc.start()
    try:
        async with asyncio.TaskGroup() as tg:
            tasks = [tg.create_task(svc.link.run(), name="floor-broker"),
                     tg.create_task(svc.ingest.run_state_writer(), name="floor-state-writer"),
                     tg.create_task(svc.store.run_maintenance(), name="floor-store-maintenance"),
                     tg.create_task(svc.streams.run_saver(svc.store), name="floor-streams")]
            try:
                yield svc
            finally:
                for task in tasks:
                    task.cancel()
    finally:
        await svc.stop()


async def serve(cfg: FloorConfig) -> None:
    """Run until SIGINT/SIGTERM: the CLI's entry point."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with running(cfg) as svc:
        svc.freeze_startup()
        where = "PostgreSQL" if cfg.store.dsn else str(cfg.store.sqlite)
        print(f"cardtable floor: serving {svc.url} (store: {where}, "
              f"broker {cfg.broker.host}:{cfg.broker.port})", flush=True)
        await stop.wait()
