"""Chain-of-rooms plumbing: a room broker with the shipped bridge (config/mosquitto/bridge.conf), the central
broker (central.conf, central.acl), and a TCP link between them that a test can cut and restore."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from pathlib import Path

from tests.floor.broker import MOSQUITTO_PASSWD, USERS, Broker, free_port
from tests.room.shipped import shipped_config

CONFIG = Path(__file__).resolve().parents[2] / "config" / "mosquitto"
CENTRAL_USER = ("central", "central-secret")


def bridge_text(room: str, port: int, password: str) -> str:
    """The shipped bridge section for `room`, pointed at 127.0.0.1:`port`: only the room name, the address
    and the password substituted (and the restart timeout shortened, so that a test's cut heals quickly)."""
    out = []
    for line in (CONFIG / "bridge.conf").read_text(encoding="utf-8").splitlines():
        key = line.split(" ", 1)[0]
        if key == "address":
            line = f"address 127.0.0.1:{port}"
        elif key == "remote_password":
            line = f"remote_password {password}"
        elif key == "restart_timeout":
            line = "restart_timeout 1 2"
        out.append(line.replace("room1", room))
    return "\n".join(out) + "\n"


class RoomBroker(Broker):
    """A room's broker: the shipped room config plus the shipped bridge to the central broker."""

    def __init__(self, workdir: Path, room: str, central_port: int) -> None:
        self.room = room
        self.central_port = central_port
        super().__init__(workdir)

    def _write_config(self) -> None:
        super()._write_config()
        conf = self.dir / "mosquitto.conf"
        password = f"bridge-{self.room}-secret"
        conf.write_text(conf.read_text() + bridge_text(self.room, self.central_port, password))


class CentralBroker(Broker):
    """Head office's broker: the shipped central.conf and central.acl, one bridge user per room."""

    def __init__(self, workdir: Path, rooms: list[str]) -> None:
        self.rooms = rooms
        super().__init__(workdir)

    def _write_config(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        pw = self.dir / "passwd"
        pw.write_text("")
        users = {f"bridge-{r}": f"bridge-{r}-secret" for r in self.rooms}
        users |= {CENTRAL_USER[0]: CENTRAL_USER[1], "observer": USERS["observer"]}
        for user, password in users.items():
            subprocess.run([MOSQUITTO_PASSWD, "-b", str(pw), user, password], check=True, capture_output=True)
        acl = (CONFIG / "central.acl").read_text()
        for room in self.rooms[1:]:  # the shipped file has room1's block; one more per room
            acl += (f"\nuser bridge-{room}\ntopic write cardtable/{room}/#\n"
                    f"topic read cardtable/{room}/+/cmd/resend\n")
        acl += "\nuser observer\ntopic read cardtable/#\n"
        (self.dir / "acl").write_text(acl)
        (self.dir / "data").mkdir(exist_ok=True)
        (self.dir / "mosquitto.conf").write_text(shipped_config(
            port=self.port, workdir=self.dir / "data", password_file=pw, acl_file=self.dir / "acl",
            source=CONFIG / "central.conf"))


class Link:
    """A TCP relay standing for the wide-area link between a room's broker and the central broker.
    cut() drops every connection and refuses new ones (the line is down); restore() accepts again."""

    def __init__(self, target_port: int) -> None:
        self.port = free_port()
        self.target = target_port
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.connections = 0

    async def restore(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True)

    async def cut(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for w in list(self._writers):
            w.transport.abort()
        self._writers.clear()
        for task in list(self._pipes):
            task.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        self.connections += 1
        self._writers |= {writer, up_w}
        for src, dst in ((reader, up_w), (up_r, writer)):
            task = asyncio.create_task(self._pipe(src, dst))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
        dst.transport.abort()  # one side gone: the other goes too, as on a real line
