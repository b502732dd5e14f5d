"""systemd's sd_notify protocol over $NOTIFY_SOCKET (READY, STATUS, WATCHDOG) without extra dependencies."""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send one notification (e.g. "READY=1"); False when not running under systemd or on error."""
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return False
    if addr[0] == "@":  # abstract namespace socket
        addr = "\0" + addr[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(addr)
            sock.sendall(message.encode("utf-8"))
        return True
    except OSError:
        return False


def watchdog_interval() -> float | None:
    """How often to send WATCHDOG=1 (half of WatchdogSec), or None when the watchdog is off for us."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return max(int(usec) / 1e6 / 2, 0.05)
    except ValueError:
        return None
