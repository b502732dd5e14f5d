"""A throw-away Mosquitto for tests: free loopback port, password file, ACLs, persistence, restartable."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from tests.room.shipped import shipped_config

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"

# name → password. Tables publish as their own id (the ACL pattern keys on the user name); `sim` stands
# for a simulator that publishes several tables; `observer` is the test's subscriber.
USERS = {"floor": "floor-secret", "t1": "t1-secret", "t2": "t2-secret", "t3": "t3-secret",
         "sim": "sim-secret", "observer": "observer-secret"}

# The project's example ACL (config/mosquitto/cardtable.acl, from the daemon) when present, so the tests
# run under the rules a real installation uses; the built-in one says the same for the floor.
PROJECT_ACL = Path(__file__).resolve().parents[2] / "config" / "mosquitto" / "cardtable.acl"
BUILTIN_ACL = """\
# A table may publish only under its own prefix and read only its own commands.
user t1
topic write cardtable/t1/#
topic read cardtable/t1/cmd/#

user t2
topic write cardtable/t2/#
topic read cardtable/t2/cmd/#

# The floor reads alerts, state, hands and status, and may write only acknowledgements.
user floor
topic read cardtable/+/alerts
topic read cardtable/+/state
topic read cardtable/+/hands
topic read cardtable/+/status
topic write cardtable/+/cmd/ack
"""
# Test-only users: a third table, a simulator publishing any table, and an observer reading everything.
TEST_ACL = """
user t3
topic write cardtable/t3/#
topic read cardtable/t3/cmd/#

user sim
topic write cardtable/#
topic read cardtable/+/cmd/#
topic read cardtable/+/+/cmd/#

user observer
topic read cardtable/#
"""


def acl_text() -> str:
    base = PROJECT_ACL.read_text() if PROJECT_ACL.is_file() else BUILTIN_ACL
    return base.rstrip("\n") + "\n" + TEST_ACL


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def available() -> bool:
    return os.access(MOSQUITTO, os.X_OK) and os.access(MOSQUITTO_PASSWD, os.X_OK)


class Broker:
    def __init__(self, workdir: Path) -> None:
        self.dir = workdir
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self._write_config()

    def _write_config(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        pw = self.dir / "passwd"
        pw.write_text("")
        for user, password in USERS.items():
            subprocess.run([MOSQUITTO_PASSWD, "-b", str(pw), user, password], check=True, capture_output=True)
        (self.dir / "acl").write_text(acl_text())
        (self.dir / "data").mkdir(exist_ok=True)
        # The shipped config (queue limits, persistence), with only port, paths and passwords substituted.
        (self.dir / "mosquitto.conf").write_text(shipped_config(
            port=self.port, workdir=self.dir / "data", password_file=pw, acl_file=self.dir / "acl"))

    def start(self) -> None:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.dir / "mosquitto.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                log = (self.dir / "data" / "mosquitto.log").read_text()
                raise RuntimeError(f"mosquitto exited: {err or log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.03)
        raise RuntimeError("mosquitto did not start listening within 5 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: mosquitto writes its persistence file on the way out
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()
